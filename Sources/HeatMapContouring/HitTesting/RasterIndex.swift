import Foundation
import HeatMapCore

/// One part of a ``PolygonIndex``.
///
/// A fine uniform raster covers the polygons. Each raster cell stores the
/// edges that meet it and the polygons that contain its centre (found
/// once, for all cells, by a sweep of horizontal lines through the
/// centres). A query then looks only inside its own cell: starting from
/// the centre's answer, each edge that the segment centre → query crosses
/// toggles its polygon. With about one cell per four vertices a cell holds a
/// few edges, so a query costs O(1) whatever the vertex count; building
/// costs O(V + cells).
///
/// Boundary rule: a point on an exterior ring is inside, a point on a hole
/// is outside, so a point on the ring shared by two bands belongs to the
/// upper band only.
///
/// The edges themselves are kept by `Edges` (``RasterEdges``): a flat
/// copy of the plane vertices, or the rings of the result's polygons in
/// latitude/longitude, projected again when a query reads them.
///
/// A class: a query visits every part, and copying a struct of a dozen
/// arrays out of `parts` would retain and release each of them per query.
final class RasterIndex<Edges: RasterEdges>: Sendable {
    private let edges: Edges

    private let frame: CellFrame
    private let cellEdgeStart: [Int32], cellEdges: [Int32]
    private let cellInsideStart: [Int32], cellInside: [Int32]

    /// Indexes the rings `gathered` (their vertices in the plane), keeping
    /// `edges` to read them at query time: edge i of `edges` must be edge i
    /// of `gathered`, bit for bit. About one cell per `verticesPerCell`
    /// vertices: fewer cells take less memory, more edges per query.
    /// O(V + cells), counted on `poll`.
    /// - Throws: `CancellationError`.
    init(
        _ gathered: RingGatherer, keeping edges: Edges, verticesPerCell: Int = 4, poll: inout PollCounter
    ) throws {
        let vertices = gathered.vertices, links = gathered.links, box = gathered.box
        // About one cell per `verticesPerCell` vertices, square-ish cells; the origin is
        // nudged by an odd fraction of a cell so that cell centres do not
        // fall exactly on grid-aligned contour vertices.
        let cells = Double(min(max(vertices.count / verticesPerCell, 64), 16_000_000))
        let w = max(box.width, 1e-300), h = max(box.height, 1e-300)
        let side = (w * h / cells).squareRoot()
        let columns = box.isEmpty ? 1 : max(1, min(Int(w / side) + 1, 8192))
        let rows = box.isEmpty ? 1 : max(1, min(Int(h / side) + 1, 8192))
        let cellW = w / Double(columns) * 1.000_001, cellH = h / Double(rows) * 1.000_001
        let minX = box.minX - cellW * 0.000_000_5 * 0.618, minY = box.minY - cellH * 0.000_000_5 * 0.382
        let frame = CellFrame(minX: minX, minY: minY, cellW: cellW, cellH: cellH, columns: columns, rows: rows)

        let (edgeStart, cellEdges, insideStart, inside) = try vertices.withUnsafeBufferPointer { vertices in
            try links.withUnsafeBufferPointer { links in
                let edges = RasterBuild.Edges(vertices: vertices, links: links)
                let (edgeStart, cellEdges) = try RasterBuild.edgesByCell(edges, frame, poll: &poll)
                let crossings = try RasterBuild.centreCrossings(edges, frame, poll: &poll)
                let (insideStart, inside) = try RasterBuild.insideSets(crossings, frame, poll: &poll)
                return (edgeStart, cellEdges, insideStart, inside)
            }
        }

        self.edges = edges
        self.frame = frame
        self.cellEdgeStart = edgeStart; self.cellEdges = cellEdges
        self.cellInsideStart = insideStart; self.cellInside = inside
    }

    /// Calls `body` once for each polygon containing `p`. The working sets
    /// are bounded by the cell's own entries and edges, so they fit one
    /// temporary buffer (on the stack for ordinary cells).
    func visit(_ p: PlanePoint, _ body: (Int32) -> Void) {
        guard !edges.isEmpty, let (column, row) = frame.cell(of: p) else { return }
        let k = row * frame.columns + column
        let cx = frame.centreX(column), cy = frame.centreY(row)
        // The odd set never holds more than the centre's polygons plus two
        // per edge (its owners), and each boundary list at most two per edge.
        let edgeRange = Int(cellEdgeStart[k])..<Int(cellEdgeStart[k + 1])
        let insideRange = Int(cellInsideStart[k])..<Int(cellInsideStart[k + 1])
        let capacity = insideRange.count + 2 * edgeRange.count + 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * capacity) { buffer in
            // [0, n): the odd set; [capacity, …): polygons a ring through the
            // query gives it to; [2 capacity, …): polygons it takes it from.
            var n = 0, nWon = 0, nLost = 0
            func toggle(_ polygon: Int32) {
                for i in 0..<n where buffer[i] == polygon {
                    buffer[i] = buffer[n - 1]
                    n -= 1
                    return
                }
                buffer[n] = polygon
                n += 1
            }
            for j in insideRange { toggle(cellInside[j]) }
            for e in edgeRange {
                let (a, b, link) = edges.edge(Int(cellEdges[e]))
                let ax = a.x, ay = a.y, bx = b.x, by = b.y
                // Query on this edge: the boundary rule decides.
                let onLine = (bx - ax) * (p.y - ay) - (by - ay) * (p.x - ax)
                if onLine == 0, p.x >= min(ax, bx), p.x <= max(ax, bx), p.y >= min(ay, by), p.y <= max(ay, by) {
                    // A ring lies at the upper band's threshold, so the point
                    // belongs to the higher of its two owners (polygons are
                    // numbered lowest level first), whichever of them it
                    // bounds as a hole: round a pit the upper band is the
                    // one with the hole. A ring of one owner is that
                    // polygon's, as the lowest band's edge round a pit is.
                    let owner = link.twin >= 0 ? max(link.polygon, link.twin) : link.polygon
                    buffer[capacity + nWon] = owner
                    nWon += 1
                    if link.twin >= 0 {
                        buffer[2 * capacity + nLost] = min(link.polygon, link.twin)
                        nLost += 1
                    }
                    continue
                }
                // Does the segment centre → query cross this edge? A vertex on
                // the segment's line counts as lying on its positive side, so a
                // path through a vertex is counted once, consistently.
                let sa = (p.x - cx) * (ay - cy) - (p.y - cy) * (ax - cx)
                let sb = (p.x - cx) * (by - cy) - (p.y - cy) * (bx - cx)
                guard (sa >= 0) != (sb >= 0) else { continue }
                let sc = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                guard (sc > 0 && onLine < 0) || (sc < 0 && onLine > 0) else { continue }
                toggle(link.polygon)
                if link.twin >= 0 { toggle(link.twin) }
            }
            func lost(_ q: Int32) -> Bool { (0..<nLost).contains { buffer[2 * capacity + $0] == q } }
            for i in 0..<n where !lost(buffer[i]) { body(buffer[i]) }
            for i in 0..<nWon {
                let q = buffer[capacity + i]
                if !lost(q), !(0..<n).contains(where: { buffer[$0] == q }),
                    !(0..<i).contains(where: { buffer[capacity + $0] == q })
                {
                    body(q)
                }
            }
        }
    }
}
