import Foundation
import HeatMapCore

/// The rings of one ``RasterIndex`` part, flattened in the plane as its
/// build reads them: vertices side by side, and per edge (edge i runs from
/// vertex i to vertex `links[i].next`) the polygon it bounds.
///
/// A ring shared by two polygons (a band's hole is the next band's
/// exterior, reversed) is gathered once, its edges owned by both: half the
/// vertices to rasterise and to test per query.
struct RingGatherer {
    private(set) var vertices: [PlanePoint] = []
    private(set) var links: [EdgeLink] = []
    private(set) var box = PlaneBox.empty
    /// Where each gathered ring starts among `vertices`, and one past the last.
    private(set) var ringStarts: [Int32] = [0]
    private var seen: [RingKey: (start: Int, count: Int)] = [:]

    /// Room for `vertices` vertices (growing would copy, and fresh pages are not free).
    init(capacity: Int) {
        vertices.reserveCapacity(capacity)
        links.reserveCapacity(capacity)
    }

    /// Adds `ring` of `polygon` (a hole when `isHole`); rings of fewer than
    /// three vertices are left out. Returns true when the ring was gathered,
    /// false when it was left out or found to be the reversal of a ring
    /// gathered before (whose edges now name `polygon` as their twin).
    /// O(ring) expected.
    mutating func add(_ ring: UnsafeBufferPointer<PlanePoint>, polygon: Int, isHole: Bool) -> Bool {
        guard ring.count >= 3 else { return false }
        let key = RingKey(ring)
        if let twin = seen[key],
            RingKey.isReversal(ring, of: vertices[twin.start..<twin.start + twin.count])
        {
            for i in twin.start..<twin.start + twin.count {
                links[i].twin = Int32(polygon)
                links[i].twinIsHole = isHole
            }
            seen[key] = nil
            return false
        }
        let first = vertices.count
        for q in ring {
            box.formUnion(q)
            vertices.append(q)
            links.append(EdgeLink(next: Int32(vertices.count), polygon: Int32(polygon), isHole: isHole))
        }
        links[links.count - 1].next = Int32(first)
        seen[key] = (first, ring.count)
        ringStarts.append(Int32(vertices.count))
        return true
    }
}

/// An edge of a ``RasterIndex``: the vertex it runs to, the polygon whose
/// exterior or hole it bounds, and the second polygon that shares the
/// ring, if any (−1 if none).
struct EdgeLink: Sendable {
    var next: Int32
    let polygon: Int32
    var twin: Int32 = -1
    let isHole: Bool
    var twinIsHole = false

    init(next: Int32, polygon: Int32, isHole: Bool) {
        self.next = next
        self.polygon = polygon
        self.isHole = isHole
    }
}

/// Finds a ring's twin: the same vertices in reverse order, maybe from
/// another start. Rings are keyed by their vertex count and their lowest
/// vertex (by x, then y), then compared vertex by vertex.
struct RingKey: Hashable {
    let count: Int
    let lowestX: Double
    let lowestY: Double

    init(_ ring: UnsafeBufferPointer<PlanePoint>) {
        count = ring.count
        let lowest = RingKey.lowest(ring)
        lowestX = ring[lowest].x
        lowestY = ring[lowest].y
    }

    /// The index of the lowest vertex by (x, y).
    static func lowest<C: RandomAccessCollection>(_ ring: C) -> C.Index where C.Element == PlanePoint {
        var best = ring.startIndex
        for i in ring.indices where ring[i].x < ring[best].x || (ring[i].x == ring[best].x && ring[i].y < ring[best].y)
        {
            best = i
        }
        return best
    }

    /// Whether `ring` is `other` walked backwards. O(n).
    static func isReversal(_ ring: UnsafeBufferPointer<PlanePoint>, of other: ArraySlice<PlanePoint>) -> Bool {
        let n = ring.count
        guard other.count == n else { return false }
        let a = lowest(ring), b = lowest(other) - other.startIndex
        for t in 0..<n where ring[(a + t) % n] != other[other.startIndex + (b - t + n) % n] { return false }
        return true
    }
}
