import HeatMapCore
import HeatMapDensity

/// The isolines of one level as traced by marching squares, before
/// smoothing and assembly, in flat arrays.
///
/// A level's boundary is cut into *pieces*:
/// - closed rings that never reach the frame (exteriors counter-clockwise,
///   holes clockwise), and
/// - *chains*: open paths that enter the grid at a crossing on a frame edge
///   and leave it at another, with the inside on their left.
///
/// A ring that reaches the frame is a cycle of chains joined by runs along
/// the frame (``FrameWalk``). Pieces are what neighbouring levels and bands
/// share: smoothing works on pieces, so every polygon built from a piece gets
/// the very same vertices.
package struct LevelTrace: Sendable {
    /// The level's threshold.
    package var threshold: Double
    /// The vertices of all pieces, concatenated, each on its grid edge.
    package var vertices: EdgeVertices
    /// Piece p's vertices are `pieceStart[p] ..< pieceStart[p + 1]`.
    var pieceStart: [Int32] = [0]
    /// Per piece: whether it is a chain.
    var isChain: [Bool] = []
    /// Per piece: dropped as degenerate (a set of measure zero, see ``LevelTracer``).
    var isRemoved: [Bool] = []
    /// Per closed piece: signed area in plane units (0 for chains).
    package var area: [Double] = []
    /// Per piece: where a chain starts and ends on the frame (unused for closed pieces).
    var startKey: [FrameKey] = []
    var endKey: [FrameKey] = []
    /// Whether the whole frame is inside the level and no chain meets it, so
    /// the frame itself is a ring.
    var frameInside = false
    /// Crossings on horizontal edges of interior rows (1 … rows − 2) of
    /// the kept pieces: edge id (row · (columns − 1) + column) ascending,
    /// and the piece.
    var hEdges: [Int32] = []
    var hPieces: [Int32] = []

    /// No pieces yet, at `threshold` on the grid of `geometry`.
    package init(threshold: Double, geometry: GridGeometry) {
        self.threshold = threshold
        vertices = EdgeVertices(geometry: geometry)
    }

    /// The number of pieces (removed ones included).
    var pieceCount: Int { isChain.count }

    /// Frees the traced vertices once smoothing has its own copies: what
    /// assembly needs is the pieces' topology (kinds, areas, frame keys,
    /// row crossings).
    mutating func dropVertices() {
        vertices = EdgeVertices(geometry: vertices.geometry)
    }

    /// The position of vertex `v`.
    @inline(__always) package func point(_ v: Int) -> PlanePoint { vertices.point(v) }

    /// Calls `body(cell, v)` for every segment of the kept pieces, in order:
    /// the cell it crosses and the index of its first vertex (a closed
    /// piece's last segment runs back to its first vertex).
    func forEachSegment(_ body: (Int, Int) -> Void) {
        for p in 0..<pieceCount where !isRemoved[p] {
            let range = self.range(p)
            guard range.count >= 2 else { continue }
            var first = EdgeSpot(vertical: false, column: 0, row: 0), previous = first
            vertices.forEachSpot(range) { v, spot in
                if v == range.lowerBound { first = spot } else { body(vertices.cell(from: previous, to: spot), v - 1) }
                previous = spot
            }
            if !isChain[p] { body(vertices.cell(from: previous, to: first), range.upperBound - 1) }
        }
    }

    /// Per vertex: the cell crossed by the segment leaving it, or −1 (a
    /// chain's last vertex, a removed piece's vertices); 4 bytes a vertex,
    /// for a pass that reads every segment's cell more than once.
    func segmentCells() -> [Int32] {
        var cells = [Int32](repeating: -1, count: vertices.count)
        cells.withUnsafeMutableBufferPointer { out in
            forEachSegment { cell, v in out[v] = Int32(truncatingIfNeeded: cell) }
        }
        return cells
    }

    /// The vertex range of piece `p`.
    @inline(__always) package func range(_ p: Int) -> Range<Int> { Int(pieceStart[p])..<Int(pieceStart[p + 1]) }
}
