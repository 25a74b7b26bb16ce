import Foundation
import HeatMapCore

/// The hybrid binned method for narrow kernels (σ of one to a few cells):
/// exact along x, Taylor moments along y; each point writes only its own
/// row.
///
/// A point p goes to its nearest row a, offset s = (p_y − y_a)/σ. In that
/// row it adds, to every column j within the kernel's width, the M + 1
/// moments g·s^k with g = w·e^(−s²/2)·e^(−(x_j − p_x)²/2σ²), one run of
/// columns per moment (``RowMomentLayout``). The y factor then comes from one
/// 1-D convolution down the columns with the kernels e^(−t²/2) tᵏ / k!
/// (``RowMomentPass``; see ``MomentBinning`` for the identity). The dropped
/// terms are of order (δ/2σ)^(M+1)/(M+1)!: at most 2e−4 of a point's peak
/// for M = 5 from σ = 1 cell, 4.2e−4 for M = 4 from σ = 1.25 cells,
/// 3.8e−4 for M = 3 from σ = 2 cells. The column weights come from a
/// ``GaussianTable``: every column within reach and, at the ends of the
/// table, a few just beyond (closer to the untruncated kernel, not
/// farther). The sort keeps each point as an `Entry` (its node, offsets and
/// kernel weight; the offsets as `Float`, within 3e−8 of a cell).
///
/// A point costs (M + 1) runs of 2·4σ/δx + 1 additions, contiguous in one
/// row (instead of the π(4σ/δ)² scattered nodes of the exact splat), and
/// points sorted by row land while their row is in cache; the grid costs
/// cells × (M + 1) × (2·4σ/δy + 1) multiply-adds once.
struct RowMomentBinning<Entry: RowMomentEntry>: RowDepositor {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    package let layout: RowMomentLayout
    /// The moments, as `layout` places them, both channels.
    let moments: UnsafeMutablePointer<Double>
    /// The x kernel around a point's nearest column (a view: copying the
    /// depositor per point then counts no references; the owner keeps the
    /// table alive while it runs).
    package let table: GaussianTable.Lookup
    /// δy/σ: converts a row offset into the moments' variable s.
    private let stepInSigmas: Double

    package init(
        xAxis: GaussianAxis, yAxis: GaussianAxis, layout: RowMomentLayout, moments: UnsafeMutablePointer<Double>,
        table: GaussianTable.Lookup
    ) {
        precondition(table.half == layout.half && table.stride >= layout.span, "table and layout disagree")
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.layout = layout
        self.moments = moments
        self.table = table
        stepInSigmas = yAxis.step / yAxis.sigma
    }

    var scratchCount: Int { 1 }
    /// A point writes its own row only (so the sort orders points by row).
    var reachRows: Int { 0 }
    package var pollInterval: Int { max(1, 100_000 / (layout.span * layout.planes)) }

    /// Points off the grid's rows are left to the exact splat (the
    /// accumulator's off-grid pass); columns are those within a table's
    /// half-width of the grid.
    @inline(__always) package func anchor(x px: Double, y py: Double) -> (row: Int, column: Int)? {
        guard let r = yAxis.node(atIndex: yAxis.index(of: py)) else { return nil }
        let fx = xAxis.index(of: px)
        let reach = Double(table.half)
        guard fx > -reach - 0.5, fx < Double(xAxis.count - 1) + reach + 0.5 else { return nil }
        return (r, xAxis.nearest(px))
    }

    @inline(__always)
    package func entry(x px: Double, y py: Double, weight w: Double, value v: Double) -> Entry {
        let fx = xAxis.index(of: px), fy = yAxis.index(of: py)
        // Anchored points are within the table's reach of the grid, so
        // these conversions are in range.
        let r = min(GaussianAxis.floor(fy + 0.5), yAxis.count - 1)
        let nearest = GaussianAxis.floor(fx + 0.5)
        let s = (fy - Double(r)) * stepInSigmas
        let point = RowMomentPoint(
            row: Int32(r), column: Int32(nearest), s: Float(s),
            u: Float(fx - Double(nearest)),
            weight: w * MomentBinning.expNegative(s * s / 2))
        return Entry(point, value: v)
    }

    @inline(__always)
    func deposit(_ e: Entry, scratch: UnsafeMutablePointer<Double>) {
        let p = e.point
        let row = Int(p.row)
        let s = Double(p.s), g = p.weight
        let (base, slope, t) = table.locate(Double(p.u))
        // Table entry j is column nearest − J + j; the layout's padding
        // takes the columns off the grid.
        let first = moments + (layout.offset(row: row, plane: 0) &+ Int(p.column) &- layout.half)
        let flag = moments + (layout.flagsOffset &+ row)
        if flag.pointee == 0 {
            // The row's first point: clear it (see RowMomentLayout).
            (moments + row &* layout.rowStride).update(repeating: 0, count: layout.rowStride)
            flag.pointee = 1
        }
        let s2 = s * s
        let m = SIMD8(g, g * s, g * s2, g * s2 * s, g * s2 * s2, g * s2 * s2 * s, 0, 0)
        switch layout.order {
        case 3: spread(first, m, e.value, moments: 4, base, slope, t)
        case 4: spread(first, m, e.value, moments: 5, base, slope, t)
        default: spread(first, m, e.value, moments: 6, base, slope, t)
        }
    }

    /// Adds a · mₖ to run k (and a · mₖ · v to the value channel's) for the
    /// span's columns, a being each column's interpolated kernel weight.
    @inline(__always)
    private func spread(
        _ first: UnsafeMutablePointer<Double>, _ m: SIMD8<Double>, _ v: Double, moments k: Int,
        _ base: UnsafePointer<Double>, _ slope: UnsafePointer<Double>, _ t: Double
    ) {
        let stride = layout.stride
        let mv = m * v
        var j = 0
        while j < layout.span {
            let a = load2(base + j) + t * load2(slope + j)
            for q in 0..<k { add2(first + (q &* stride &+ j), a * m[q]) }
            if Entry.hasValue {
                for q in 0..<k { add2(first + ((k &+ q) &* stride &+ j), a * mv[q]) }
            }
            j &+= 2
        }
    }
}

@inline(__always) private func load2(_ p: UnsafePointer<Double>) -> SIMD2<Double> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD2<Double>.self)
}

@inline(__always) private func add2(_ p: UnsafeMutablePointer<Double>, _ v: SIMD2<Double>) {
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: raw.loadUnaligned(as: SIMD2<Double>.self) + v, as: SIMD2<Double>.self)
}
