import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A grid of squares of side S, cell (i, j) = (floor(x / S), floor(y / S))
/// about the origin (0, 0) of the binning plane (docs/binning.md).
public struct SquareGrid: Sendable, Hashable, CellIndexing {
    /// The side S of a cell (plane units), > 0.
    public let side: Double

    /// Creates a grid.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when `side` is not
    ///   a finite number > 0.
    public init(side: Double) throws {
        guard side.isFinite, side > 0 else {
            throw HeatMapError.invalidConfiguration("square size must be a finite number > 0 (got \(side))")
        }
        self.side = side
    }

    /// The area of one cell, S². O(1).
    public var cellArea: Double { side * side }

    /// The cell holding a plane point (a point on an edge goes to the cell
    /// above or to the right of it); nil for a non-finite point or one more
    /// than ``HexGrid/indexLimit`` cells from the origin. O(1).
    package func cell(containing p: PlanePoint) -> SquareCell? {
        guard let (i, j) = index(x: p.x, y: p.y) else { return nil }
        return SquareCell(i: i, j: j)
    }

    /// The cells of four points: floor(x / S), floor(y / S), without branches.
    @inline(__always) package func index(x: SIMD4<Double>, y: SIMD4<Double>) -> CellLanes {
        var lanes = CellLanes(a: x / side, b: y / side, limit: Double(HexGrid.indexLimit))
        lanes.a = CellLanes.floor(lanes.a)
        lanes.b = CellLanes.floor(lanes.b)
        return lanes
    }

    /// The centre of a cell. O(1).
    package func center(of cell: SquareCell) -> PlanePoint {
        PlanePoint(x: (Double(cell.i) + 0.5) * side, y: (Double(cell.j) + 0.5) * side)
    }

    /// The four corners, counter-clockwise from the lower left. O(1).
    func corners(of cell: SquareCell) -> [PlanePoint] {
        let x0 = Double(cell.i) * side, x1 = Double(cell.i + 1) * side
        let y0 = Double(cell.j) * side, y1 = Double(cell.j + 1) * side
        return [PlanePoint(x: x0, y: y0), PlanePoint(x: x1, y: y0), PlanePoint(x: x1, y: y1), PlanePoint(x: x0, y: y1)]
    }

    /// The four cells sharing an edge, counter-clockwise from the east one. O(1).
    func neighbors(of cell: SquareCell) -> [SquareCell] {
        [
            SquareCell(i: cell.i + 1, j: cell.j), SquareCell(i: cell.i, j: cell.j + 1),
            SquareCell(i: cell.i - 1, j: cell.j), SquareCell(i: cell.i, j: cell.j - 1)
        ]
    }

    func indexRange(_ box: PlaneBox) -> (i: ClosedRange<Int>, j: ClosedRange<Int>)? {
        guard !box.isEmpty, let lo = index(x: box.minX, y: box.minY), let hi = index(x: box.maxX, y: box.maxY) else {
            return nil
        }
        return (lo.0...hi.0, lo.1...hi.1)
    }

    /// The number of cells `cells(covering:)` returns, as a Double. O(1).
    public func candidateCount(covering box: PlaneBox) -> Double {
        guard let (i, j) = indexRange(box) else { return box.isEmpty ? 0 : .infinity }
        return Double(i.count) * Double(j.count)
    }

    /// Every cell holding a point of the box, row-major. O(cells).
    package func cells(covering box: PlaneBox) -> [SquareCell] {
        guard let (iRange, jRange) = indexRange(box) else { return [] }
        var out: [SquareCell] = []
        for j in jRange { for i in iRange { out.append(SquareCell(i: i, j: j)) } }
        return out
    }
}
