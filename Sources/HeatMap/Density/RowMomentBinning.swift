import Foundation

/// The hybrid binned method for narrow kernels (σ of one to a few cells):
/// exact along y, Taylor moments along x.
///
/// Each point adds to every row within reach, as the exact splat does, but
/// in each row it adds only to its nearest column c: the M + 1 moments
/// g·s^m (s = (p − c)/σ, g = w·e^(−s²/2)·e^(−(y_r − p_y)²/2σ²)), stored side by
/// side per node. The x factor then comes from one 1-D convolution per row
/// with the kernels e^(−t²/2) tᵐ / m! (see ``MomentBinning`` for the
/// identity). The dropped terms are of order (δ/2σ)^(M+1)/(M+1)!: at most
/// 2e−4 of a point's peak for M = 5 from σ = 1 cell, 4.2e−4 for M = 4 from
/// σ = 1.25 cells, 3.8e−4 for M = 3 from σ = 2 cells. The row weights come
/// from a ``GaussianTable``. A point costs (2·4σ/δy) rows × (M + 1)
/// additions (the automatic reach, ``DensityPlan/automaticReachInSigmas``)
/// instead of the π(5σ/δ)² of the exact splat; the grid costs
/// cells × (M + 1) × (2·4σ/δx) multiply-adds once.
struct RowMomentBinning: RowDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// Taylor order M: 3, 4 or 5.
    let order: Int
    /// columns × rows × (M + 1) moments, node-major; then, for the mean
    /// estimator, as many for the value channel.
    let moments: UnsafeMutablePointer<Double>
    /// The exact splat, whose reach this method shares; points off the
    /// grid's columns are left to it.
    let fallback: DirectSplat
    /// The y kernel around a point's nearest row.
    let table: GaussianTable

    var scratchCount: Int { fallback.scratchCount }
    var reachRows: Int { table.half }
    /// The kernel's reach in rows.
    private var reachInRows: Double { yAxis.reach / yAxis.step }
    var pollInterval: Int { max(1, 100_000 / (table.width * (order + 1))) }
    /// Whether values are accumulated too (mean estimator).
    let hasValue: Bool

    /// The nearest column of a point, or nil when it is off the grid.
    @inline(__always) static func column(_ fx: Double, columns: Int) -> Int? {
        guard fx >= -0.5, fx < Double(columns) - 0.5 else { return nil }
        return min(GaussianAxis.floor(fx + 0.5), columns - 1)
    }

    /// Points off the grid's columns are left to the exact splat.
    @inline(__always) func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        guard let c = RowMomentBinning.column(xAxis.index(of: px), columns: xAxis.count) else { return nil }
        let fy = yAxis.index(of: py)
        let reach = Double(table.half)
        guard fy > -reach - 0.5, fy < Double(yAxis.count - 1) + reach + 0.5 else { return nil }
        return (yAxis.nearest(py), c)
    }

    @inline(__always)
    func deposit(x px: Double, y py: Double, weight w: Double, value v: Double,
                 scratch: UnsafeMutablePointer<Double>) {
        if w == 0 { return }
        let fx = xAxis.index(of: px)
        guard let c = RowMomentBinning.column(fx, columns: xAxis.count) else { return }
        let s = (fx - Double(c)) * (xAxis.step / xAxis.sigma)
        let g = w * MomentBinning.expNegative(s * s / 2)
        // Rows around the nearest one, clipped to the grid.
        let fy = min(max(yAxis.index(of: py), -Double(table.half) - 1), Double(yAxis.count + table.half))
        let nearest = GaussianAxis.floor(fy + 0.5)
        let (base, slope, t) = table.locate(fy - Double(nearest))
        // Rows within reach of the point (the table spans half a cell more),
        // clipped to the grid.
        let first = nearest - table.half
        let lo = max(GaussianAxis.ceiling(fy - reachInRows), 0), hi = min(GaussianAxis.floor(fy + reachInRows), yAxis.count - 1)
        let j0 = max(lo - first, 0), j1 = min(hi - first, table.width - 1)
        guard j0 <= j1 else { return }
        // Walk the point's column down the rows: one node of K moments per row.
        let k = order + 1
        let rowStride = xAxis.count &* k
        let offset = ((first + j0) &* xAxis.count &+ c) &* k
        var cell = moments + offset
        var cellV = moments + (xAxis.count &* yAxis.count &* k &+ offset)
        if order == 3 {
            let m = SIMD4(g, g * s, g * s * s, g * s * s * s)
            for j in j0...j1 {
                let a = base[j] + t * slope[j]
                RowMomentBinning.add4(cell, a * m)
                if hasValue { RowMomentBinning.add4(cellV, (a * v) * m) }
                cell += rowStride
                cellV += rowStride
            }
        } else if order == 4 {
            let s2 = s * s
            let m = SIMD4(g, g * s, g * s2, g * s2 * s), m4 = g * s2 * s2
            for j in j0...j1 {
                let a = base[j] + t * slope[j]
                RowMomentBinning.add4(cell, a * m)
                cell[4] += a * m4
                if hasValue {
                    let av = a * v
                    RowMomentBinning.add4(cellV, av * m)
                    cellV[4] += av * m4
                }
                cell += rowStride
                cellV += rowStride
            }
        } else {
            let s2 = s * s
            let lo = SIMD2(g, g * s), mid = lo * s2, hi = mid * s2
            for j in j0...j1 {
                let a = base[j] + t * slope[j]
                RowMomentBinning.add2(cell, a * lo)
                RowMomentBinning.add2(cell + 2, a * mid)
                RowMomentBinning.add2(cell + 4, a * hi)
                if hasValue {
                    let av = a * v
                    RowMomentBinning.add2(cellV, av * lo)
                    RowMomentBinning.add2(cellV + 2, av * mid)
                    RowMomentBinning.add2(cellV + 4, av * hi)
                }
                cell += rowStride
                cellV += rowStride
            }
        }
    }

    @inline(__always) static func add4(_ p: UnsafeMutablePointer<Double>, _ v: SIMD4<Double>) {
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: raw.loadUnaligned(as: SIMD4<Double>.self) + v, as: SIMD4<Double>.self)
    }

    @inline(__always) static func add2(_ p: UnsafeMutablePointer<Double>, _ v: SIMD2<Double>) {
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: raw.loadUnaligned(as: SIMD2<Double>.self) + v, as: SIMD2<Double>.self)
    }

    /// The x pass for output row r: de-interleaves the row's moments into
    /// the convolver's inputs and runs it (result in `convolver.output`).
    static func convolveRow(_ row: UnsafePointer<Double>, order: Int, convolver: RowConvolver) {
        let stride = order + 1
        var flags: UInt = 0
        for m in 0...order {
            let input = convolver.input(m)
            var any = false
            for c in 0..<convolver.columns {
                let v = row[c &* stride &+ m]
                input[c] = v
                any = any || v != 0
            }
            if !any { flags |= 1 << m }
        }
        convolver.run(count: stride) { flags & (1 << $0) != 0 }
    }
}
