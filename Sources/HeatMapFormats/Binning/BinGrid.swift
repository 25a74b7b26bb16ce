import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The id of a bin: axial (q, r) for hexagons, (i, j) for squares.
///
/// Ids order row by row (by the second index, then the first), which is
/// the order every binning output uses.
public struct BinCellID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// q for hexagons, i for squares.
    public var first: Int
    /// r for hexagons, j for squares.
    public var second: Int

    /// Creates an id.
    public init(_ first: Int, _ second: Int) {
        self.first = first
        self.second = second
    }

    /// Row-major order.
    public static func < (lhs: BinCellID, rhs: BinCellID) -> Bool {
        lhs.second != rhs.second ? lhs.second < rhs.second : lhs.first < rhs.first
    }

    public var description: String { "\(first),\(second)" }
}

/// Maps plane points to cells' integer pairs.
protocol CellIndexing {
    /// The cell of one point; nil when it has none.
    func index(x: Double, y: Double) -> (Int, Int)?
    /// The cells of four points at once, as whole numbers in Doubles;
    /// `valid` is false for a lane that has no cell (its a and b are 0).
    /// The same cells as ``index(x:y:)``, without data-dependent branches.
    func index(x: SIMD4<Double>, y: SIMD4<Double>) -> CellLanes
}

extension CellIndexing {
    /// One point through the four-lane lookup, so a single point and a
    /// batch always get the same cell.
    @inline(__always) package func index(x: Double, y: Double) -> (Int, Int)? {
        let lanes = index(x: SIMD4(repeating: x), y: SIMD4(repeating: y))
        guard lanes.valid[0] else { return nil }
        return (Int(lanes.a[0]), Int(lanes.b[0]))
    }
}

/// The cells of four points (see ``CellIndexing``).
package struct CellLanes {
    package var a: SIMD4<Double>
    package var b: SIMD4<Double>
    var valid: SIMDMask<SIMD4<Int64>>

    /// Whole numbers below `limit` in magnitude (NaN is not), zeroed where
    /// not valid so that converting any lane to an integer is safe.
    package init(a: SIMD4<Double>, b: SIMD4<Double>, limit: Double) {
        let bound = SIMD4<Double>(repeating: limit)
        valid = (a .< bound) .& (a .> -bound) .& (b .< bound) .& (b .> -bound)
        self.a = SIMD4(repeating: 0).replacing(with: a, where: valid)
        self.b = SIMD4(repeating: 0).replacing(with: b, where: valid)
    }

    /// floor(v), exact for |v| < 2⁵¹ (larger lanes are refused by the
    /// limit anyway): adding and removing 1.5 · 2⁵² rounds to the nearest
    /// whole number, then lanes that went up step down. Unlike a call to
    /// libm's floor per lane (the default x86-64 target has no rounding
    /// instruction), this stays in vector registers.
    @inline(__always) package static func floor(_ v: SIMD4<Double>) -> SIMD4<Double> {
        let magic = SIMD4<Double>(repeating: 6_755_399_441_055_744)
        let nearest = (v + magic) - magic
        return nearest.replacing(with: nearest - 1, where: nearest .> v)
    }
}

/// The shape of the bins.
public enum BinShape: String, Sendable, Hashable, CaseIterable, Codable {
    /// Regular hexagons.
    case hexagon = "hex"
    /// Squares.
    case square
    /// Uber's H3 cells at ``BinningConfiguration/h3Resolution`` (binned on
    /// the sphere by ``HeatMapBinning/binH3(_:configuration:strict:control:)``,
    /// not in a plane).
    case h3
}

/// A hexagon or square grid behind one API.
public enum BinGrid: Sendable, Hashable {
    /// Hexagons.
    case hexagon(HexGrid)
    /// Squares.
    case square(SquareGrid)

    /// Which shape this is.
    public var shape: BinShape {
        switch self {
        case .hexagon: return .hexagon
        case .square: return .square
        }
    }

    /// The names of the id's two parts in output files: "q", "r" or "i", "j".
    public var idNames: (String, String) {
        switch self {
        case .hexagon: return ("q", "r")
        case .square: return ("i", "j")
        }
    }

    /// The area of one cell (square plane units).
    public var cellArea: Double {
        switch self {
        case .hexagon(let g): return g.cellArea
        case .square(let g): return g.cellArea
        }
    }

    /// The cell holding a plane point, nil if non-finite or too far out. O(1).
    public func cell(containing p: PlanePoint) -> BinCellID? {
        guard let (a, b) = index(x: p.x, y: p.y) else { return nil }
        return BinCellID(a, b)
    }

    @inline(__always) package func index(x: Double, y: Double) -> (Int, Int)? {
        switch self {
        case .hexagon(let g): return g.index(x: x, y: y)
        case .square(let g): return g.index(x: x, y: y)
        }
    }

    /// The centre of a cell. O(1).
    public func center(of id: BinCellID) -> PlanePoint {
        switch self {
        case .hexagon(let g): return g.center(of: HexCell(q: id.first, r: id.second))
        case .square(let g): return g.center(of: SquareCell(i: id.first, j: id.second))
        }
    }

    /// The cell's corners (6 or 4), counter-clockwise. O(1).
    public func corners(of id: BinCellID) -> [PlanePoint] {
        switch self {
        case .hexagon(let g): return g.corners(of: HexCell(q: id.first, r: id.second))
        case .square(let g): return g.corners(of: SquareCell(i: id.first, j: id.second))
        }
    }

    /// The cells sharing an edge with `id` (6 or 4), counter-clockwise. O(1).
    public func neighbors(of id: BinCellID) -> [BinCellID] {
        switch self {
        case .hexagon(let g):
            return g.neighbors(of: HexCell(q: id.first, r: id.second)).map { BinCellID($0.q, $0.r) }
        case .square(let g):
            return g.neighbors(of: SquareCell(i: id.first, j: id.second)).map { BinCellID($0.i, $0.j) }
        }
    }

    /// An upper bound on the size of ``cells(covering:)``. O(1).
    public func candidateCount(covering box: PlaneBox) -> Double {
        switch self {
        case .hexagon(let g): return g.candidateCount(covering: box)
        case .square(let g): return g.candidateCount(covering: box)
        }
    }

    /// The cells covering a box, row-major. O(cells).
    public func cells(covering box: PlaneBox) -> [BinCellID] {
        switch self {
        case .hexagon(let g): return g.cells(covering: box).map { BinCellID($0.q, $0.r) }
        case .square(let g): return g.cells(covering: box).map { BinCellID($0.i, $0.j) }
        }
    }
}
