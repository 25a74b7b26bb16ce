import Foundation

/// Finds the rings of a (multi)polygon that make it invalid by OGC rules
/// as GEOS judges them, on exact integer positions: a ring touching or
/// crossing itself, two rings crossing or sharing a piece of edge, and rings
/// of one polygon touching so that they cut its interior apart (two touches
/// between the same rings, or a cycle of touching rings).
///
/// Segments are swept in x order, so the cost is O(n log n + pairs whose x
/// ranges overlap), about O(n √n) for contour rings, not O(n²).
struct RingContactCheck {
    /// One ring to check, all at the same decimals.
    struct Ring {
        var points: [FixedPoint]
        /// Which polygon of the feature the ring belongs to.
        var polygon: Int
    }

    private struct Segment {
        var ring: Int32
        var index: Int32
        var minX: Int64, maxX: Int64, minY: Int64, maxY: Int64
    }

    private struct Touch: Hashable {
        var ringA: Int, ringB: Int
        var point: FixedPoint
    }

    /// The indices of the rings at fault (empty when the geometry is valid).
    static func offenders(_ rings: [Ring], control: ComputeControl = .none) -> Set<Int> {
        var segments: [Segment] = []
        segments.reserveCapacity(rings.reduce(0) { $0 + $1.points.count })
        for (r, ring) in rings.enumerated() {
            let n = ring.points.count
            for i in 0..<n {
                let a = ring.points[i], b = ring.points[(i + 1) % n]
                segments.append(Segment(ring: Int32(r), index: Int32(i), minX: min(a.x, b.x), maxX: max(a.x, b.x),
                                        minY: min(a.y, b.y), maxY: max(a.y, b.y)))
            }
        }
        segments.sort { $0.minX != $1.minX ? $0.minX < $1.minX : ($0.ring, $0.index) < ($1.ring, $1.index) }

        var bad = Set<Int>()
        // Touch point → the segment of each ring found there (first one wins).
        var touches: [Touch: (Int, Int)] = [:]
        for i in 0..<segments.count {
            let s = segments[i]
            var j = i + 1
            while j < segments.count, segments[j].minX <= s.maxX {
                let t = segments[j]
                j += 1
                guard t.minY <= s.maxY, s.minY <= t.maxY else { continue }
                let ra = Int(s.ring), rb = Int(t.ring)
                let ringA = rings[ra].points, ringB = rings[rb].points
                let ia = Int(s.index), ib = Int(t.index)
                let p1 = ringA[ia], p2 = ringA[(ia + 1) % ringA.count]
                let p3 = ringB[ib], p4 = ringB[(ib + 1) % ringB.count]
                if ra == rb {
                    let n = ringA.count
                    let gap = abs(ia - ib)
                    if gap == 1 || gap == n - 1 {
                        // Neighbours share a vertex; they may only not fold back.
                        if n == 3 { continue }
                        let (a, v, c) = ib == (ia + 1) % n ? (p1, p2, p4) : (p2, p1, p3)
                        if ExactPredicates.isSpike(a, v, c) { bad.insert(ra) }
                        continue
                    }
                    if ExactPredicates.contact(p1, p2, p3, p4) != .none { bad.insert(ra) }
                    continue
                }
                switch ExactPredicates.contact(p1, p2, p3, p4) {
                case .none: break
                case .cross, .overlap:
                    bad.insert(ra); bad.insert(rb)
                case .point(let p):
                    let key = ra < rb ? Touch(ringA: ra, ringB: rb, point: p) : Touch(ringA: rb, ringB: ra, point: p)
                    if touches[key] == nil { touches[key] = ra < rb ? (ia, ib) : (ib, ia) }
                }
            }
        }

        // A touch where the rings cross is a crossing; touches that close a
        // cycle among the rings of one polygon disconnect its interior.
        var parent = Array(rings.indices)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        let ordered = touches.keys.sorted {
            ($0.ringA, $0.ringB, $0.point.x, $0.point.y) < ($1.ringA, $1.ringB, $1.point.x, $1.point.y)
        }
        for touch in ordered {
            guard let (sa, sb) = touches[touch] else { continue }
            let (a1, a2) = directions(rings[touch.ringA].points, segment: sa, at: touch.point)
            let (b1, b2) = directions(rings[touch.ringB].points, segment: sb, at: touch.point)
            if ExactPredicates.ringsCross(a1: a1, a2: a2, b1: b1, b2: b2) {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
                continue
            }
            guard rings[touch.ringA].polygon == rings[touch.ringB].polygon else { continue }
            let ra = find(touch.ringA), rb = find(touch.ringB)
            if ra == rb {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
            } else {
                parent[ra] = rb
            }
        }
        return bad
    }

    /// The two directions in which a ring leaves point p, which lies on its
    /// segment `segment` (at a vertex, or inside the segment).
    private static func directions(_ ring: [FixedPoint], segment k: Int, at p: FixedPoint)
        -> ((Int64, Int64), (Int64, Int64)) {
        let n = ring.count
        let a = ring[k], b = ring[(k + 1) % n]
        func to(_ q: FixedPoint) -> (Int64, Int64) { (q.x - p.x, q.y - p.y) }
        if p == a { return (to(ring[(k + n - 1) % n]), to(b)) }
        if p == b { return (to(a), to(ring[(k + 2) % n])) }
        return (to(a), to(b))
    }
}
