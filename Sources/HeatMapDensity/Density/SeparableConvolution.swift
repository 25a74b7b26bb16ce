import Foundation
import HeatMapCore
import Synchronization

/// Turns the moments of ``MomentBinning`` into Σ w e^(−d²/2σ²) at the
/// nodes. x pass, per row: the row's moments Aₘₙ are convolved with their
/// x kernels and summed over m into Tₙ = Σₘ Aₘₙ ∗ kxₘ, written back in place
/// (the row's storage is free once read). y pass, per output row: Σₙ Σₗ
/// Tₙ[r − l] · kyₙ[l]. Both passes run over blocks of rows on all cores,
/// register-blocked eight columns at a time, and poll cancellation per
/// block. Cost O(cells · (planes · x taps + (M + 1) · y taps)).
struct SeparableConvolution {
    /// Taylor order M, or nil for linear binning (one plane, kernel e^(−t²/2)).
    package let order: Int?
    package let columns: Int
    package let rows: Int
    /// Moments per node and channel (see ``MomentBinning/planeCount(order:)``).
    let planeCount: Int
    /// 1 (density) or 2 (mean: weight and value channels).
    let channels: Int
    /// `xKernels[m][j + J]` = e^(−t²/2) tᵐ / m!, t = jδx/σ, j in −J...J.
    let xKernels: [[Double]]
    /// `yKernels[n][l + L]` likewise along y.
    let yKernels: [[Double]]

    static let blockRows = 8

    package init(order: Int?, xAxis: GaussianAxis, yAxis: GaussianAxis, channels: Int) {
        self.order = order
        self.columns = xAxis.count
        self.rows = yAxis.count
        self.planeCount = MomentBinning.planeCount(order: order)
        self.channels = channels
        let offset = order == nil ? 1.0 : 0.5
        xKernels = SeparableConvolution.kernels(order: order ?? 0, axis: xAxis, offset: offset)
        yKernels = SeparableConvolution.kernels(order: order ?? 0, axis: yAxis, offset: offset)
    }

    /// The taps of e^(−t²/2) tᵐ / m! for m in 0...order, out to the axis's
    /// reach plus `offset`, the most a binned point may sit off its node in
    /// cells (½ for the nearest node, 1 for linear binning's lower one): a
    /// node j cells from the binned one is within reach of the point only if
    /// |j| ≤ reach/δ + offset, so the taps stop there.
    static func kernels(order: Int, axis: GaussianAxis, offset: Double = 0.5) -> [[Double]] {
        let half = Int(min((axis.reach / axis.step + offset).rounded(.down), Double(axis.count)))
        var out: [[Double]] = []
        var factorial = 1.0
        for m in 0...order {
            if m > 0 { factorial *= Double(m) }
            out.append(
                (-half...half).map { j in
                    let t = Double(j) * axis.step / axis.sigma
                    return exp(-t * t / 2) * pow(t, Double(m)) / factorial
                })
        }
        return out
    }

    /// Doubles of slack the moment buffer needs past its end (the passes
    /// read whole vectors of eight).
    static let slack = 8

    private var maxOrder: Int { order ?? 0 }

    /// Index of moment (m, n), ordered by n then m.
    private func plane(_ m: Int, _ n: Int) -> Int {
        var offset = 0
        for k in 0..<n { offset += maxOrder - k + 1 }
        return offset + m
    }

    /// Runs both passes. `emit(row, sums)` receives each output row's Σ w K
    /// (and Σ v w K for two channels) in `sums[channel * columns ..< …]`;
    /// rows are emitted from several threads, each exactly once.
    package func run(
        planes: UnsafeMutablePointer<Double>, control: ComputeControl,
        progress: @escaping @Sendable (Double) -> Void,
        emit: (Int, UnsafePointer<Double>) -> Void
    ) throws {
        let blockRows = SeparableConvolution.blockRows
        let blocks = (rows + blockRows - 1) / blockRows
        let cells = columns * rows
        let order = maxOrder
        let rowStride = columns * planeCount
        // Kernel of each moment plane along x.
        let planeKernels = (0...order).flatMap { n in (0...(order - n)).map { m in xKernels[m] } }
        // Which (channel, n, row) results of the x pass are not all zero:
        // empty rows are skipped by the y pass.
        var live = [Bool](repeating: false, count: channels * (order + 1) * rows)
        let done = ProgressCounter(total: 2 * blocks, report: progress)

        try live.withUnsafeMutableBufferPointer { live in
            let live = live.baseAddress!
            // x pass, in place: row r's storage becomes T₀ … T_M, each `columns` long.
            try Parallel.forEach(blocks) { b in
                try control.checkCancellation()
                let convolver = RowConvolver(columns: columns, kernels: planeKernels)
                defer { convolver.deallocate() }
                var empty = [Bool](repeating: false, count: planeCount)
                for r in b * blockRows..<min(rows, (b + 1) * blockRows) {
                    for ch in 0..<channels {
                        let row = planes + ch * planeCount * cells + r * rowStride
                        for p in 0..<planeCount {
                            let input = convolver.input(p)
                            var any = false
                            for c in 0..<columns {
                                let v = row[c &* planeCount &+ p]
                                input[c] = v
                                any = any || v != 0
                            }
                            empty[p] = !any
                        }
                        for n in 0...order {
                            let first = plane(0, n), last = plane(order - n, n)
                            let out = row + n * columns
                            let any = (first...last).contains { !empty[$0] }
                            if any {
                                convolver.run(inputs: first..<(last + 1)) { empty[$0] }
                                out.update(from: convolver.output, count: columns)
                            } else {
                                out.update(repeating: 0, count: columns)
                            }
                            live[(ch * (order + 1) + n) * rows + r] = any
                        }
                    }
                }
                done.add(1)
            }

            // y pass: output row r = Σₙ Σₗ Tₙ[r − l] · kyₙ[l].
            let half = (yKernels[0].count - 1) / 2
            let yTaps = yKernels.flatMap { $0 }
            try yTaps.withUnsafeBufferPointer { yTaps in
                let yTaps = yTaps.baseAddress!
                let width = 2 * half + 1
                try Parallel.forEach(blocks) { b in
                    try control.checkCancellation()
                    let sums = UnsafeMutablePointer<Double>.allocate(capacity: channels * columns + 8)
                    defer { sums.deallocate() }
                    for r in b * blockRows..<min(rows, (b + 1) * blockRows) {
                        let lo = max(0, r - half), hi = min(rows - 1, r + half)
                        for ch in 0..<channels {
                            let channel = planes + ch * planeCount * cells
                            var c = 0
                            while c < columns {
                                var acc = SIMD8<Double>()
                                for n in 0...order {
                                    let flags = live + (ch * (order + 1) + n) * rows
                                    let k = yTaps + n * width + half + r
                                    for source in lo...hi where flags[source] {
                                        let p = UnsafeRawPointer(channel + source * rowStride + n * columns + c)
                                        acc += k[-source] * p.loadUnaligned(as: SIMD8<Double>.self)
                                    }
                                }
                                UnsafeMutableRawPointer(sums + ch * columns + c).storeBytes(
                                    of: acc,
                                    as: SIMD8<Double>.self)
                                c += 8
                            }
                        }
                        emit(r, sums)
                    }
                    done.add(1)
                }
            }
        }
    }
}

/// Counts finished work items across threads and reports the fraction.
final class ProgressCounter: Sendable {
    private let done = Atomic<Int>(0)
    private let total: Int
    private let report: @Sendable (Double) -> Void

    package init(total: Int, report: @escaping @Sendable (Double) -> Void) {
        self.total = max(total, 1)
        self.report = report
    }

    package func add(_ n: Int) {
        let now = done.add(n, ordering: .relaxed).newValue
        report(Double(now) / Double(total))
    }
}
