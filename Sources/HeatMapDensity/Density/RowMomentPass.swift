import Foundation
import HeatMapCore

/// The y pass of the row-moment method: turns the moment runs of
/// ``RowMomentBinning`` into the rows' Σ w·e^(−d²/2σ²).
///
/// Output row r is Σⱼ Σₖ kₖ[j] · (run k of row r − j), with
/// kₖ[j] = e^(−t²/2) tᵏ / k! and t = jδy/σ, over the 2J + 1 rows within the
/// kernel's reach that hold points. Each row's terms are listed first (run
/// and coefficient); the columns are then summed eight at a time in
/// registers, so each output costs one load and one multiply-add per term
/// and is written once. A block of rows goes strip by strip of columns: the
/// strip of the rows it reads stays in the core's cache for all of the
/// block's rows, instead of being read again from memory for each row.
/// O(columns × (M + 1) × (2J + 1)) per row. A per-task object:
/// ``deallocate()`` it when done.
struct RowMomentPass {
    package let layout: RowMomentLayout
    /// J: rows on each side.
    package let half: Int
    /// Rows per block.
    let blockRows: Int
    /// kₖ[j] at `(j + J)·(M + 1) + k`.
    private let coefficients: [Double]
    /// Terms per row at most: (2J + 1)(M + 1).
    private let capacity: Int
    /// The block's rows' terms: runs and coefficients, `capacity` per row.
    private let runs: UnsafeMutablePointer<UnsafePointer<Double>>
    private let factors: UnsafeMutablePointer<Double>
    private let termCounts: UnsafeMutablePointer<Int>

    /// Columns per strip: the strip of the 2J + rows of a block read, all
    /// moments, stays within about 256 KB.
    private let stripColumns: Int

    package init(layout: RowMomentLayout, yAxis: GaussianAxis, blockRows: Int) {
        self.layout = layout
        self.blockRows = blockRows
        let kernels = SeparableConvolution.kernels(order: layout.order, axis: yAxis)
        half = (kernels[0].count - 1) / 2
        var coefficients: [Double] = []
        for j in 0..<kernels[0].count { for k in 0..<layout.moments { coefficients.append(kernels[k][j]) } }
        self.coefficients = coefficients
        capacity = coefficients.count
        runs = .allocate(capacity: capacity * blockRows)
        factors = .allocate(capacity: capacity * blockRows)
        termCounts = .allocate(capacity: blockRows)
        let bytesPerColumn = (2 * half + blockRows) * layout.moments * MemoryLayout<Double>.stride
        stripColumns = max(8, (256 << 10) / bytesPerColumn / 8 * 8)
    }

    func deallocate() {
        runs.deallocate()
        factors.deallocate()
        termCounts.deallocate()
    }

    /// Writes the sums for `channel` of rows `first ..< first + count`
    /// (count ≤ blockRows) to `out + (r − first)·outStride`, each holding
    /// columns + 8 doubles (the last vector may run past the row).
    package func run(
        rows first: Int, count: Int, channel: Int, moments: UnsafePointer<Double>,
        into out: UnsafeMutablePointer<Double>, outStride: Int
    ) {
        let k = layout.moments
        for i in 0..<count {
            let r = first + i
            var terms = 0
            let runs = self.runs + i * capacity, factors = self.factors + i * capacity
            for j in -half...half {
                let a = r - j
                guard a >= 0, a < layout.rows, moments[layout.flagsOffset + a] != 0 else { continue }
                for q in 0..<k {
                    let f = coefficients[(j + half) * k + q]
                    // The odd kernels vanish at j = 0.
                    guard f != 0 else { continue }
                    runs[terms] = moments + layout.offset(row: a, plane: channel * k + q)
                    factors[terms] = f
                    terms += 1
                }
            }
            termCounts[i] = terms
        }
        let columns = layout.columns
        var strip = 0
        while strip < columns {
            let end = min(columns, strip + stripColumns)
            for i in 0..<count {
                let runs = self.runs + i * capacity, factors = self.factors + i * capacity
                let terms = termCounts[i]
                let row = out + i * outStride
                var c = strip
                while c < end {
                    // Two sums, so that one term's additions need not wait
                    // for the previous one's.
                    var even = SIMD8<Double>(), odd = SIMD8<Double>()
                    var t = 0
                    while t + 1 < terms {
                        even += factors[t] * load8(runs[t] + c)
                        odd += factors[t + 1] * load8(runs[t + 1] + c)
                        t += 2
                    }
                    if t < terms { even += factors[t] * load8(runs[t] + c) }
                    UnsafeMutableRawPointer(row + c).storeBytes(of: even + odd, as: SIMD8<Double>.self)
                    c += 8
                }
            }
            strip = end
        }
    }
}

@inline(__always) private func load8(_ p: UnsafePointer<Double>) -> SIMD8<Double> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Double>.self)
}
