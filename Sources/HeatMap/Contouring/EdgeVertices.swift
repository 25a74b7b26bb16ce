/// Vertices that lie on grid edges, each stored as its edge and the one
/// coordinate that varies along it: 12 bytes a vertex, where two Doubles
/// and the cell of the segment leaving it took 20.
///
/// Edges are numbered in two runs. The horizontal edge from node
/// (c, r) to (c + 1, r) is r · (columns − 1) + c, the numbering of
/// ``LevelTrace/hEdges``; the vertical edge from (c, r) to (c, r + 1) is
/// H + r · columns + c, with H = rows · (columns − 1) horizontal edges.
/// A vertex on a horizontal edge keeps its x (its y is the node row's
/// `y0 + row · dy`), one on a vertical edge its y (its x is `x0 + column · dx`):
/// the very expressions the tracer places crossings with, so a position
/// reads back as the Double it was traced at.
///
/// Consecutive vertices of a traced piece lie on two sides of the cell the
/// segment between them crosses, so that cell follows from the two edges
/// and is not stored (``cell(from:to:)``).
struct EdgeVertices: Sendable {
    let geometry: GridGeometry
    /// Per vertex: its edge.
    private(set) var edges: [Int32] = []
    /// Per vertex: x on a horizontal edge, y on a vertical one.
    private(set) var along: [Double] = []

    /// No vertices, on the edges of `geometry` (at least 2 × 2 nodes).
    init(geometry: GridGeometry) {
        self.geometry = geometry
    }

    /// The number of horizontal edges; vertical edge ids start here.
    @inline(__always) var horizontalCount: Int { geometry.rows * (geometry.columns - 1) }

    /// The number of vertices.
    @inline(__always) var count: Int { edges.count }

    mutating func reserveCapacity(_ n: Int) {
        edges.reserveCapacity(n)
        along.reserveCapacity(n)
    }

    /// Appends a vertex at `x` on the horizontal edge from node (column, row).
    @inline(__always) mutating func append(row: Int, column: Int, x: Double) {
        edges.append(Int32(truncatingIfNeeded: row * (geometry.columns - 1) + column))
        along.append(x)
    }

    /// Appends a vertex at `y` on the vertical edge from node (column, row).
    @inline(__always) mutating func append(row: Int, column: Int, y: Double) {
        edges.append(Int32(truncatingIfNeeded: horizontalCount + row * geometry.columns + column))
        along.append(y)
    }

    mutating func removeSubrange(_ range: Range<Int>) {
        edges.removeSubrange(range)
        along.removeSubrange(range)
    }

    /// The position of vertex `v`.
    @inline(__always) func point(_ v: Int) -> PlanePoint {
        let e = Int(edges[v]), h = horizontalCount, g = geometry
        if e < h {
            return PlanePoint(x: along[v], y: g.y0 + Double(e / (g.columns - 1)) * g.dy)
        }
        return PlanePoint(x: g.x0 + Double((e - h) % g.columns) * g.dx, y: along[v])
    }

    /// Whether vertex `v` lies on a horizontal edge of an interior node row
    /// (1 … rows − 2), where ``BandAssembler`` nests rings.
    @inline(__always) func isOnInteriorRow(_ v: Int) -> Bool {
        let e = Int(edges[v]), c1 = geometry.columns - 1
        return e >= c1 && e < (geometry.rows - 1) * c1
    }

    /// The cell (row · (columns − 1) + column) that the segment from vertex
    /// `a` to vertex `b` crosses: their edges are two sides of it, and its
    /// lower-left node is the least column and row of the edges' first nodes.
    @inline(__always) func cell(from a: Int, to b: Int) -> Int {
        let (ca, ra) = firstNode(Int(edges[a])), (cb, rb) = firstNode(Int(edges[b]))
        return min(ra, rb) * (geometry.columns - 1) + min(ca, cb)
    }

    /// Column and row of the first (left or lower) node of edge `e`.
    @inline(__always) private func firstNode(_ e: Int) -> (column: Int, row: Int) {
        let h = horizontalCount
        if e < h {
            let c1 = geometry.columns - 1
            return (e % c1, e / c1)
        }
        let columns = geometry.columns
        return ((e - h) % columns, (e - h) / columns)
    }
}
