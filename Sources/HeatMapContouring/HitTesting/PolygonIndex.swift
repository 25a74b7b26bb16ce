import Foundation
import HeatMapCore
import HeatMapDensity

/// A spatial index over contour polygons for point queries (docs/contour-rules.md): the
/// polygons are split into parts of about equal vertex counts, each a
/// ``RasterIndex`` built on its own core; a query asks every part.
package struct PolygonIndex: Sendable {
    private let parts: [RasterIndex]

    /// Indexes the polygons of every level, flattened level by level (the
    /// order of `HeatMapContours.contours`). O(V + cells), on every core.
    /// `parts` overrides how many parts (by default one per core for
    /// large inputs, one for small ones).
    package init(bands: [[PlanePolygon]], parts requested: Int? = nil) {
        let polygons = Array(bands.joined())
        let sizes = polygons.map { $0.holes.reduce($0.exterior.count) { $0 + $1.count } }
        let total = sizes.reduce(0, +)
        let count = max(1, requested ?? (total < 200_000 ? 1 : min(Parallel.workerCount, 8)))
        // Contiguous ranges of polygons holding about total / count vertices each.
        var ranges: [Range<Int>] = []
        var start = 0, acc = 0
        for (i, n) in sizes.enumerated() {
            acc += n
            if acc * count >= total * (ranges.count + 1), ranges.count < count - 1 {
                ranges.append(start..<(i + 1))
                start = i + 1
            }
        }
        ranges.append(start..<polygons.count)
        let parts = ranges
        self.parts = Parallel.map(parts.count) { k in RasterIndex(polygons, range: parts[k]) }
    }

    /// Indices of the polygons containing `p`, ascending.
    package func polygons(containing p: PlanePoint) -> [Int] {
        var out: [Int] = []
        for part in parts { part.visit(p) { out.append(Int($0)) } }
        return out.sorted()
    }

    /// The highest-numbered polygon containing `p` (for bands: the only
    /// one), without allocating.
    func highestPolygon(containing p: PlanePoint) -> Int? {
        var best: Int32 = -1
        for part in parts { part.visit(p) { best = max(best, $0) } }
        return best >= 0 ? Int(best) : nil
    }
}

/// One part of a ``PolygonIndex``.
///
/// A fine uniform raster covers the polygons. Each raster cell stores the
/// edges that meet it and the polygons that contain its centre (found
/// once, for all cells, by a sweep of horizontal lines through the
/// centres). A query then looks only inside its own cell: starting from
/// the centre's answer, each edge that the segment centre → query crosses
/// toggles its polygon. A query costs O(edges in its cell); with about one
/// cell per four vertices a cell of contour rings holds a few edges, so
/// that is about constant whatever the vertex count (a ``PolygonIndex``
/// asks each of its parts, at most 8). Building costs O(V + cells).
///
/// Boundary rule: a point on an exterior ring is inside, a point on a hole
/// is outside, so a point on the ring shared by two bands belongs to the
/// upper band only.
///
/// A class: a query visits every part, and copying a struct of a dozen
/// arrays out of `parts` would retain and release each of them per query.
final class RasterIndex: Sendable {
    // Vertices of all rings, flattened, x and y side by side; and per
    // edge (edge i runs from vertex i to vertex links[i].next) its owner.
    // A query reads a few of each at random: one cache line per vertex
    // and per edge, not one per array.
    private let vertices: [PlanePoint]
    private let links: [EdgeLink]

    private let frame: CellFrame
    private let cellEdgeStart: [Int32], cellEdges: [Int32]
    private let cellInsideStart: [Int32], cellInside: [Int32]

    /// Indexes `polygons[range]`, numbering each by its position in `polygons`.
    package init(_ polygons: [PlanePolygon], range: Range<Int>) {
        var vertices: [PlanePoint] = [], links: [EdgeLink] = []
        var box = PlaneBox.empty
        // Sized once: growing would copy, and fresh pages are not free.
        let count = range.reduce(0) { n, i in polygons[i].holes.reduce(n + polygons[i].exterior.count) { $0 + $1.count } }
        vertices.reserveCapacity(count); links.reserveCapacity(count)
        // A ring shared by two polygons (a band's hole is the next band's
        // exterior, reversed) is indexed once, its edges owned by both:
        // half the vertices to rasterise and to test per query.
        var seen: [RingKey: (start: Int, count: Int)] = [:]
        for polygon in range {
            let p = polygons[polygon]
            for k in 0...p.holes.count {
                let ring = k == 0 ? p.exterior : p.holes[k - 1]
                guard ring.count >= 3 else { continue }
                let key = RingKey(ring)
                if let twin = seen[key],
                   RingKey.isReversal(ring, of: vertices[twin.start ..< twin.start + twin.count]) {
                    for i in twin.start ..< twin.start + twin.count {
                        links[i].twin = Int32(polygon)
                        links[i].twinIsHole = k > 0
                    }
                    seen[key] = nil
                    continue
                }
                let first = vertices.count
                for q in ring {
                    box.formUnion(q)
                    vertices.append(q)
                    links.append(EdgeLink(next: Int32(vertices.count), polygon: Int32(polygon), isHole: k > 0))
                }
                links[links.count - 1].next = Int32(first)
                seen[key] = (first, ring.count)
            }
        }
        // About one cell per four vertices, square-ish cells; the origin is
        // nudged by an odd fraction of a cell so that cell centres do not
        // fall exactly on grid-aligned contour vertices.
        let cells = Double(min(max(vertices.count / 4, 64), 16_000_000))
        let w = max(box.width, 1e-300), h = max(box.height, 1e-300)
        let side = (w * h / cells).squareRoot()
        let columns = box.isEmpty ? 1 : max(1, min(Int(w / side) + 1, 8192))
        let rows = box.isEmpty ? 1 : max(1, min(Int(h / side) + 1, 8192))
        let cellW = w / Double(columns) * 1.000_001, cellH = h / Double(rows) * 1.000_001
        let minX = box.minX - cellW * 0.000_000_5 * 0.618, minY = box.minY - cellH * 0.000_000_5 * 0.382
        let frame = CellFrame(minX: minX, minY: minY, cellW: cellW, cellH: cellH, columns: columns, rows: rows)

        let (edgeStart, cellEdges, insideStart, inside) = vertices.withUnsafeBufferPointer { vertices in
            links.withUnsafeBufferPointer { links in
                let edges = RasterBuild.Edges(vertices: vertices, links: links)
                let (edgeStart, cellEdges) = RasterBuild.edgesByCell(edges, frame)
                let crossings = RasterBuild.centreCrossings(edges, frame)
                let (insideStart, inside) = RasterBuild.insideSets(crossings, frame)
                return (edgeStart, cellEdges, insideStart, inside)
            }
        }

        self.vertices = vertices; self.links = links
        self.frame = frame
        self.cellEdgeStart = edgeStart; self.cellEdges = cellEdges
        self.cellInsideStart = insideStart; self.cellInside = inside
    }

    /// Calls `body` once for each polygon containing `p`. The working sets
    /// are bounded by the cell's own entries and edges, so they fit one
    /// temporary buffer (on the stack for ordinary cells).
    func visit(_ p: PlanePoint, _ body: (Int32) -> Void) {
        guard !vertices.isEmpty, let (column, row) = frame.cell(of: p) else { return }
        let k = row * frame.columns + column
        let cx = frame.centreX(column), cy = frame.centreY(row)
        // The odd set never holds more than the centre's polygons plus two
        // per edge (its owners), and each boundary list at most two per edge.
        let edgeRange = Int(cellEdgeStart[k])..<Int(cellEdgeStart[k + 1])
        let insideRange = Int(cellInsideStart[k])..<Int(cellInsideStart[k + 1])
        let capacity = insideRange.count + 2 * edgeRange.count + 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * capacity) { buffer in
            // [0, n): the odd set; [capacity, …): on an exterior; [2 capacity, …): on a hole.
            var n = 0, nExterior = 0, nHole = 0
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
                let i = Int(cellEdges[e]), link = links[i]
                let a = vertices[i], b = vertices[Int(link.next)]
                let ax = a.x, ay = a.y, bx = b.x, by = b.y
                // Query on this edge: the boundary rule decides.
                let onLine = (bx - ax) * (p.y - ay) - (by - ay) * (p.x - ax)
                if onLine == 0, p.x >= min(ax, bx), p.x <= max(ax, bx), p.y >= min(ay, by), p.y <= max(ay, by) {
                    func onBoundary(_ owner: Int32, isHole: Bool) {
                        if isHole {
                            buffer[2 * capacity + nHole] = owner
                            nHole += 1
                        } else {
                            buffer[capacity + nExterior] = owner
                            nExterior += 1
                        }
                    }
                    onBoundary(link.polygon, isHole: link.isHole)
                    if link.twin >= 0 { onBoundary(link.twin, isHole: link.twinIsHole) }
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
            func onHole(_ q: Int32) -> Bool { (0..<nHole).contains { buffer[2 * capacity + $0] == q } }
            for i in 0..<n where !onHole(buffer[i]) { body(buffer[i]) }
            for i in 0..<nExterior {
                let q = buffer[capacity + i]
                if !onHole(q), !(0..<n).contains(where: { buffer[$0] == q }),
                   !(0..<i).contains(where: { buffer[capacity + $0] == q }) {
                    body(q)
                }
            }
        }
    }
}

/// An edge of a ``RasterIndex``: the vertex it runs to, the polygon whose
/// exterior or hole it bounds, and the second polygon that shares the
/// ring, if any (−1 if none).
struct EdgeLink: Sendable {
    package var next: Int32
    package let polygon: Int32
    var twin: Int32 = -1
    let isHole: Bool
    var twinIsHole = false

    package init(next: Int32, polygon: Int32, isHole: Bool) {
        self.next = next
        self.polygon = polygon
        self.isHole = isHole
    }
}

/// Finds a ring's twin: the same vertices in reverse order, maybe from
/// another start. Rings are keyed by their vertex count and their lowest
/// vertex (by x, then y), then compared vertex by vertex.
struct RingKey: Hashable {
    package let count: Int
    let lowestX: Double
    let lowestY: Double

    package init(_ ring: [PlanePoint]) {
        count = ring.count
        let lowest = RingKey.lowest(ring[...])
        lowestX = ring[lowest].x
        lowestY = ring[lowest].y
    }

    /// The index of the lowest vertex by (x, y).
    static func lowest(_ ring: ArraySlice<PlanePoint>) -> Int {
        var best = ring.startIndex
        for i in ring.indices where ring[i].x < ring[best].x || (ring[i].x == ring[best].x && ring[i].y < ring[best].y) {
            best = i
        }
        return best
    }

    /// Whether `ring` is `other` walked backwards. O(n).
    static func isReversal(_ ring: [PlanePoint], of other: ArraySlice<PlanePoint>) -> Bool {
        let n = ring.count
        guard other.count == n else { return false }
        let a = lowest(ring[...]), b = lowest(other) - other.startIndex
        for t in 0..<n where ring[(a + t) % n] != other[other.startIndex + (b - t + n) % n] { return false }
        return true
    }
}
