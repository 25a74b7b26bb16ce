import Foundation
import HeatMapCore
import HeatMapDensity

/// Clips polygons with holes against a half-plane bounded by an axis-parallel
/// line, keeping them valid.
///
/// Each ring is cut into chains that lie inside the half-plane; chains are
/// then joined along the cut line. Walking up the line x = c (the boundary
/// of x ≤ c, interior on the left), the polygon is inside between an exit
/// (a chain reaching the line) and the next entry above it, so each exit is
/// joined to the next entry. A hole cut by the line thus becomes a notch in
/// the exterior; holes wholly inside stay holes of the piece that contains
/// them. Rings must be open, exteriors counter-clockwise, holes clockwise.
///
/// A cut point is computed from the edge's end points in a fixed order, so
/// an edge shared by two polygons (neighbouring bands) is cut at the very
/// same point in both.
package enum HalfPlaneClipper {
    /// Which side of the line to keep.
    package enum Side {
        /// x ≤ c.
        case west
        /// x ≥ c.
        case east
        /// y ≤ c.
        case south
        /// y ≥ c.
        case north
    }

    /// The pieces of `polygon` on `side` of the line at `c`. O(n log n).
    package static func clip(_ polygon: PlanePolygon, keeping side: Side, of c: Double) -> [PlanePolygon] {
        // Rotations (orientation-preserving) reduce every side to "x ≤ c".
        let forward: (PlanePoint) -> PlanePoint, back: (PlanePoint) -> PlanePoint, line: Double
        switch side {
        case .west:
            return clipWest(polygon, c)
        case .east:
            forward = { PlanePoint(x: -$0.x, y: -$0.y) }; back = forward; line = -c
        case .south:
            forward = { PlanePoint(x: $0.y, y: -$0.x) }; back = { PlanePoint(x: -$0.y, y: $0.x) }; line = c
        case .north:
            forward = { PlanePoint(x: -$0.y, y: $0.x) }; back = { PlanePoint(x: $0.y, y: -$0.x) }; line = -c
        }
        let turned = PlanePolygon(exterior: polygon.exterior.map(forward), holes: polygon.holes.map { $0.map(forward) })
        return clipWest(turned, line).map {
            PlanePolygon(exterior: $0.exterior.map(back), holes: $0.holes.map { $0.map(back) })
        }
    }

    /// The point where edge p–q meets x = c (an end point itself when it lies on the line).
    package static func cut(_ p: PlanePoint, _ q: PlanePoint, _ c: Double) -> PlanePoint {
        if p.x == c { return p }
        if q.x == c { return q }
        let (a, b) = (p.x, p.y) < (q.x, q.y) ? (p, q) : (q, p)
        let t = (c - a.x) / (b.x - a.x)
        let y = a.y + t * (b.y - a.y)
        return PlanePoint(x: c, y: min(max(y, min(a.y, b.y)), max(a.y, b.y)))
    }

    private struct Crossing {
        package var y: Double
        var isExit: Bool
        var chain: Int
    }

    private static func clipWest(_ polygon: PlanePolygon, _ c: Double) -> [PlanePolygon] {
        var wholeExteriors: [[PlanePoint]] = []
        var looseHoles: [[PlanePoint]] = []
        var chains: [[PlanePoint]] = []
        for (ri, ring) in ([polygon.exterior] + polygon.holes).enumerated() {
            let n = ring.count
            guard n >= 3 else { continue }
            var insideCount = 0
            for p in ring where p.x <= c { insideCount += 1 }
            if insideCount == n {
                if ri == 0 { wholeExteriors.append(ring) } else { looseHoles.append(ring) }
                continue
            }
            if insideCount == 0 {
                if ri == 0 { return [] }  // the holes lie inside the exterior, so outside too
                continue
            }
            // Start where the ring enters the half-plane.
            guard let start = (0..<n).first(where: { ring[$0].x <= c && ring[$0 == 0 ? n - 1 : $0 - 1].x > c }) else {
                continue
            }
            var chain: [PlanePoint] = []
            // Index i runs once round from `start`, wrapping at n (no
            // division per position: long rings are cut here).
            var i = start
            for _ in 0..<n {
                defer { i = i + 1 == n ? 0 : i + 1 }
                let p = ring[i], prev = ring[i == 0 ? n - 1 : i - 1], next = ring[i + 1 == n ? 0 : i + 1]
                guard p.x <= c else { continue }
                if prev.x > c { chain = [cut(prev, p, c)] }
                chain.append(p)
                if next.x > c {
                    chain.append(cut(p, next, c))
                    // A chain that only runs along the line adds no area.
                    if chain.contains(where: { $0.x != c }) { chains.append(chain) }
                    chain = []
                }
            }
        }

        var crossings: [Crossing] = []
        for (k, chain) in chains.enumerated() {
            crossings.append(Crossing(y: chain[0].y, isExit: false, chain: k))
            crossings.append(Crossing(y: chain[chain.count - 1].y, isExit: true, chain: k))
        }
        crossings.sort { $0.y != $1.y ? $0.y < $1.y : ($0.chain, $0.isExit ? 0 : 1) < ($1.chain, $1.isExit ? 0 : 1) }
        let successor = pairCrossings(crossings, chainCount: chains.count)

        var exteriors = wholeExteriors
        var holes = looseHoles
        var visited = [Bool](repeating: false, count: chains.count)
        for first in chains.indices where !visited[first] {
            // The walk's chains first, so the ring is made in a buffer of its size.
            var walk: [Int] = []
            var k = first
            while !visited[k] {
                visited[k] = true
                walk.append(k)
                k = successor[k]
            }
            var ring: [PlanePoint] = []
            ring.reserveCapacity(walk.reduce(0) { $0 + chains[$1].count })
            for k in walk {
                for p in chains[k] where ring.last != p { ring.append(p) }
                // Each chain is read once: the ring holds its positions now.
                chains[k] = []
            }
            while ring.count > 1, ring.first == ring.last { ring.removeLast() }
            guard ring.count >= 3 else { continue }
            let area = PlaneRing.signedArea(ring)
            if area > 0 { exteriors.append(ring) } else if area < 0 { holes.append(ring) }
        }
        return assemble(exteriors: exteriors, holes: holes)
    }

    /// The chain each chain's exit leads to: the next entry above it on the
    /// line. Equal heights are resolved so that exits and entries alternate.
    private static func pairCrossings(_ crossings: [Crossing], chainCount: Int) -> [Int] {
        var successor = [Int](repeating: -1, count: chainCount)
        var pendingExit: Int?
        var unpairedExits: [Int] = [], unpairedEntries: [Int] = []
        var i = 0
        while i < crossings.count {
            var j = i
            while j < crossings.count, crossings[j].y == crossings[i].y { j += 1 }
            var exits = crossings[i..<j].filter(\.isExit).map(\.chain)
            var entries = crossings[i..<j].filter { !$0.isExit }.map(\.chain)
            while !exits.isEmpty || !entries.isEmpty {
                if let e = pendingExit, !entries.isEmpty {
                    // Prefer closing a chain on itself at a shared point.
                    let pick = entries.firstIndex(of: e) ?? 0
                    successor[e] = entries.remove(at: pick)
                    pendingExit = nil
                } else if pendingExit == nil, !exits.isEmpty {
                    pendingExit = exits.removeFirst()
                } else if let e = pendingExit {
                    // Two exits in a row: the input was not a valid polygon.
                    unpairedExits.append(e)
                    pendingExit = exits.removeFirst()
                } else {
                    unpairedEntries.append(entries.removeFirst())
                }
            }
            i = j
        }
        if let e = pendingExit { unpairedExits.append(e) }
        // Whatever is left over still gets a partner, so every walk closes.
        for (e, n) in zip(unpairedExits, unpairedEntries) { successor[e] = n }
        var free = Set(0..<chainCount).subtracting(successor.filter { $0 >= 0 }).sorted()
        for k in 0..<chainCount where successor[k] < 0 { successor[k] = free.isEmpty ? k : free.removeFirst() }
        return successor
    }

    /// Gives each hole to the exterior that contains it.
    static func assemble(exteriors: [[PlanePoint]], holes: [[PlanePoint]]) -> [PlanePolygon] {
        var polygons = exteriors.map { PlanePolygon(exterior: $0) }
        guard !holes.isEmpty, !polygons.isEmpty else { return polygons }
        if polygons.count == 1 {
            polygons[0].holes = holes
            return polygons
        }
        let boxes = polygons.map(\.bounds)
        // Large exteriors get a slab index once many holes look them up
        // (it answers as PlaneRing.locate does, in O(√n) per point).
        var locators = [RingLocator?](repeating: nil, count: polygons.count)
        let indexed = holes.count >= 8
        for hole in holes {
            var owner: Int?
            for p in hole {
                for (k, polygon) in polygons.enumerated() where boxes[k].contains(p) {
                    let where_: Int
                    if indexed, polygon.exterior.count >= 256 {
                        if locators[k] == nil { locators[k] = RingLocator(polygon.exterior) }
                        where_ = locators[k]!.locate(p)
                    } else {
                        where_ = PlaneRing.locate(p, in: polygon.exterior)
                    }
                    if where_ == 1 { owner = k; break }
                }
                if owner != nil { break }
            }
            if let owner { polygons[owner].holes.append(hole) }
        }
        return polygons
    }
}
