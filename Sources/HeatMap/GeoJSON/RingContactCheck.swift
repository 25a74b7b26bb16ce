import Foundation

/// Finds the rings of a (multi)polygon that make it invalid by OGC rules
/// as GEOS judges them, on exact integer positions: a ring touching or
/// crossing itself, two rings crossing or sharing a piece of edge, rings
/// of one polygon touching so that they cut its interior apart (two touches
/// between the same rings, or a cycle of touching rings), and touches where
/// a position lies inside another ring's edge (exact in decimal, but not in
/// the binary doubles a reader parses).
///
/// Candidate segment pairs come from a uniform grid (``BoxPairs``), so the
/// cost is about linear in the segments for contour rings, not O(n²); a
/// ring's segments are cut into runs along which x and y never turn back
/// (``MonotoneRun``), whose segments cannot meet, so the many cells that
/// hold one piece of one run are never read.
struct RingContactCheck {
    /// One ring to check, all at the same decimals.
    struct Ring {
        var points: [FixedPoint]
        /// Which polygon of the feature the ring belongs to.
        var polygon: Int
    }

    /// The rings' segments end to end, read where the rings keep their
    /// positions (no copy of them): segment k runs from `point(k)` to the
    /// next position of its ring (its first one for the ring's last segment).
    private struct Segments: BoxedItems {
        static let joinsPrevious: UInt32 = 1, closesRing: UInt32 = 2, flagBits: UInt32 = 2

        let rings: [[FixedPoint]]
        /// Per segment: its ring above ``flagBits``, `joinsPrevious` when it
        /// lies in one ``MonotoneRun`` with the segment before it,
        /// `closesRing` for a ring's last. Four bytes a segment where a copy
        /// of the positions took sixteen; 2^30 rings would be 48 GB of them.
        private var meta: [UInt32] = []
        /// The first segment of each ring, then the total.
        private(set) var starts: [Int] = []

        init(_ rings: [Ring]) {
            self.rings = rings.map(\.points)
            let total = rings.reduce(0) { $0 + $1.points.count }
            meta.reserveCapacity(total)
            starts.reserveCapacity(rings.count + 1)
            for (r, source) in rings.enumerated() {
                let p = source.points, n = p.count
                starts.append(meta.count)
                var run = MonotoneRun()
                let ring = UInt32(r) << Self.flagBits
                for i in 0..<n {
                    let joins = run.extend(p[i], p[i + 1 == n ? 0 : i + 1])
                    meta.append(ring | (joins ? Self.joinsPrevious : 0) | (i + 1 == n ? Self.closesRing : 0))
                }
            }
            starts.append(meta.count)
        }

        /// The ring of segment k.
        @inline(__always) func ring(_ k: Int) -> Int { Int(meta[k] >> Self.flagBits) }

        /// Where segment k starts.
        @inline(__always) func point(_ k: Int) -> FixedPoint {
            let r = ring(k)
            return rings[r][k - starts[r]]
        }

        @inline(__always) func end(_ k: Int) -> FixedPoint {
            let r = ring(k), i = k - starts[r]
            return rings[r][meta[k] & Self.closesRing == 0 ? i + 1 : 0]
        }

        var count: Int { meta.count }

        @inline(__always) func joinsPrevious(_ k: Int) -> Bool { meta[k] & Self.joinsPrevious != 0 }

        /// Consecutive segments of a ring share their vertex and may only
        /// fold back there, which the spike test finds.
        @inline(__always) func followsPrevious(_ k: Int) -> Bool { meta[k - 1] & Self.closesRing == 0 }

        @inline(__always) func box(_ k: Int) -> FixedBox {
            let r = ring(k), i = k - starts[r], ring = rings[r]
            let a = ring[i], b = ring[meta[k] & Self.closesRing == 0 ? i + 1 : 0]
            return FixedBox(minX: min(a.x, b.x), maxX: max(a.x, b.x), minY: min(a.y, b.y), maxY: max(a.y, b.y))
        }
    }

    private struct Touch: Hashable {
        var ringA: Int, ringB: Int
        var point: FixedPoint
    }

    /// The indices of the rings at fault (empty when the geometry is valid);
    /// `stripBoxes` as ``BoxPairs/forEach(_:stripBoxes:control:_:)`` takes it (the
    /// answer does not depend on it). A cancelled `control` cuts the check
    /// short: the caller must then throw, not use the answer.
    static func offenders(_ rings: [Ring], control: ComputeControl = .none,
                          stripBoxes: Int = BoxPairs.stripBoxes) -> Set<Int> {
        let segments = Segments(rings)
        var bad = Set<Int>()
        // Neighbouring segments share a vertex; they may only not fold back
        // there (a triangle cannot). Inside a monotone run they cannot.
        for (r, ring) in rings.enumerated() {
            let points = ring.points, n = points.count, first = segments.starts[r]
            guard n >= 2, n != 3 else { continue }
            for i in 0..<n where !segments.joinsPrevious(first + i)
                && ExactPredicates.isSpike(points[i == 0 ? n - 1 : i - 1], points[i], points[i + 1 == n ? 0 : i + 1]) {
                bad.insert(r)
                break
            }
        }

        // Touch point → the segment of each ring found there (first one wins).
        var touches: [Touch: (Int, Int)] = [:]
        BoxPairs.forEach(segments, stripBoxes: stripBoxes, control: control) { i, j in
            let ra = segments.ring(i), rb = segments.ring(j)
            let ia = i - segments.starts[ra], ib = j - segments.starts[rb]
            let p1 = segments.point(i), p2 = segments.end(i), p3 = segments.point(j), p4 = segments.end(j)
            if ra == rb {
                let gap = j - i
                if gap == 1 || gap == segments.starts[ra + 1] - segments.starts[ra] - 1 { return }
                if ExactPredicates.contact(p1, p2, p3, p4) != .none { bad.insert(ra) }
                return
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
            let ringA = rings[touch.ringA].points, ringB = rings[touch.ringB].points
            // A position lying exactly on another ring's edge (not at one of
            // its vertices) touches in decimal, but not reliably once read
            // as binary doubles: GEOS may see a tiny crossing. Only shared
            // vertices are safe touches.
            if !isVertex(touch.point, of: ringA, segment: sa) || !isVertex(touch.point, of: ringB, segment: sb) {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
                continue
            }
            let (a1, a2) = directions(ringA, segment: sa, at: touch.point)
            let (b1, b2) = directions(ringB, segment: sb, at: touch.point)
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
        // A hole must lie inside its exterior: with no crossing found, one of
        // its positions off the exterior decides. Exteriors with more than
        // a couple of holes get a strip index of their edges, so each test
        // costs O(√n), not O(n).
        var exteriorOf: [Int: Int] = [:]
        var holes: [Int: Int] = [:]
        for (r, ring) in rings.enumerated() {
            if exteriorOf[ring.polygon] == nil { exteriorOf[ring.polygon] = r } else { holes[ring.polygon, default: 0] += 1 }
        }
        var indexes: [Int: StripIndex] = [:]
        for (r, ring) in rings.enumerated() {
            guard let e = exteriorOf[ring.polygon], e != r, !bad.contains(r), !bad.contains(e) else { continue }
            let indexed = holes[ring.polygon, default: 0] > 2
            if indexed, indexes[e] == nil { indexes[e] = StripIndex(rings[e].points) }
            for p in ring.points {
                let side = indexed ? indexes[e]?.locate(p) ?? -1 : locate(p, in: rings[e].points)
                if side == 0 { continue }
                if side < 0 { bad.insert(r); bad.insert(e) }
                break
            }
        }
        return bad
    }

    /// 1 inside, 0 on the boundary, −1 outside; exact. O(n).
    static func locate(_ p: FixedPoint, in ring: [FixedPoint]) -> Int {
        guard ring.count >= 3 else { return -1 }
        var inside = false
        for i in ring.indices {
            guard let toggles = StripIndex.crossing(p, ring[i], ring[i + 1 == ring.count ? 0 : i + 1]) else { return 0 }
            if toggles { inside.toggle() }
        }
        return inside ? 1 : -1
    }

    private static func isVertex(_ p: FixedPoint, of ring: [FixedPoint], segment k: Int) -> Bool {
        p == ring[k] || p == ring[(k + 1) % ring.count]
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

/// Consecutive segments of a ring gathered while x and y each keep one
/// direction (or stand still). Two segments of such a run that are not
/// neighbours cannot meet: the segment between them has positive length and
/// moves away in x or in y, so one of the two coordinates separates them.
/// A segment of zero length stands alone.
private struct MonotoneRun {
    private var dx = 0, dy = 0
    private var open = false

    /// Adds segment a → b; whether it joined the run (false: a new run starts with it).
    mutating func extend(_ a: FixedPoint, _ b: FixedPoint) -> Bool {
        let sx = a.x < b.x ? 1 : (a.x > b.x ? -1 : 0), sy = a.y < b.y ? 1 : (a.y > b.y ? -1 : 0)
        if sx == 0, sy == 0 {
            open = false
            return false
        }
        if open, sx == 0 || dx == 0 || sx == dx, sy == 0 || dy == 0 || sy == dy {
            if dx == 0 { dx = sx }
            if dy == 0 { dy = sy }
            return true
        }
        (dx, dy, open) = (sx, sy, true)
        return false
    }
}

/// A ring's edges bucketed by horizontal strips, for exact point-in-ring
/// tests that only look at the edges spanning the point's y. The buckets
/// lie end to end in one array (a count pass, then a fill pass).
struct StripIndex {
    private let ring: [FixedPoint]
    private let low: Int64
    /// Strips are 2^shift high.
    private let shift: Int64
    private let stripCount: Int
    /// The edges of strip s are `edges[starts[s]..<starts[s + 1]]`, in ring order.
    private var starts: [Int]
    private var edges: [Int32]

    init(_ ring: [FixedPoint], strips count: Int? = nil) {
        self.ring = ring
        let n = max(ring.count, 1)
        var lo = Int64.max, hi = Int64.min
        for p in ring { lo = min(lo, p.y); hi = max(hi, p.y) }
        if lo > hi { lo = 0; hi = 0 }
        let wanted = max(1, count ?? Int(Double(n).squareRoot()))
        var shift: Int64 = 0
        while (hi - lo) >> shift >= wanted { shift += 1 }
        let k = Int((hi - lo) >> shift) + 1
        (low, self.shift, stripCount) = (lo, shift, k)
        starts = [Int](repeating: 0, count: k + 1)
        edges = []
        let m = ring.count
        guard m > 0 else { return }
        for i in 0..<m {
            let a = ring[i].y, b = ring[i + 1 == m ? 0 : i + 1].y
            for s in strip(min(a, b))...strip(max(a, b)) { starts[s + 1] += 1 }
        }
        for s in 0..<k { starts[s + 1] += starts[s] }
        var next = starts
        edges = [Int32](repeating: 0, count: starts[k])
        for i in 0..<m {
            let a = ring[i].y, b = ring[i + 1 == m ? 0 : i + 1].y
            for s in strip(min(a, b))...strip(max(a, b)) {
                edges[next[s]] = Int32(i)
                next[s] += 1
            }
        }
    }

    /// The strip of a y; monotonic in y, so an edge spanning y is in y's strip.
    @inline(__always) private func strip(_ y: Int64) -> Int {
        y < low ? 0 : min(Int((y - low) >> shift), stripCount - 1)
    }

    /// 1 inside, 0 on the boundary, −1 outside (crossing number, exact).
    func locate(_ p: FixedPoint) -> Int {
        guard ring.count >= 3 else { return -1 }
        var inside = false
        let s = strip(p.y)
        for e in starts[s]..<starts[s + 1] {
            let i = Int(edges[e])
            guard let toggles = Self.crossing(p, ring[i], ring[i + 1 == ring.count ? 0 : i + 1]) else { return 0 }
            if toggles { inside.toggle() }
        }
        return inside ? 1 : -1
    }

    /// Whether edge a → b crosses the ray east of p (nil: p lies on the edge).
    @inline(__always) static func crossing(_ p: FixedPoint, _ a: FixedPoint, _ b: FixedPoint) -> Bool? {
        if (a.y > p.y) == (b.y > p.y) {
            // Not straddling: p can still be one of its ends, or on it if it is horizontal.
            if a == p || b == p { return nil }
            if a.y == p.y, b.y == p.y, ExactPredicates.between(p, a, b) { return nil }
            return false
        }
        let o = ExactPredicates.orient(a, b, p)
        if o == 0 { return nil }
        // The crossing is east of p when p is left of an upward edge or right of a downward one.
        return (b.y > a.y) == (o > 0)
    }
}
