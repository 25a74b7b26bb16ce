import Foundation

/// What the single-precision band splat (``BandSplat``) places
/// its points by: the grid's axes and the largest radius, with the node
/// steps in that radius worked out once (every radius of a fixed-radius
/// splat: no division per point there).
struct BandFrame {
    let xAxis: GaussianAxis
    let yAxis: GaussianAxis
    let maximumRadius: Double
    /// Node steps over ``maximumRadius``, and the inverse node steps.
    let columnStep: Double
    let rowStep: Double
    let inverseColumnStep: Double
    let inverseRowStep: Double
    /// ``maximumRadius`` in columns and in rows, in single precision.
    let reachAcross: Float
    let reachDown: Float

    init(xAxis: GaussianAxis, yAxis: GaussianAxis, maximumRadius: Double) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.maximumRadius = maximumRadius
        columnStep = xAxis.step / maximumRadius
        rowStep = yAxis.step / maximumRadius
        inverseColumnStep = 1 / xAxis.step
        inverseRowStep = 1 / yAxis.step
        reachAcross = Float(maximumRadius / xAxis.step)
        reachDown = Float(maximumRadius / yAxis.step)
    }

    /// The nodes a disc of radius `r` around (x, y) reaches (nil for none)
    /// and the centre's offsets from the first of them, in nodes.
    @inline(__always)
    func place(x: Double, y: Double, radius r: Double) -> (
        column: Int, row: Int, lastColumn: Int, lastRow: Int, fx: Float, fy: Float
    )? {
        // The point's position in nodes, and its spans (its disc reaches
        // the grid: the sort anchored it).
        let px = (x - xAxis.origin) * inverseColumnStep, py = (y - yAxis.origin) * inverseRowStep
        let xs = NodeSpan.span(around: px, reach: r * inverseColumnStep, count: xAxis.count)
        let ys = NodeSpan.span(around: py, reach: r * inverseRowStep, count: yAxis.count)
        guard xs.lo <= xs.hi, ys.lo <= ys.hi else { return nil }
        return (xs.lo, ys.lo, xs.hi, ys.hi, Float(px - Double(xs.lo)), Float(py - Double(ys.lo)))
    }
}

/// The rectangle of nodes a point's disc covers and where the point lies
/// in it, as the splat's terms start from.
struct BandFootprint {
    /// The first and last column and row (inclusive, on the grid).
    var column: Int, row: Int
    var lastColumn: Int, lastRow: Int
    /// The centre's offsets from ``column`` and ``row``, in nodes.
    var fx: Float, fy: Float
    /// The node steps over the point's radius.
    var stepAcross: Float, stepDown: Float
}

/// What the single-precision band splat keeps of a point: where its disc
/// lies, and q = w′^¼ of the weight w′ it is given (its scaled weight w
/// raised to 2/p, ``BandPower/entryWeight(_:)``), which the splat's terms
/// start from: s = q² is w^(1/p), one multiply (the square root's latency
/// would hold up every point's first row). Worked out while the points are
/// sorted, where it costs nothing beside the sort's scattered stores.
protocol BandPoint: BitwiseCopyable {
    init(x: Double, y: Double, radius: Double, scaledWeight w: Double, frame: BandFrame)
    /// w^¼ of the weight given, in single precision (√(√w) of the double
    /// w); 0 for a point that adds nothing.
    var root: Float { get }
    /// The nodes the point reaches (nil for none).
    func footprint(in frame: BandFrame) -> BandFootprint?
}

extension BandPoint {
    /// w^¼ as the entries keep it.
    @inline(__always) static func root(of w: Double) -> Float { Float(w.squareRoot().squareRoot()) }
}

/// A point of the band splat with one radius for all, placed on the
/// grid by the sort: its first column and row and its offsets from them;
/// the last ones follow from the offsets and the radius in nodes. 16 bytes
/// (were 24: a third less for the sort's scattered stores and the splat's
/// reads to move), so grids of up to 2¹⁶ nodes a side.
/// The last column and row are found in single precision, which can differ
/// from the double span only for a node within a float's rounding of the
/// disc's edge, where the kernel adds about 10⁻¹⁴ of the point's peak or
/// nothing.
struct BandEntry: BandPoint {
    var column: UInt16, row: UInt16
    var fx: Float, fy: Float
    var root: Float

    /// Whether these entries can place points in `frame`: a grid of at most
    /// 2¹⁶ nodes a side, a radius under 2²⁰ nodes (the last nodes'
    /// rounding in single precision, ``NodeSpan/rounded(_:)-(Float)``).
    static func fits(_ frame: BandFrame) -> Bool {
        max(frame.xAxis.count, frame.yAxis.count) <= 1 << 16 && max(frame.reachAcross, frame.reachDown) < Float(1 << 20)
    }

    @inline(__always) init(x: Double, y: Double, radius: Double, scaledWeight w: Double, frame: BandFrame) {
        guard let p = frame.place(x: x, y: y, radius: radius) else {
            (column, row, fx, fy, root) = (0, 0, 0, 0, 0)
            return
        }
        (column, row) = (UInt16(truncatingIfNeeded: p.column), UInt16(truncatingIfNeeded: p.row))
        (fx, fy) = (p.fx, p.fy)
        root = Self.root(of: w)
    }

    @inline(__always) func footprint(in frame: BandFrame) -> BandFootprint? {
        let column = Int(column), row = Int(row)
        // fx + reach ≥ 0: the span's first node is at most the reach left
        // of the centre. Its last node is the floor of its position plus
        // the reach (rounding v − ½; a node at exactly the reach, where the
        // kernel is 0, may fall either side of it).
        return BandFootprint(
            column: column, row: row,
            lastColumn: min(column &+ NodeSpan.rounded(fx + frame.reachAcross - 0.5), frame.xAxis.count &- 1),
            lastRow: min(row &+ NodeSpan.rounded(fy + frame.reachDown - 0.5), frame.yAxis.count &- 1),
            fx: fx, fy: fy, stepAcross: Float(frame.columnStep), stepDown: Float(frame.rowStep))
    }
}

/// A point of the band splat with its own radius: 32 bytes.
struct SizedBandEntry: BandPoint {
    var x: Double, y: Double, radius: Double
    var root: Float

    @inline(__always) init(x: Double, y: Double, radius: Double, scaledWeight w: Double, frame: BandFrame) {
        (self.x, self.y, self.radius) = (x, y, radius)
        root = Self.root(of: w)
    }

    @inline(__always) func footprint(in frame: BandFrame) -> BandFootprint? {
        guard let p = frame.place(x: x, y: y, radius: radius) else { return nil }
        let r = radius
        let (across, down) =
            r == frame.maximumRadius
            ? (frame.columnStep, frame.rowStep) : (frame.xAxis.step / r, frame.yAxis.step / r)
        return BandFootprint(
            column: p.column, row: p.row, lastColumn: p.lastColumn, lastRow: p.lastRow, fx: p.fx, fy: p.fy,
            stepAcross: Float(across), stepDown: Float(down))
    }
}

/// A point of the band splat with its own radius, placed on the grid by
/// the sort: the footprint ``SizedBandEntry`` works out in the splat (the
/// same spans, offsets and steps, from the same double arithmetic), kept
/// in 28 bytes for grids of up to 2¹⁶ nodes a side (``fits(_:)``). The
/// placement's roundings and two divisions move to the sort, where they
/// cost little beside its scattered stores; in the splat they were a chain
/// of dependent instructions ahead of every point's first row (on 10⁶
/// points of adaptive radii the splat's samples fell by a seventh, the
/// sort's rose by under half of that).
struct PlacedBandEntry: BandPoint {
    var column: UInt16, row: UInt16
    var lastColumn: UInt16, lastRow: UInt16
    var fx: Float, fy: Float
    var stepAcross: Float, stepDown: Float
    var root: Float

    /// Whether these entries can place points in `frame`: a grid of at most 2¹⁶ nodes a side.
    static func fits(_ frame: BandFrame) -> Bool { max(frame.xAxis.count, frame.yAxis.count) <= 1 << 16 }

    /// The footprint ``SizedBandEntry`` would work out in the splat, worked out here.
    @inline(__always) init(x: Double, y: Double, radius: Double, scaledWeight w: Double, frame: BandFrame) {
        let sized = SizedBandEntry(x: x, y: y, radius: radius, scaledWeight: w, frame: frame)
        guard let f = sized.footprint(in: frame) else {
            (column, row, lastColumn, lastRow, fx, fy, stepAcross, stepDown, root) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
            return
        }
        (column, row) = (UInt16(truncatingIfNeeded: f.column), UInt16(truncatingIfNeeded: f.row))
        (lastColumn, lastRow) = (UInt16(truncatingIfNeeded: f.lastColumn), UInt16(truncatingIfNeeded: f.lastRow))
        (fx, fy, stepAcross, stepDown) = (f.fx, f.fy, f.stepAcross, f.stepDown)
        root = sized.root
    }

    @inline(__always) func footprint(in frame: BandFrame) -> BandFootprint? {
        BandFootprint(
            column: Int(column), row: Int(row), lastColumn: Int(lastColumn), lastRow: Int(lastRow), fx: fx, fy: fy,
            stepAcross: stepAcross, stepDown: stepDown)
    }
}
