import Foundation
import HeatMapCore
import HeatMapDensity

/// Finds the rings of a (multi)polygon that make it invalid by OGC rules
/// as GEOS judges them, on exact integer positions: a ring touching or
/// crossing itself, two rings crossing or sharing a piece of edge, rings
/// of one polygon touching so that they cut its interior apart (two touches
/// between the same rings, or a cycle of touching rings), and touches where
/// a position lies inside another ring's edge (exact in decimal, but not in
/// the binary doubles a reader parses).
///
/// A ring's segments are cut into runs along which x and y never turn back
/// (``MonotoneRun``), whose segments cannot meet, and the runs into short
/// pieces (``MonotonePieces``). Candidate pairs of pieces come from a
/// uniform grid (``BoxPairs``) of the pieces, a small ring's together
/// (``PieceGroups``), so the cost is about linear in the segments for
/// contour rings, not O(n²), and a pair of pieces compares only the
/// segments that reach into the overlap of their boxes.
package struct RingContactCheck {
    /// One ring to check, all at the same decimals.
    package struct Ring {
        package var points: [FixedPoint]
        /// Which polygon of the feature the ring belongs to.
        package var polygon: Int

        package init(points: [FixedPoint], polygon: Int) {
            self.points = points
            self.polygon = polygon
        }
    }

    /// The rings of `polygons` (each an exterior, then its holes),
    /// numbered by their polygon, in order: what ``offenders(_:control:stripBoxes:)``
    /// checks for a (multi)polygon.
    package static func rings(ofPolygons polygons: [[[FixedPoint]]]) -> [Ring] {
        polygons.enumerated().flatMap { k, polygon in polygon.map { Ring(points: $0, polygon: k) } }
    }

    private struct Touch: Hashable {
        var ringA: Int, ringB: Int
        package var point: FixedPoint
    }

    /// The indices of the rings at fault (empty when the geometry is valid);
    /// `stripBoxes` as ``BoxPairs/forEach(_:stripBoxes:control:_:)`` takes it (the
    /// answer does not depend on it). A cancelled `control` cuts the check
    /// short: the caller must then throw, not use the answer.
    package static func offenders(
        _ rings: [Ring], control: ComputeControl = .none,
        stripBoxes: Int = BoxPairs.stripBoxes
    ) -> Set<Int> {
        var touched: [Int] = []
        return offenders(rings, control: control, stripBoxes: stripBoxes, touchedPolygons: &touched)
    }

    /// The same, and `touchedPolygons` gets the polygon of every touch
    /// between two rings of one polygon that is not at fault by itself (the
    /// touches that may close a cycle): a caller that checks part of a
    /// polygon learns whether its answer could depend on the rest.
    ///
    /// With `near`, the rings for which `near(r, nil)` holds are checked
    /// only along their segments near the others: a run of up to
    /// ``MonotonePieces/pieceLength`` of their segments takes part only when
    /// `near(r, box)` holds for its box. Such a ring is taken to be valid
    /// by itself, with the contacts it makes away from there as they were:
    /// for a caller that checks again what changed, and passes the rings
    /// that did not change but lie near those that did.
    package static func offenders(
        _ rings: [Ring], control: ComputeControl = .none,
        stripBoxes: Int = BoxPairs.stripBoxes, touchedPolygons: inout [Int],
        near: ((Int, FixedBox?) -> Bool)? = nil
    ) -> Set<Int> {
        offenders(
            rings, control: control, stripBoxes: stripBoxes, touchedPolygons: &touchedPolygons, near: near,
            log: nil)
    }

    /// The same as ``offenders(_:control:stripBoxes:)``, and `contacts`
    /// gets where the faults lie: the box of the two segments of each
    /// crossing, overlap or contact of a ring with itself, the point of
    /// each touch at fault, and the box of each hole outside its exterior.
    /// (A ring that turns straight back adds none.)
    package static func offenders(
        _ rings: [Ring], control: ComputeControl = .none, contacts: inout [FixedBox]
    ) -> Set<Int> {
        let log = ContactLog()
        var touched: [Int] = []
        let bad = offenders(
            rings, control: control, stripBoxes: BoxPairs.stripBoxes, touchedPolygons: &touched, near: nil, log: log)
        contacts += log.boxes
        return bad
    }

    /// Where the faults a check finds lie (``offenders(_:control:contacts:)``).
    private final class ContactLog {
        var boxes: [FixedBox] = []

        func add(_ one: MonotonePieces.Segment, _ other: MonotonePieces.Segment) {
            add([one.start, one.end, other.start, other.end])
        }

        func add(_ p: FixedPoint) { add([p]) }

        /// The box of `points` (not empty).
        func add(_ points: [FixedPoint]) {
            var box = FixedBox(minX: .max, maxX: .min, minY: .max, maxY: .min)
            for p in points {
                box = FixedBox(
                    minX: min(box.minX, p.x), maxX: max(box.maxX, p.x), minY: min(box.minY, p.y),
                    maxY: max(box.maxY, p.y))
            }
            boxes.append(box)
        }
    }

    private static func offenders(
        _ rings: [Ring], control: ComputeControl, stripBoxes: Int, touchedPolygons: inout [Int],
        near: ((Int, FixedBox?) -> Bool)?, log: ContactLog?
    ) -> Set<Int> {
        let partial = near.map { near in rings.indices.map { near($0, nil) } }
        let pieces = MonotonePieces(
            rings.map(\.points),
            keep: partial.map { partial in
                { r, box in !partial[r] || near!(r, box) }
            })
        var bad = Set(pieces.spiky)

        // Every segment pair recorded at each touch point: a ring may pass a
        // point twice, and then the pairs need not agree, so any pair that
        // finds a fault decides (whatever order the pairs come in).
        var touches: [(touch: Touch, a: Int, b: Int)] = []
        func compare(_ u: Int, _ v: Int) {
            pieces.forEachSegmentPair(u, v) { one, other in
                let ra = one.ring, rb = other.ring, ia = one.index, ib = other.index
                let contact = ExactPredicates.contact(one.start, one.end, other.start, other.end)
                if ra == rb {
                    if contact != .none {
                        bad.insert(ra)
                        log?.add(one, other)
                    }
                    return
                }
                switch contact {
                case .none: break
                case .cross, .overlap:
                    bad.insert(ra); bad.insert(rb)
                    log?.add(one, other)
                case .point(let p):
                    touches.append(
                        ra < rb
                            ? (Touch(ringA: ra, ringB: rb, point: p), ia, ib)
                            : (Touch(ringA: rb, ringB: ra, point: p), ib, ia))
                }
            }
        }
        pieces.forEachNeighbourPair(compare)
        let groups = PieceGroups(pieces)
        groups.forEachInnerPair(compare)
        BoxPairs.forEach(groups, stripBoxes: stripBoxes, control: control) { i, j in
            groups.forEachPiecePair(i, j, compare)
        }

        // A touch where the rings cross is a crossing; touches that close a
        // cycle among the rings of one polygon disconnect its interior.
        var parent = Array(rings.indices)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        touches.sort {
            ($0.touch.ringA, $0.touch.ringB, $0.touch.point.x, $0.touch.point.y, $0.a, $0.b)
                < ($1.touch.ringA, $1.touch.ringB, $1.touch.point.x, $1.touch.point.y, $1.a, $1.b)
        }
        var k = 0
        while k < touches.count {
            let touch = touches[k].touch
            var end = k + 1
            while end < touches.count, touches[end].touch == touch { end += 1 }
            defer { k = end }
            let ringA = rings[touch.ringA].points, ringB = rings[touch.ringB].points
            let faulty = touches[k..<end].contains { _, sa, sb in
                // A position lying exactly on another ring's edge (not at one
                // of its vertices) touches in decimal, but not reliably once
                // read as binary doubles: GEOS may see a tiny crossing. Only
                // shared vertices are safe touches.
                guard isVertex(touch.point, of: ringA, segment: sa), isVertex(touch.point, of: ringB, segment: sb)
                else { return true }
                let (a1, a2) = directions(ringA, segment: sa, at: touch.point)
                let (b1, b2) = directions(ringB, segment: sb, at: touch.point)
                return ExactPredicates.ringsCross(a1: a1, a2: a2, b1: b1, b2: b2)
            }
            if faulty {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
                log?.add(touch.point)
                continue
            }
            guard rings[touch.ringA].polygon == rings[touch.ringB].polygon else { continue }
            touchedPolygons.append(rings[touch.ringA].polygon)
            let ra = find(touch.ringA), rb = find(touch.ringB)
            if ra == rb {
                bad.insert(touch.ringA); bad.insert(touch.ringB)
                log?.add(touch.point)
            } else {
                parent[ra] = rb
            }
        }
        // A hole must lie inside its exterior: with no crossing found, one of
        // its positions off the exterior decides. The holes' first positions
        // are located together, in one pass over each exterior's edges; a
        // hole whose first position lies on the exterior tries its next ones
        // one by one (through a strip index of the exterior's edges when the
        // polygon has more than a couple of holes, so each test costs
        // O(√n), not O(n)).
        // Flat tables by polygon number, not hash maps: a check may hold
        // hundreds of thousands of small rings. (The rings are read by
        // index, their polygon alone: a ring copied out retains and
        // releases its positions.)
        var polygonCount = 0
        for r in rings.indices { polygonCount = max(polygonCount, rings[r].polygon + 1) }
        var exteriorOf = [Int](repeating: -1, count: polygonCount)
        var holes = [Int](repeating: 0, count: polygonCount)
        for r in rings.indices {
            let polygon = rings[r].polygon
            if exteriorOf[polygon] < 0 {
                exteriorOf[polygon] = r
            } else {
                holes[polygon] += 1
            }
        }
        var isBad = [Bool](repeating: false, count: rings.count)
        for r in bad { isBad[r] = true }
        let firstSides = sidesOfFirstPositions(rings, exteriorOf: exteriorOf, holes: holes, isBad: isBad)
        var indexes: [Int: StripIndex] = [:]
        for r in rings.indices {
            let polygon = rings[r].polygon, e = exteriorOf[polygon]
            // A hole whose first position lies inside: nothing more to learn.
            guard e != r, !isBad[r], !isBad[e], firstSides[r] <= 0 else { continue }
            let ring = rings[r]
            guard !ring.points.isEmpty else { continue }
            var side = firstSides[r]
            if side == 0 {
                let indexed = holes[polygon] > 2
                if indexed, indexes[e] == nil { indexes[e] = StripIndex(rings[e].points) }
                for p in ring.points.dropFirst() {
                    side = indexed ? indexes[e]?.locate(p) ?? -1 : locate(p, in: rings[e].points)
                    if side != 0 { break }
                }
            }
            if side < 0 {
                bad.insert(r); bad.insert(e)
                log?.add(ring.points)
                isBad[r] = true; isBad[e] = true
            }
        }
        return bad
    }

    /// Where the first position of each hole lies against its exterior
    /// (as ``locate(_:in:)``; 0 for rings left out: exteriors, empty rings,
    /// and those in `isBad` or in a polygon whose exterior is), each
    /// exterior's holes located together. O(positions of the exteriors with
    /// holes + the holes' share of their edges, and a sort of the holes).
    private static func sidesOfFirstPositions(
        _ rings: [Ring], exteriorOf: [Int], holes: [Int], isBad: [Bool]
    ) -> [Int] {
        var sides = [Int](repeating: 0, count: rings.count)
        // The holes to locate, by polygon: a count pass, then a fill pass.
        var starts = [Int](repeating: 0, count: holes.count + 1)
        func wanted(_ r: Int) -> Bool {
            let e = exteriorOf[rings[r].polygon]
            return e != r && !isBad[r] && !isBad[e] && !rings[r].points.isEmpty
        }
        for r in rings.indices where wanted(r) { starts[rings[r].polygon + 1] += 1 }
        for k in 0..<holes.count { starts[k + 1] += starts[k] }
        var next = starts
        var members = [Int](repeating: 0, count: starts[holes.count])
        for r in rings.indices where wanted(r) {
            members[next[rings[r].polygon]] = r
            next[rings[r].polygon] += 1
        }
        for polygon in 0..<holes.count where starts[polygon + 1] > starts[polygon] {
            let exterior = rings[exteriorOf[polygon]].points
            if starts[polygon + 1] - starts[polygon] == 1 {
                // One hole (most polygons that have any): the one-point
                // test, the same answer without the sorted copies.
                let h = members[starts[polygon]]
                sides[h] = locate(rings[h].points[0], in: exterior)
                continue
            }
            let hs = members[starts[polygon]..<starts[polygon + 1]]
            let found = locate(hs.map { rings[$0].points[0] }, in: exterior)
            for (h, side) in zip(hs, found) { sides[h] = side }
        }
        return sides
    }

    /// Where each of `points` lies against `ring`, exactly as
    /// ``locate(_:in:)`` says one by one, in one pass over the ring's edges:
    /// the points sorted by y, each edge tests only those within its y
    /// range (an edge that misses a point's y neither crosses its ray nor
    /// holds it), found from the last edge's by walking, since the edges of
    /// a ring follow on. O(n + q log q + edge–point pairs sharing a y).
    package static func locate(_ points: [FixedPoint], in ring: [FixedPoint]) -> [Int] {
        let q = points.count
        guard ring.count >= 3 else { return [Int](repeating: -1, count: q) }
        let order = points.indices.sorted { points[$0].y < points[$1].y }
        let sorted = order.map { points[$0] }
        // 1 outside so far, −1 inside, 0 on the boundary (settled).
        var state = [Int](repeating: 1, count: q)
        let m = ring.count
        var j = 0
        ring.withUnsafeBufferPointer { ring in
            sorted.withUnsafeBufferPointer { sorted in
                state.withUnsafeMutableBufferPointer { state in
                    var a = ring[m - 1]
                    for i in 0..<m {
                        let b = ring[i]
                        defer { a = b }
                        let low = min(a.y, b.y), high = max(a.y, b.y)
                        while j > 0, sorted[j - 1].y >= low { j -= 1 }
                        while j < q, sorted[j].y < low { j += 1 }
                        var k = j
                        while k < q, sorted[k].y <= high {
                            if state[k] != 0 {
                                if let toggles = StripIndex.crossing(sorted[k], a, b) {
                                    if toggles { state[k] = -state[k] }
                                } else {
                                    state[k] = 0
                                }
                            }
                            k += 1
                        }
                    }
                }
            }
        }
        var sides = [Int](repeating: 0, count: q)
        for (k, i) in order.enumerated() { sides[i] = -state[k] }
        return sides
    }

    /// 1 inside, 0 on the boundary, −1 outside; exact. O(n).
    package static func locate(_ p: FixedPoint, in ring: [FixedPoint]) -> Int {
        guard ring.count >= 3 else { return -1 }
        var inside = false
        return ring.withUnsafeBufferPointer { ring in
            let n = ring.count
            var a = ring[n - 1]
            for i in 0..<n {
                let b = ring[i]
                defer { a = b }
                // Most edges lie wholly above or below p: such an edge
                // neither holds p nor crosses its ray, which two
                // comparisons show.
                if a.y > p.y, b.y > p.y { continue }
                if a.y < p.y, b.y < p.y { continue }
                guard let toggles = StripIndex.crossing(p, a, b) else { return 0 }
                if toggles { inside.toggle() }
            }
            return inside ? 1 : -1
        }
    }

    private static func isVertex(_ p: FixedPoint, of ring: [FixedPoint], segment k: Int) -> Bool {
        p == ring[k] || p == ring[(k + 1) % ring.count]
    }

    /// The two directions in which a ring leaves point p, which lies on its
    /// segment `segment` (at a vertex, or inside the segment).
    private static func directions(_ ring: [FixedPoint], segment k: Int, at p: FixedPoint)
        -> ((Int64, Int64), (Int64, Int64))
    {
        let n = ring.count
        let a = ring[k], b = ring[(k + 1) % n]
        func to(_ q: FixedPoint) -> (Int64, Int64) { (q.x - p.x, q.y - p.y) }
        if p == a { return (to(ring[(k + n - 1) % n]), to(b)) }
        if p == b { return (to(a), to(ring[(k + 2) % n])) }
        return (to(a), to(b))
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

    package init(_ ring: [FixedPoint], strips count: Int? = nil) {
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
    package func locate(_ p: FixedPoint) -> Int {
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
    @inline(__always) package static func crossing(_ p: FixedPoint, _ a: FixedPoint, _ b: FixedPoint) -> Bool? {
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
