import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A grid of regular hexagons with centre-to-corner radius R, in axial
/// coordinates (q, r) about the origin (0, 0) of the binning plane (docs/binning.md).
///
/// Positions are computed on an integer lattice (multiples of R√3/2 and
/// R/2), so a corner shared by three cells has bit-identical coordinates
/// in each of them and neighbouring cell polygons meet without gaps.
public struct HexGrid: Sendable, Hashable, CellIndexing {
    /// Centre-to-corner radius R (plane units), > 0.
    public let radius: Double
    /// Pointy-top or flat-top.
    public let orientation: HexOrientation

    /// The largest |q| or |r| a cell may have; points further out are
    /// refused rather than overflowing an integer.
    public static let indexLimit = 1 << 30

    static let sqrt3 = 3.0.squareRoot()
    static let sqrt3over3 = 0.5773502691896257

    /// Creates a grid.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when `radius` is
    ///   not a finite number > 0.
    public init(radius: Double, orientation: HexOrientation = .pointy) throws {
        guard radius.isFinite, radius > 0 else {
            throw HeatMapError.invalidConfiguration("hexagon size must be a finite number > 0 (got \(radius))")
        }
        self.radius = radius
        self.orientation = orientation
    }

    /// The area of one cell, (3√3 / 2) R². O(1).
    public var cellArea: Double { 1.5 * HexGrid.sqrt3 * radius * radius }

    // Lattice units: pointy uses (R√3/2, R/2), flat uses (R/2, R√3/2).
    @inline(__always) var unitX: Double { orientation == .pointy ? radius * HexGrid.sqrt3 / 2 : radius / 2 }
    @inline(__always) var unitY: Double { orientation == .pointy ? radius / 2 : radius * HexGrid.sqrt3 / 2 }

    /// The lattice position (a, b) of a cell's centre.
    @inline(__always) func lattice(_ cell: HexCell) -> (a: Int, b: Int) {
        orientation == .pointy ? (2 * cell.q + cell.r, 3 * cell.r) : (3 * cell.q, 2 * cell.r + cell.q)
    }

    /// The centre of a cell. O(1).
    package func center(of cell: HexCell) -> PlanePoint {
        let (a, b) = lattice(cell)
        return PlanePoint(x: Double(a) * unitX, y: Double(b) * unitY)
    }

    /// The fractional axial coordinates of a plane point (docs/binning.md's inverse).
    public func fractionalAxial(_ p: PlanePoint) -> (q: Double, r: Double) {
        switch orientation {
        case .pointy: return ((HexGrid.sqrt3over3 * p.x - p.y / 3) / radius, (2 * p.y / 3) / radius)
        case .flat: return ((2 * p.x / 3) / radius, (-p.x / 3 + HexGrid.sqrt3over3 * p.y) / radius)
        }
    }

    /// The cell holding a plane point, by cube rounding; nil for a
    /// non-finite point or one more than ``indexLimit`` cells from the
    /// origin. O(1).
    ///
    /// Ties are broken the same way everywhere: each cube coordinate rounds
    /// half up (towards +∞), and when two rounding errors are equal the
    /// coordinate fixed up is q before r before s. So a point on an edge or
    /// a corner always goes to one of the cells that share it, and the same
    /// point always to the same cell.
    package func cell(containing p: PlanePoint) -> HexCell? {
        guard let (q, r) = index(x: p.x, y: p.y) else { return nil }
        return HexCell(q: q, r: r)
    }

    /// Cube rounding of four points at once, lane by lane with selects
    /// instead of branches: on scattered points the branches of the
    /// rounding are taken at random, and mispredicting them cost more than
    /// all the arithmetic. Each lane is the same Double arithmetic as a
    /// single point, so the cells are the same.
    @inline(__always) package func index(x: SIMD4<Double>, y: SIMD4<Double>) -> CellLanes {
        let sqrt3over3 = SIMD4<Double>(repeating: HexGrid.sqrt3over3)
        let qf: SIMD4<Double>, rf: SIMD4<Double>
        switch orientation {
        case .pointy:
            qf = (sqrt3over3 * x - y / 3) / radius
            rf = (2 * y / 3) / radius
        case .flat:
            qf = (2 * x / 3) / radius
            rf = (-x / 3 + sqrt3over3 * y) / radius
        }
        // CellLanes zeroes out-of-range and NaN lanes, so the rounding
        // below stays exact (and their cells are 0, 0).
        var lanes = CellLanes(a: qf, b: rf, limit: Double(HexGrid.indexLimit))
        let q = lanes.a, r = lanes.b
        let s = -q - r
        let rq = HexGrid.roundHalfUp(q), rr = HexGrid.roundHalfUp(r), rs = HexGrid.roundHalfUp(s)
        let dq = HexGrid.magnitude(rq - q), dr = HexGrid.magnitude(rr - r), ds = HexGrid.magnitude(rs - s)
        // The coordinate with the largest rounding error is rebuilt from
        // the other two; ties fix q before r before s.
        let fixQ = (dq .> dr) .& (dq .> ds)
        let fixR = .!fixQ .& (dr .> ds)
        lanes.a = rq.replacing(with: -rr - rs, where: fixQ)
        lanes.b = rr.replacing(with: -rq - rs, where: fixR)
        return lanes
    }

    @inline(__always) static func magnitude(_ v: SIMD4<Double>) -> SIMD4<Double> {
        v.replacing(with: -v, where: v .< 0)
    }

    /// Rounds half up; exact for |v| < 2⁵¹ (v − floor(v) is exact there),
    /// unlike floor(v + 0.5), which rounds 0.49999999999999994 up.
    @inline(__always) static func roundHalfUp(_ v: SIMD4<Double>) -> SIMD4<Double> {
        let f = CellLanes.floor(v)
        return f.replacing(with: f + 1, where: v - f .>= 0.5)
    }

    /// Rounds half up (one lane of the above).
    static func roundHalfUp(_ v: Double) -> Double { roundHalfUp(SIMD4(repeating: v))[0] }

    static let pointyCorners = [(1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)]
    static let flatCorners = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]

    /// The six corners of a cell, counter-clockwise, starting at 30° (pointy)
    /// or 0° (flat) from the centre. O(1).
    func corners(of cell: HexCell) -> [PlanePoint] {
        let (a, b) = lattice(cell)
        let offsets = orientation == .pointy ? HexGrid.pointyCorners : HexGrid.flatCorners
        let ux = unitX, uy = unitY
        return offsets.map { PlanePoint(x: Double(a + $0.0) * ux, y: Double(b + $0.1) * uy) }
    }

    /// Axial steps to the six neighbours, counter-clockwise from the one at
    /// 0° (pointy) or 30° (flat).
    public static let neighborOffsets = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]

    /// The six cells sharing an edge with `cell`, counter-clockwise. O(1).
    func neighbors(of cell: HexCell) -> [HexCell] {
        HexGrid.neighborOffsets.map { HexCell(q: cell.q + $0.0, r: cell.r + $0.1) }
    }

    /// The range of axial q and r that can touch a box, one cell wider than
    /// the box's own range; nil when it is empty or beyond ``indexLimit``.
    func candidateRange(_ box: PlaneBox) -> (q: ClosedRange<Int>, r: ClosedRange<Int>)? {
        guard !box.isEmpty else { return nil }
        var qLo = Double.infinity, qHi = -Double.infinity, rLo = Double.infinity, rHi = -Double.infinity
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            let (q, r) = fractionalAxial(PlanePoint(x: x, y: y))
            qLo = min(qLo, q); qHi = max(qHi, q); rLo = min(rLo, r); rHi = max(rHi, r)
        }
        let limit = Double(HexGrid.indexLimit - 2)
        guard qLo > -limit, qHi < limit, rLo > -limit, rHi < limit else { return nil }
        return (
            Int(qLo.rounded(.down)) - 1...Int(qHi.rounded(.up)) + 1,
            Int(rLo.rounded(.down)) - 1...Int(rHi.rounded(.up)) + 1
        )
    }

    /// An upper bound on the number of cells `cells(covering:)` returns
    /// (the candidates it tests), as a Double so it cannot overflow. O(1).
    public func candidateCount(covering box: PlaneBox) -> Double {
        guard let (q, r) = candidateRange(box) else { return box.isEmpty ? 0 : .infinity }
        return Double(q.count) * Double(r.count)
    }

    /// Every cell whose interior meets the box, plus the cells holding the
    /// box's corners (so a degenerate box still gets its cell), in row-major
    /// order. O(cells); see ``candidateCount(covering:)`` before calling it
    /// on a box much larger than a cell.
    package func cells(covering box: PlaneBox) -> [HexCell] {
        guard let (qs, rs) = candidateRange(box) else { return [] }
        var out: [HexCell] = []
        for r in rs {
            for q in qs {
                let cell = HexCell(q: q, r: r)
                if ConvexOverlap.polygon(corners(of: cell), overlaps: box) { out.append(cell) }
            }
        }
        let cornerCells = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)]
            .compactMap { cell(containing: PlanePoint(x: $0.0, y: $0.1)) }
        var missing = Set(cornerCells).subtracting(out)
        if !missing.isEmpty {
            missing.formUnion(out)
            out = missing.sorted()
        }
        return out
    }
}
