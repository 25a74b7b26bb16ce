import HeatMapCore
import HeatMapDensity

/// Vertices that lie on grid edges, each stored as its edge and where
/// along it: about 7 bytes a vertex (``EdgeSteps``, ``EdgeSums``), where
/// two Doubles and the cell of the segment leaving it took 20.
///
/// Edge ids: the horizontal edge from node (c, r) to (c + 1, r) is
/// r · (columns − 1) + c, the numbering of ``LevelTrace/hEdges``; the
/// vertical edge from (c, r) to (c, r + 1) is H + r · columns + c, with
/// H = rows · (columns − 1) horizontal edges.
///
/// A vertex at fraction f of a horizontal edge sits at
/// `(x0 + (c + f) · dx, y0 + r · dy)`, of a vertical one at
/// `(x0 + c · dx, y0 + (r + f) · dy)`: positions are recomputed with these
/// very expressions from the exactly kept c + f or r + f, so each reads
/// back as the Double the crossing rule placed.
///
/// Consecutive vertices of a traced piece lie on two sides of the cell the
/// segment between them crosses, so that cell follows from the two edges
/// and is not stored (``cell(from:to:)``).
package struct EdgeVertices: Sendable {
    package let geometry: GridGeometry
    private var steps: EdgeSteps
    private var sums = EdgeSums()

    /// No vertices, on the edges of `geometry` (at least 2 × 2 nodes).
    package init(geometry: GridGeometry) {
        self.geometry = geometry
        steps = EdgeSteps(columns: geometry.columns, rows: geometry.rows)
    }

    /// The number of vertices.
    @inline(__always) package var count: Int { steps.count }

    package mutating func reserveCapacity(_ n: Int) {
        steps.reserveCapacity(n)
        sums.reserveCapacity(n)
    }

    /// The next vertex starts a piece (its edge need not touch the last one's).
    mutating func beginPiece() { steps.beginPiece() }

    /// Appends the vertex at fraction `f` (in [0, 1]) of the horizontal edge
    /// from node (column, row), and gives its position. Unless it starts a
    /// piece, its edge and the last vertex's are sides of one cell.
    @inline(__always) @discardableResult
    package mutating func append(row: Int, column: Int, fractionAlongX f: Double) -> PlanePoint {
        steps.append(EdgeSpot(vertical: false, column: column, row: row))
        let s = sums.append(f, from: column)
        return PlanePoint(x: geometry.x0 + s * geometry.dx, y: geometry.y0 + Double(row) * geometry.dy)
    }

    /// Appends the vertex at fraction `f` (in [0, 1]) of the vertical edge
    /// from node (column, row), and gives its position; as the horizontal one.
    @inline(__always) @discardableResult
    package mutating func append(row: Int, column: Int, fractionAlongY f: Double) -> PlanePoint {
        steps.append(EdgeSpot(vertical: true, column: column, row: row))
        let s = sums.append(f, from: row)
        return PlanePoint(x: geometry.x0 + Double(column) * geometry.dx, y: geometry.y0 + s * geometry.dy)
    }

    /// Removes the vertices from `start` on (a piece rolled back).
    package mutating func removeLast(from start: Int) {
        steps.removeLast(from: start)
        sums.removeLast(from: start)
    }

    /// How many vertices keep their edge whole (see ``EdgeSteps``).
    var restartCount: Int { steps.restartCount }

    /// The edge of vertex `v`.
    @inline(__always) func spot(_ v: Int) -> EdgeSpot { steps.spot(v) }

    /// The edge id of vertex `v`.
    package func edge(_ v: Int) -> Int32 { steps.id(steps.spot(v)) }

    /// The position of vertex `v`.
    @inline(__always) package func point(_ v: Int) -> PlanePoint { position(v, on: steps.spot(v)) }

    /// Calls `body(v, edge)` for each vertex of `range`, in order.
    @inline(__always) func forEachSpot(_ range: Range<Int>, _ body: (Int, EdgeSpot) -> Void) {
        steps.forEach(range, body)
    }

    /// Calls `body(v, position)` for each vertex of `range`, in order.
    @inline(__always) func forEachPoint(_ range: Range<Int>, _ body: (Int, PlanePoint) -> Void) {
        steps.forEach(range) { v, spot in body(v, position(v, on: spot)) }
    }

    /// The positions of the `count` (1 … 4) vertices from `first` on, the
    /// last repeated past them: one walk for a few neighbours.
    func window(from first: Int, count: Int) -> (PlanePoint, PlanePoint, PlanePoint, PlanePoint) {
        var s = steps.spot(first)
        let p0 = position(first, on: s)
        guard count > 1 else { return (p0, p0, p0, p0) }
        s = steps.next(s, at: first + 1)
        let p1 = position(first + 1, on: s)
        guard count > 2 else { return (p0, p1, p1, p1) }
        s = steps.next(s, at: first + 2)
        let p2 = position(first + 2, on: s)
        guard count > 3 else { return (p0, p1, p2, p2) }
        s = steps.next(s, at: first + 3)
        return (p0, p1, p2, position(first + 3, on: s))
    }

    /// The position of vertex `v`, whose edge is `spot`.
    @inline(__always) package func position(_ v: Int, on spot: EdgeSpot) -> PlanePoint {
        let g = geometry
        if spot.vertical {
            return PlanePoint(x: g.x0 + Double(spot.column) * g.dx, y: g.y0 + sums.sum(v, from: spot.row) * g.dy)
        }
        return PlanePoint(x: g.x0 + sums.sum(v, from: spot.column) * g.dx, y: g.y0 + Double(spot.row) * g.dy)
    }

    /// The horizontal edge id of `spot` when it lies on an interior node
    /// row (1 … rows − 2), where ``BandAssembler`` nests rings; else nil.
    @inline(__always) func interiorRowEdge(_ spot: EdgeSpot) -> Int32? {
        guard !spot.vertical, spot.row > 0, spot.row < geometry.rows - 1 else { return nil }
        return Int32(truncatingIfNeeded: spot.row * (geometry.columns - 1) + spot.column)
    }

    /// The cell (row · (columns − 1) + column) that a segment between edges
    /// `a` and `b` crosses: both are sides of it, and its lower-left node is
    /// the least column and row of the edges' first nodes.
    @inline(__always) package func cell(from a: EdgeSpot, to b: EdgeSpot) -> Int {
        min(a.row, b.row) * (geometry.columns - 1) + min(a.column, b.column)
    }
}
