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
/// from a ``GaussianTable``. The sort keeps each point as an `Entry` (its
/// node, offsets and kernel weight; the offsets as `Float`, within 3e−8 of
/// a cell). A point costs (2·4σ/δy) rows × (M + 1)
/// additions (the automatic reach, ``DensityPlan/automaticReachInSigmas``)
/// instead of the π(5σ/δ)² of the exact splat; the grid costs
/// cells × (M + 1) × (2·4σ/δx) multiply-adds once.
struct RowMomentBinning<Entry: RowMomentEntry>: RowDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    /// Taylor order M: 3, 4 or 5.
    let order: Int
    /// columns × rows × (M + 1) moments, node-major; then, for the mean
    /// estimator, as many for the value channel.
    let moments: UnsafeMutablePointer<Double>
    /// The y kernel around a point's nearest row (a view: copying the
    /// depositor per point then counts no references; the owner keeps the
    /// table alive while it runs).
    let table: GaussianTable.Lookup
    /// δx/σ: converts a column offset into the moments' variable s.
    private let stepInSigmas: Double
    /// The kernel's reach in rows.
    private let reachInRows: Double

    init(xAxis: GaussianAxis, yAxis: GaussianAxis, order: Int, moments: UnsafeMutablePointer<Double>,
         table: GaussianTable.Lookup) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.order = order
        self.moments = moments
        self.table = table
        stepInSigmas = xAxis.step / xAxis.sigma
        reachInRows = yAxis.reach / yAxis.step
    }

    var scratchCount: Int { 1 }
    var reachRows: Int { table.half }
    var pollInterval: Int { max(1, 100_000 / (table.width * (order + 1))) }

    /// Points off the grid's columns are left to the exact splat (the
    /// accumulator's off-grid pass); rows are those within a table's
    /// half-width of the grid.
    @inline(__always) func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        guard let c = xAxis.node(atIndex: xAxis.index(of: px)) else { return nil }
        let fy = yAxis.index(of: py)
        let reach = Double(table.half)
        guard fy > -reach - 0.5, fy < Double(yAxis.count - 1) + reach + 0.5 else { return nil }
        return (yAxis.nearest(py), c)
    }

    @inline(__always)
    func entry(x px: Double, y py: Double, weight w: Double, value v: Double) -> Entry {
        let fx = xAxis.index(of: px), fy = yAxis.index(of: py)
        // Anchored points are within the table's reach of the grid, so
        // these conversions are in range.
        let c = min(GaussianAxis.floor(fx + 0.5), xAxis.count - 1)
        let nearest = GaussianAxis.floor(fy + 0.5)
        let s = (fx - Double(c)) * stepInSigmas
        let point = RowMomentPoint(row: Int32(nearest), column: Int32(c), s: Float(s), u: Float(fy - Double(nearest)),
                                   weight: w * MomentBinning.expNegative(s * s / 2))
        return Entry(point, value: v)
    }

    @inline(__always)
    func deposit(_ e: Entry, scratch: UnsafeMutablePointer<Double>) {
        let p = e.point
        let nearest = Int(p.row), u = Double(p.u), s = Double(p.s), g = p.weight
        let (base, slope, t) = table.locate(u)
        // Table entry j is row nearest − J + j. Rows within reach of the
        // point, clipped to the grid; all are in the table, as J = ⌊reach + ½⌋
        // and |u| ≤ ½.
        let half = table.half
        let j0 = max(GaussianAxis.ceiling(u - reachInRows) &+ half, half &- nearest)
        let j1 = min(GaussianAxis.floor(u + reachInRows) &+ half, yAxis.count &- 1 &- nearest &+ half)
        guard j0 <= j1 else { return }
        // Walk the point's column down the rows: one node of K moments per row.
        let k = order &+ 1
        let rowStride = xAxis.count &* k
        let offset = ((nearest &- half &+ j0) &* xAxis.count &+ Int(p.column)) &* k
        let cell = moments + offset
        // The value channel's moments follow the density's.
        let cellV = moments + (xAxis.count &* yAxis.count &* k &+ offset)
        let v = e.value
        let s2 = s * s
        switch order {
        case 3:
            let m = SIMD4(g, g * s, g * s2, g * s2 * s)
            let add: (UnsafeMutablePointer<Double>, Double) -> Void = { p, a in add4(p, a * m) }
            walk(j0, j1, base, slope, t, cell, rowStride, add)
            if Entry.hasValue { walk(j0, j1, base, slope, t, cellV, rowStride) { add($0, $1 * v) } }
        case 4:
            let m = SIMD4(g, g * s, g * s2, g * s2 * s), m4 = g * s2 * s2
            let add: (UnsafeMutablePointer<Double>, Double) -> Void = { p, a in
                add4(p, a * m)
                p[4] += a * m4
            }
            walk(j0, j1, base, slope, t, cell, rowStride, add)
            if Entry.hasValue { walk(j0, j1, base, slope, t, cellV, rowStride) { add($0, $1 * v) } }
        default:
            let lo = SIMD2(g, g * s), mid = lo * s2, hi = mid * s2
            let add: (UnsafeMutablePointer<Double>, Double) -> Void = { p, a in
                add2(p, a * lo)
                add2(p + 2, a * mid)
                add2(p + 4, a * hi)
            }
            walk(j0, j1, base, slope, t, cell, rowStride, add)
            if Entry.hasValue { walk(j0, j1, base, slope, t, cellV, rowStride) { add($0, $1 * v) } }
        }
    }
}

/// Calls `add(node, a)` for table rows j0...j1, a being the row's
/// interpolated kernel weight and node the point's column in that row.
@inline(__always)
private func walk(_ j0: Int, _ j1: Int, _ base: UnsafePointer<Double>, _ slope: UnsafePointer<Double>,
                  _ t: Double, _ first: UnsafeMutablePointer<Double>, _ rowStride: Int,
                  _ add: (UnsafeMutablePointer<Double>, Double) -> Void) {
    var node = first
    var j = j0
    while j <= j1 {
        add(node, base[j] + t * slope[j])
        node += rowStride
        j &+= 1
    }
}

@inline(__always) private func add4(_ p: UnsafeMutablePointer<Double>, _ v: SIMD4<Double>) {
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: raw.loadUnaligned(as: SIMD4<Double>.self) + v, as: SIMD4<Double>.self)
}

@inline(__always) private func add2(_ p: UnsafeMutablePointer<Double>, _ v: SIMD2<Double>) {
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: raw.loadUnaligned(as: SIMD2<Double>.self) + v, as: SIMD2<Double>.self)
}
