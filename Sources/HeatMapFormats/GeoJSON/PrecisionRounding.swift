import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Rounds the polygons of one feature to the output's decimals so that
/// they stay valid (docs/contour-rules.md, docs/formats.md): after rounding, repeated positions and
/// spikes are removed, rings that collapse are dropped, orientation is
/// fixed (exteriors counter-clockwise, holes clockwise), and every ring
/// that rounding made touch or cross itself or another ring is rounded
/// again with one more decimal, until the feature is valid or the ring
/// carries all the decimals the coordinates hold.
enum PrecisionRounding {
    /// A polygon on the decimal grid: the exterior first, then the holes.
    typealias Polygon = [FixedRing]

    /// Rounds the polygons `pieces()` makes (open rings, x/y or lon/lat)
    /// with `precision`, giving the positions of offending rings more
    /// decimals (recorded in `precision`), and names the holes it gave up
    /// ([polygon, ring] of the polygons), so that
    /// ``rounded(_:precision:dropped:)`` can make the same rings again from
    /// the repaired precision; `box` is that of all the positions before
    /// rounding. Each polygon is let go of once rounded, so the feature is
    /// not held twice while it is checked; `pieces` is called again (it
    /// must make the same polygons) only for a round of repair, which is
    /// rare. About O(n) per round, at most `limit − base + 1` rounds.
    /// Polls `control` between polygons and inside the check. A round after
    /// a repair checks only what the repair can have changed
    /// (``RepairRound``), unless `checkingAll` (the same answer, for tests).
    /// - Throws: `CancellationError`, and what `pieces` throws.
    static func repaired(
        _ pieces: () throws -> [PlanePolygon], precision: inout VertexPrecision,
        control: ComputeControl = .none, checkingAll: Bool = false
    ) throws
        -> (polygons: [Polygon], dropped: Set<[Int]>, box: PlaneBox)
    {
        var polygons = try pieces()
        var box = PlaneBox.empty
        // The common case of bins: one convex ring.
        if polygons.count == 1, polygons[0].holes.isEmpty {
            for q in polygons[0].exterior { box.formUnion(q) }
            guard let ring = FixedRing.rounded(polygons[0].exterior, precision: precision, counterClockwise: true)
            else { return ([], [], box) }
            if isConvexSimple(ring.points) { return ([[ring]], [], box) }
        }
        var dropped = Set<[Int]>()
        // The round before, for checking again only what a repair changed.
        var before: RepairRound?
        while true {
            var refs: [[Int]] = []  // (polygon, ring) of each output ring
            box = .empty
            let out = rounded(
                releasing: &polygons, precision: precision, dropped: dropped, refs: &refs, box: &box,
                control: control)
            try control.checkCancellation()
            if isPlainlyValid(out) { return (out, dropped, box) }
            var checkRings: [RingContactCheck.Ring] = []
            for (k, rings) in out.enumerated() {
                for r in rings { checkRings.append(RingContactCheck.Ring(points: r.points, polygon: k)) }
            }
            let bad =
                (checkingAll ? nil : before).flatMap {
                    RepairRound.offenders(checkRings, refs: refs, changedSince: $0, control: control)
                }
                ?? RingContactCheck.offenders(checkRings, control: control)
            try control.checkCancellation()
            if bad.isEmpty { return (out, dropped, box) }
            before = RepairRound(rings: checkRings, refs: refs, bad: bad)
            polygons = try pieces()
            var raised = false
            for k in bad.sorted() {
                let ref = refs[k]
                let ring = ref[1] == 0 ? polygons[ref[0]].exterior : polygons[ref[0]].holes[ref[1] - 1]
                if precision.raise(ring) { raised = true }
            }
            if raised { continue }
            // Every offender already carries all the decimals there are: the
            // input itself is invalid there. Give up holes before exteriors.
            let holes = bad.map { refs[$0] }.filter { $0[1] > 0 }
            if holes.isEmpty { return (out, dropped, box) }
            dropped.formUnion(holes)
            // Holes given up: the next round is checked whole.
            before = nil
        }
    }

    /// The rings of `polygons` rounded with `precision` and oriented
    /// (exteriors counter-clockwise, holes clockwise), leaving out the
    /// holes in `dropped` and the rings that collapse: what ``repaired(_:precision:control:checkingAll:)``
    /// returns once `precision` holds its repairs, without checking again.
    /// Each polygon is let go of once rounded. O(n).
    package static func rounded(
        _ polygons: consuming [PlanePolygon], precision: VertexPrecision,
        dropped: Set<[Int]> = []
    ) -> [Polygon] {
        var refs: [[Int]] = []
        var box = PlaneBox.empty
        return rounded(releasing: &polygons, precision: precision, dropped: dropped, refs: &refs, box: &box)
    }

    /// `refs` gets the [polygon, ring] of `polygons` of each ring made,
    /// `box` their positions before rounding; each polygon is left empty
    /// once rounded, so that its positions are freed as the rounded ones
    /// are made. A cancelled `control` cuts it short between polygons (the
    /// caller throws).
    private static func rounded(
        releasing polygons: inout [PlanePolygon], precision: VertexPrecision,
        dropped: Set<[Int]>, refs: inout [[Int]], box: inout PlaneBox,
        control: ComputeControl = .none
    ) -> [Polygon] {
        var out: [Polygon] = []
        for pi in polygons.indices {
            if control.isCancelled { break }
            let polygon = polygons[pi]
            polygons[pi] = PlanePolygon(exterior: [])
            for q in polygon.exterior { box.formUnion(q) }
            for h in polygon.holes { for q in h { box.formUnion(q) } }
            guard let exterior = FixedRing.rounded(polygon.exterior, precision: precision, counterClockwise: true)
            else { continue }
            var rings = [exterior]
            refs.append([pi, 0])
            for (hi, hole) in polygon.holes.enumerated() where dropped.isEmpty || !dropped.contains([pi, hi + 1]) {
                guard let h = FixedRing.rounded(hole, precision: precision, counterClockwise: false) else { continue }
                rings.append(h)
                refs.append([pi, hi + 1])
            }
            out.append(rings)
        }
        return out
    }

    /// What writing one feature needs once its rounding is settled: the
    /// holes given up, and where its exteriors lie (for the collection's
    /// bbox, which comes before any feature).
    struct FeaturePlan {
        var dropped: Set<[Int]> = []
        var extent = GeoJSONDocument.Extent()
        /// Positions of its rounded rings (the work of making them again).
        var positions = 0
        /// The box of all its positions before rounding: a position outside
        /// it cannot be one of them.
        package var box = PlaneBox.empty
        /// Whether the first round of planning made it (no later round had
        /// to round it again).
        var isFirstRound = true
    }

    /// Settles the rounding of many features so that each is valid and
    /// positions they share are rounded alike: features are rounded again
    /// whenever another feature gave one of their positions more decimals,
    /// until nothing changes. `pieces(f)` gives feature f's polygons; it is
    /// called from several threads at once, and again for the features a
    /// repair may concern. Each pass rounds its features on every core from
    /// the same precision and merges their repairs in feature order, so the
    /// result does not depend on the thread timing. The rounded rings are not
    /// kept: ``rounded(_:precision:dropped:)`` makes a feature's again, from
    /// its pieces and the settled `precision`, when it is written.
    /// `firstRound`, when given, is the first round already done (by a
    /// writer that hoped no repair would be needed), one per feature;
    /// `mayShare(f, g)` false says features f and g hold no position in
    /// common (bands two levels apart), so a repair of one spares the other.
    /// O(rounds × vertices); memory O(one pass's features in flight).
    static func planFeatures(
        count: Int, pieces: (Int) throws -> [PlanePolygon], precision: inout VertexPrecision,
        control: ComputeControl = .none, firstRound: [FeatureRound]? = nil,
        mayShare: (Int, Int) -> Bool = { _, _ in true }
    ) throws -> [FeaturePlan] {
        var plans = [FeaturePlan](repeating: FeaturePlan(), count: count)
        var todo = Array(0..<count)
        var known = firstRound
        var isFirstRound = true
        while !todo.isEmpty {
            let start = precision.shared
            let round = todo
            let results =
                try known
                ?? inParallel(round.count, control: control) { k in
                    try Self.round({ try pieces(round[k]) }, from: start, control: control).round
                }
            known = nil
            var changed: [PlanePoint] = []
            var setters: [PlanePoint: Int] = [:]  // changed position → the feature whose raise won
            for (k, r) in results.enumerated() {
                let f = round[k]
                plans[f] = r.plan
                plans[f].isFirstRound = isFirstRound
                guard let local = r.raised else { continue }
                for p in precision.merge(local) {
                    if setters[p] == nil { changed.append(p) }
                    setters[p] = f
                }
            }
            isFirstRound = false
            guard !changed.isEmpty else { break }
            todo = try holders(
                of: changed, setters: setters, plans: plans, pieces: pieces, mayShare: mayShare,
                control: control)
        }
        return plans
    }

    /// One feature rounded in one round of ``planFeatures(count:pieces:precision:control:firstRound:mayShare:)``:
    /// its plan, and the precision with its raises (nil when it raised none).
    struct FeatureRound {
        var plan: FeaturePlan
        var raised: VertexPrecision?
    }

    /// The polygons `pieces()` makes, rounded and repaired from `start`
    /// (``repaired(_:precision:control:checkingAll:)``): the rings, and what a round of
    /// planning keeps of them.
    /// - Throws: `CancellationError` when `control` is cancelled, and what
    ///   `pieces` throws.
    static func round(
        _ pieces: () throws -> [PlanePolygon], from start: VertexPrecision,
        control: ComputeControl = .none
    ) throws -> (polygons: [Polygon], round: FeatureRound) {
        var local = start
        let (rounded, dropped, box) = try repaired(pieces, precision: &local, control: control)
        var plan = FeaturePlan(dropped: dropped, box: box)
        for polygon in rounded {
            if let exterior = polygon.first { plan.extent.add(exterior) }
            for ring in polygon { plan.positions += ring.points.count }
        }
        return (rounded, FeatureRound(plan: plan, raised: local.local.isEmpty ? nil : local))
    }

    /// The features to round again: those that may hold a changed position
    /// at decimals other than the ones they were rounded with — a feature
    /// that may share positions with the feature that set it, whose box
    /// holds the changed position, with a position of the same hash (a
    /// collision only costs a rounding that gives the same result). Their
    /// positions are hashed again rather than kept from the first pass,
    /// since repairs are rare. O(candidates' vertices).
    private static func holders(
        of changed: [PlanePoint], setters: [PlanePoint: Int], plans: [FeaturePlan],
        pieces: (Int) throws -> [PlanePolygon], mayShare: (Int, Int) -> Bool,
        control: ComputeControl
    ) throws -> [Int] {
        var setterOfHash: [UInt32: [Int]] = [:]
        // The changed positions by the feature that set them, with their box:
        // a feature is tested against a setter's positions only where the
        // boxes meet, not against every position (many, when close levels
        // need repairs everywhere).
        var bySetter: [Int: [PlanePoint]] = [:]
        for p in changed {
            let setter = setters[p]!
            setterOfHash[VertexPrecision.positionHash(p), default: []].append(setter)
            bySetter[setter, default: []].append(p)
        }
        let groups = bySetter.keys.sorted().map { setter in
            var box = PlaneBox.empty
            for p in bySetter[setter]! { box.formUnion(p) }
            return (setter: setter, points: bySetter[setter]!, box: box)
        }
        let candidates = plans.indices.filter { f in
            groups.contains { g in
                g.setter != f && mayShare(f, g.setter) && plans[f].box.intersects(g.box)
                    && g.points.contains { plans[f].box.contains($0) }
            }
        }
        let holds = try inParallel(candidates.count, control: control) { k -> Bool in
            let f = candidates[k]
            func holds(_ ring: [PlanePoint]) -> Bool {
                ring.contains { q in setterOfHash[VertexPrecision.positionHash(q)]?.contains { $0 != f } ?? false }
            }
            return try pieces(f).contains { p in holds(p.exterior) || p.holes.contains(where: holds) }
        }
        return candidates.indices.filter { holds[$0] }.map { candidates[$0] }
    }

    /// `body(k)` for k in 0..<count on every core, in runs of a few per
    /// worker so that uneven features still share out; results in k order.
    private static func inParallel<T>(
        _ count: Int, control: ComputeControl,
        _ body: (Int) throws -> T
    ) throws -> [T] {
        let chunks = chunked(count)
        let parts = try Parallel.map(chunks.count, control: control) { c in
            try chunks[c].map { k in
                try control.checkCancellation()
                return try body(k)
            }
        }
        return parts.flatMap { $0 }
    }

    /// Splits 0..<count into runs for the workers: a few per worker so that
    /// uneven features still share out.
    private static func chunked(_ count: Int) -> [Range<Int>] {
        let parts = min(count, 8 * Parallel.workerCount)
        guard parts > 0 else { return [] }
        return (0..<parts).map { p in (count * p / parts)..<(count * (p + 1) / parts) }
    }

    /// Single convex rings with boxes apart (bins, and their pieces at
    /// ±180°) need no sweep.
    private static func isPlainlyValid(_ polygons: [Polygon]) -> Bool {
        guard polygons.count <= 4, polygons.allSatisfy({ $0.count == 1 }) else { return false }
        var boxes: [(Int64, Int64, Int64, Int64, Int)] = []
        for p in polygons {
            let ring = p[0]
            guard isConvexSimple(ring.points) else { return false }
            var lx = Int64.max, hx = Int64.min, ly = Int64.max, hy = Int64.min
            for q in ring.points { lx = min(lx, q.x); hx = max(hx, q.x); ly = min(ly, q.y); hy = max(hy, q.y) }
            boxes.append((lx, hx, ly, hy, ring.decimals))
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                // Compare as doubles: the boxes only need to be clearly apart.
                let a = boxes[i], b = boxes[j]
                func v(_ n: Int64, _ d: Int) -> Double { FixedRing.value(n, d) }
                if v(a.0, a.4) <= v(b.1, b.4), v(b.0, b.4) <= v(a.1, a.4),
                    v(a.2, a.4) <= v(b.3, b.4), v(b.2, b.4) <= v(a.3, a.4)
                {
                    return false
                }
            }
        }
        return true
    }
}

extension PrecisionRounding {
    /// A polyline rounded with `precision`, repeated positions removed; nil
    /// when fewer than two positions remain. O(n).
    static func round(line: [PlanePoint], precision: VertexPrecision) -> GeoJSONDocument.FixedLine? {
        var pts: [FixedPoint] = []
        pts.reserveCapacity(line.count)
        for p in line {
            guard let f = precision.fixed(p) else { return nil }
            if pts.last != f { pts.append(f) }
        }
        return pts.count >= 2 ? GeoJSONDocument.FixedLine(points: pts, decimals: precision.limit) : nil
    }

    /// Whether a ring is convex and simple: it only turns left and its
    /// direction goes from rising to falling at most once each way. O(n).
    static func isConvexSimple(_ pts: [FixedPoint]) -> Bool {
        let n = pts.count
        guard n >= 3 else { return false }
        var changes = 0
        var lastSign = 0
        for i in 0..<n {
            let a = pts[i], b = pts[(i + 1) % n], c = pts[(i + 2) % n]
            if ExactPredicates.orient(a, b, c) < 0 { return false }
            let dy = b.y - a.y
            let sign = dy > 0 ? 1 : (dy < 0 ? -1 : 0)
            if sign != 0 {
                if lastSign != 0, sign != lastSign { changes += 1 }
                lastSign = sign
            }
        }
        // Count the change across the seam too.
        if let firstSign = pts.indices.lazy.map({ i -> Int in
            let dy = pts[(i + 1) % n].y - pts[i].y
            return dy > 0 ? 1 : (dy < 0 ? -1 : 0)
        }).first(where: { $0 != 0 }), lastSign != 0, firstSign != lastSign {
            changes += 1
        }
        return changes <= 2
    }
}
