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
    /// O(ring) expected, counted on `poll` vertex by vertex (a ring may hold
    /// millions); a throw leaves the gatherer half-filled, to be dropped.
    /// - Throws: `CancellationError`.
    mutating func add(
        _ ring: UnsafeBufferPointer<PlanePoint>, polygon: Int, isHole: Bool, poll: inout PollCounter
    ) throws -> Bool {
        guard ring.count >= 3 else { return false }
        let key = try RingKey(ring, poll: &poll)
        if let twin = seen[key],
            try vertices.withUnsafeBufferPointer({ vertices in
                try RingKey.isReversal(
                    ring, of: UnsafeBufferPointer(rebasing: vertices[twin.start..<twin.start + twin.count]),
                    poll: &poll)
            })
        {
            for i in twin.start..<twin.start + twin.count {
                try poll.advance()
                links[i].twin = Int32(polygon)
                links[i].twinIsHole = isHole
            }
            seen[key] = nil
            return false
        }
        let first = vertices.count
        for q in ring {
            try poll.advance()
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

    init(_ ring: UnsafeBufferPointer<PlanePoint>, poll: inout PollCounter) throws {
        count = ring.count
        let lowest = try RingKey.lowest(ring, poll: &poll)
        lowestX = ring[lowest].x
        lowestY = ring[lowest].y
    }

    /// The index of the lowest vertex by (x, y). O(n), counted on `poll`.
    static func lowest(_ ring: UnsafeBufferPointer<PlanePoint>, poll: inout PollCounter) throws -> Int {
        var best = 0
        for i in ring.indices {
            try poll.advance()
            if ring[i].x < ring[best].x || (ring[i].x == ring[best].x && ring[i].y < ring[best].y) { best = i }
        }
        return best
    }

    /// Whether `ring` is `other` walked backwards. O(n), counted on `poll`.
    static func isReversal(
        _ ring: UnsafeBufferPointer<PlanePoint>, of other: UnsafeBufferPointer<PlanePoint>,
        poll: inout PollCounter
    ) throws -> Bool {
        let n = ring.count
        guard other.count == n else { return false }
        // Walk `ring` forwards from its lowest vertex and `other` backwards from its own.
        var i = try lowest(ring, poll: &poll), j = try lowest(other, poll: &poll)
        for _ in 0..<n {
            try poll.advance()
            if ring[i] != other[j] { return false }
            i = i + 1 == n ? 0 : i + 1
            j = j == 0 ? n - 1 : j - 1
        }
        return true
    }
}
