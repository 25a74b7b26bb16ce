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

    /// A ring of a feature's pieces: its polygon, and 0 for the exterior
    /// or h + 1 for hole h.
    /// Eight bytes, since a feature's last round keeps one per ring.
    struct RingRef: Hashable, Comparable {
        private let p: Int32, r: Int32
        var polygon: Int { Int(p) }
        var ring: Int { Int(r) }

        init(polygon: Int, ring: Int) {
            p = Int32(truncatingIfNeeded: polygon)
            r = Int32(truncatingIfNeeded: ring)
        }

        static func < (a: RingRef, b: RingRef) -> Bool {
            a.p < b.p || (a.p == b.p && a.r < b.r)
        }
    }

    /// How a feature's rounding ended, for checking it again after other
    /// features raised some of its positions: the rings it made (by their
    /// [polygon, ring]) and the offenders left among them (none, unless
    /// the input itself is invalid there).
    struct LastRound {
        var refs: [RingRef]
        var bad: Set<Int>
    }

    /// A feature's last round and the positions whose decimals may have
    /// changed since (`moved`): its rings that hold none round as they
    /// did, so the first check of the new round looks only at the others
    /// and their neighbourhood (``RepairRound``).
    struct SinceLastRound {
        var last: LastRound
        var moved: (PlanePoint) -> Bool

        /// Whether a ring of `polygon` holds a moved position.
        func holdsMoved(_ polygon: PlanePolygon) -> Bool {
            polygon.exterior.contains(where: moved) || polygon.holes.contains { $0.contains(where: moved) }
        }
    }

    /// Rounds the polygons `pieces()` makes (open rings, x/y or lon/lat)
    /// with `precision`, giving the positions of offending rings more
    /// decimals (recorded in `precision`), and names the holes it gave up,
    /// so that ``rounded(_:precision:dropped:)`` can make the same rings
    /// again from the repaired precision; `box` holds all the positions
    /// before rounding (up to a unit of the base decimals wider). `pieces` is called once: the polygons are
    /// held while the feature is checked, so that a round of repair rounds
    /// again only the rings that hold a position it raised, and keeps the
    /// others as they were. About O(n) for the first round, and a round of
    /// repair about O(n) light work (asking of each position whether it
    /// was raised) with the rounding and the check of what it changed;
    /// at most `limit − base + 1` rounds. Polls `control` between polygons
    /// and inside the check. A round after a repair checks only what the
    /// repair can have changed (``RepairRound``), unless `checkingAll`
    /// (the same answer, for tests).
    /// - Throws: `CancellationError`, and what `pieces` throws.
    ///
    /// With `previous` (the same feature's last round, rounded from a
    /// precision that differs from this one only at positions its `moved`
    /// names), the first round too checks only what changed since.
    static func repaired(
        _ pieces: () throws -> [PlanePolygon], precision: inout VertexPrecision,
        control: ComputeControl = .none, checkingAll: Bool = false,
        previous: SinceLastRound? = nil
    ) throws
        -> (polygons: [Polygon], dropped: Set<RingRef>, box: PlaneBox, last: LastRound)
    {
        let original = try pieces()
        var polygons = original.map(precision.cutChords)
        // The common case of bins: one convex ring.
        if polygons.count == 1, polygons[0].holes.isEmpty {
            var bounds = FixedBox.empty
            let ring = FixedRing.rounded(
                polygons[0].exterior, precision: precision, counterClockwise: true, bounds: &bounds)
            let box = sourceBox(bounds, precision: precision)
            guard let ring else { return ([], [], box, LastRound(refs: [], bad: [])) }
            if isConvexSimple(ring.points) {
                return ([[ring]], [], box, LastRound(refs: [RingRef(polygon: 0, ring: 0)], bad: []))
            }
        }
        var rings = FeatureRings(polygons)
        rings.round(precision: precision, control: control)
        try control.checkCancellation()
        var box = sourceBox(rings.bounds, precision: precision)
        var dropped = Set<RingRef>()
        // The round before, for checking again only what a repair changed.
        var before = previous.map { RepairRound(refs: $0.last.refs, bad: $0.last.bad) }
        while true {
            let (out, refs) = rings.polygons(leavingOut: dropped)
            if isPlainlyValid(out) { return (out, dropped, box, LastRound(refs: refs, bad: [])) }
            var checkRings: [RingContactCheck.Ring] = []
            checkRings.reserveCapacity(refs.count)
            for (k, rings) in out.enumerated() {
                for r in rings { checkRings.append(RingContactCheck.Ring(points: r.points, polygon: k)) }
            }
            // A round kept without its positions (the last one of an
            // earlier planning round) asks which rings hold a moved one.
            let movedRing = { (k: Int) in rings.source(refs[k]).contains(where: previous!.moved) }
            let bad =
                (checkingAll ? nil : before).flatMap {
                    RepairRound.offenders(checkRings, refs: refs, changedSince: $0, moved: movedRing, control: control)
                }
                ?? RingContactCheck.offenders(checkRings, control: control)
            try control.checkCancellation()
            if bad.isEmpty { return (out, dropped, box, LastRound(refs: refs, bad: [])) }
            before = RepairRound(rings: checkRings, refs: refs, bad: bad)
            // The positions whose decimals the raises change: only the
            // rings holding one can round differently.
            var raisedPositions: [PlanePoint] = []
            var raised = false
            for k in bad.sorted() {
                let ring = rings.source(refs[k])
                for p in ring where precision.decimals(of: p) < precision.limit { raisedPositions.append(p) }
                if precision.raise(ring) { raised = true }
            }
            if raised {
                rings.roundAgain(holding: PositionSet(raisedPositions), precision: precision, control: control)
                try control.checkCancellation()
                continue
            }
            // Every offender already carries all the decimals there are: the
            // rings meet before rounding. Where that is because their chords
            // stray from their plane segments, those are cut closer; only
            // what cutting cannot mend gives up holes (before exteriors).
            if cutCloser(bad, of: checkRings, refs: refs, original: original, precision: &precision, control: control) {
                polygons = original.map(precision.cutChords)
                rings = FeatureRings(polygons)
                rings.round(precision: precision, control: control)
                try control.checkCancellation()
                box = sourceBox(rings.bounds, precision: precision)
                before = nil
                continue
            }
            let holes = bad.map { refs[$0] }.filter { $0.ring > 0 }
            if holes.isEmpty { return (out, dropped, box, LastRound(refs: refs, bad: bad)) }
            dropped.formUnion(holes)
            // Holes given up: the next round is checked whole.
            before = nil
        }
    }

    /// A box that holds every position before rounding, from `bounds` of
    /// the positions rounded with `precision` (at its limit's decimals):
    /// rounding moves none by more than half a unit of the base decimals,
    /// so a whole unit round them is room enough. Empty when `bounds` is.
    private static func sourceBox(_ bounds: FixedBox, precision: VertexPrecision) -> PlaneBox {
        guard bounds.minX <= bounds.maxX else { return .empty }
        let unit = FixedRing.value(1, precision.base)
        return PlaneBox(
            minX: FixedRing.value(bounds.minX, precision.limit) - unit,
            minY: FixedRing.value(bounds.minY, precision.limit) - unit,
            maxX: FixedRing.value(bounds.maxX, precision.limit) + unit,
            maxY: FixedRing.value(bounds.maxY, precision.limit) + unit)
    }

    /// Cuts the chords of the offending rings' segments that meet a fault
    /// (``RingContactCheck/offenders(_:control:contacts:)``) one depth
    /// closer to their plane images, each new point at every decimal like
    /// the rest of its ring; whether any was cut. `checkRings` and `refs`
    /// are the round's rings, `original` the feature's polygons uncut.
    /// O(the offending rings' segments × faults).
    private static func cutCloser(
        _ bad: Set<Int>, of checkRings: [RingContactCheck.Ring], refs: [RingRef], original: [PlanePolygon],
        precision: inout VertexPrecision, control: ComputeControl
    ) -> Bool {
        guard precision.chords.projection != nil else { return false }
        let offending = bad.sorted()
        var contacts: [FixedBox] = []
        _ = RingContactCheck.offenders(offending.map { checkRings[$0] }, control: control, contacts: &contacts)
        guard !contacts.isEmpty else { return false }
        // The faults in output coordinates, a little wider than the rounded
        // segments that hold them.
        let limit = precision.limit, margin = 4 / FixedRing.scale(limit)
        let faults = contacts.map { c in
            PlaneBox(
                minX: FixedRing.value(c.minX, limit) - margin, minY: FixedRing.value(c.minY, limit) - margin,
                maxX: FixedRing.value(c.maxX, limit) + margin, maxY: FixedRing.value(c.maxY, limit) + margin)
        }
        var all = PlaneBox.empty
        for f in faults { all.formUnion(f) }
        var cut = false
        for k in offending {
            let ref = refs[k]
            let polygon = original[ref.polygon]
            let ring = ref.ring == 0 ? polygon.exterior : polygon.holes[ref.ring - 1]
            for i in ring.indices {
                let a = ring[i], b = ring[i + 1 == ring.count ? 0 : i + 1]
                guard precision.chords.canCut(a, b) else { continue }
                // The segment as it runs now: its ends and its cut points.
                var box = PlaneBox.empty
                box.formUnion(a)
                box.formUnion(b)
                for p in precision.chords.points(from: a, to: b, depth: precision.chords.depth(a, b)) {
                    box.formUnion(p)
                }
                guard all.intersects(box), faults.contains(where: { $0.intersects(box) }) else { continue }
                if precision.cutChord(a, b) { cut = true }
            }
        }
        return cut
    }

    /// The rings of a feature's polygons and their rounding, held flat
    /// (ring `first[p] + r` is ring r of polygon p), for rounding again
    /// only the rings a repair concerns.
    private struct FeatureRings {
        let polygons: [PlanePolygon]
        private var first: [Int] = []
        private var fixed: [FixedRing?] = []
        /// Where the positions lie as ``round(precision:control:)`` rounded
        /// them (a later ``roundAgain(holding:precision:control:)`` moves
        /// none by more than a unit of the base decimals).
        private(set) var bounds = FixedBox.empty

        init(_ polygons: [PlanePolygon]) {
            self.polygons = polygons
            first.reserveCapacity(polygons.count + 1)
            var n = 0
            for p in polygons {
                first.append(n)
                n += 1 + p.holes.count
            }
            first.append(n)
        }

        /// The positions of a ring before rounding.
        func source(_ ref: RingRef) -> [PlanePoint] {
            ref.ring == 0 ? polygons[ref.polygon].exterior : polygons[ref.polygon].holes[ref.ring - 1]
        }

        /// Rounds every ring (exteriors counter-clockwise, holes clockwise),
        /// and finds ``bounds``. A cancelled `control` cuts it short (the
        /// caller throws).
        mutating func round(precision: VertexPrecision, control: ComputeControl) {
            fixed = []
            fixed.reserveCapacity(first[polygons.count])
            bounds = .empty
            for polygon in polygons {
                if control.isCancelled { return }
                fixed.append(
                    FixedRing.rounded(polygon.exterior, precision: precision, counterClockwise: true, bounds: &bounds))
                for h in polygon.holes {
                    fixed.append(FixedRing.rounded(h, precision: precision, counterClockwise: false, bounds: &bounds))
                }
            }
        }

        /// Rounds again the rings that hold a position of `moved`; the
        /// others keep their rounding (the very same arrays, which a
        /// comparison of the rounds then passes over at once).
        mutating func roundAgain(holding moved: PositionSet, precision: VertexPrecision, control: ComputeControl) {
            for (pi, polygon) in polygons.enumerated() {
                if control.isCancelled { return }
                if moved.meets(polygon.exterior) {
                    fixed[first[pi]] = FixedRing.rounded(polygon.exterior, precision: precision, counterClockwise: true)
                }
                for (hi, h) in polygon.holes.enumerated() where moved.meets(h) {
                    fixed[first[pi] + 1 + hi] = FixedRing.rounded(h, precision: precision, counterClockwise: false)
                }
            }
        }

        /// The rounded polygons, leaving out the holes in `dropped` and the
        /// rings that collapsed (a polygon whose exterior collapsed
        /// altogether), with the [polygon, ring] of each ring kept.
        func polygons(leavingOut dropped: Set<RingRef>) -> (out: [Polygon], refs: [RingRef]) {
            var out: [Polygon] = []
            var refs: [RingRef] = []
            out.reserveCapacity(polygons.count)
            refs.reserveCapacity(fixed.count)
            for pi in polygons.indices {
                guard let exterior = fixed[first[pi]] else { continue }
                let holes = first[pi + 1] - first[pi] - 1
                if holes == 0 {
                    out.append([exterior])
                    refs.append(RingRef(polygon: pi, ring: 0))
                    continue
                }
                var rings: Polygon = []
                rings.reserveCapacity(holes + 1)
                rings.append(exterior)
                refs.append(RingRef(polygon: pi, ring: 0))
                for hi in 0..<holes {
                    let ref = RingRef(polygon: pi, ring: hi + 1)
                    guard dropped.isEmpty || !dropped.contains(ref), let h = fixed[first[pi] + 1 + hi] else { continue }
                    rings.append(h)
                    refs.append(ref)
                }
                out.append(rings)
            }
            return (out, refs)
        }
    }

    /// The rings of `polygons` rounded with `precision` and oriented
    /// (exteriors counter-clockwise, holes clockwise), leaving out the
    /// holes in `dropped` and the rings that collapse: what ``repaired(_:precision:control:checkingAll:)``
    /// returns once `precision` holds its repairs, without checking again.
    /// Each polygon is let go of once rounded. O(n).
    package static func rounded(
        _ polygons: consuming [PlanePolygon], precision: VertexPrecision,
        dropped: Set<RingRef> = []
    ) -> [Polygon] {
        var out: [Polygon] = []
        out.reserveCapacity(polygons.count)
        for pi in polygons.indices {
            let polygon = precision.cutChords(polygons[pi])
            polygons[pi] = PlanePolygon(exterior: [])
            guard let exterior = FixedRing.rounded(polygon.exterior, precision: precision, counterClockwise: true)
            else { continue }
            var rings: Polygon = []
            rings.reserveCapacity(polygon.holes.count + 1)
            rings.append(exterior)
            for (hi, hole) in polygon.holes.enumerated()
            where dropped.isEmpty || !dropped.contains(RingRef(polygon: pi, ring: hi + 1)) {
                guard let h = FixedRing.rounded(hole, precision: precision, counterClockwise: false) else { continue }
                rings.append(h)
            }
            out.append(rings)
        }
        return out
    }

    /// What writing one feature needs once its rounding is settled: the
    /// holes given up, and where its exteriors lie (for the collection's
    /// bbox, which comes before any feature).
    struct FeaturePlan {
        var dropped: Set<RingRef> = []
        var extent = GeoJSONDocument.Extent()
        /// Positions of its rounded rings (the work of making them again).
        var positions = 0
        /// A box round all its positions before rounding (a unit of the
        /// base decimals wider): a position outside it cannot be one of them.
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
    /// A feature rounded again is checked first only where positions it
    /// holds were raised since its last round (``SinceLastRound``), unless
    /// `checkingAll` (the same answer, for tests). `roundedAgain(f, rings)`,
    /// when given, is handed the rings of each feature a round after the
    /// first rounds again, from several threads at once: the rings its
    /// plan stands for until a later round rounds it again, for a writer
    /// that would rather keep them than make them again.
    /// O(rounds × vertices); memory O(one pass's features in flight, and
    /// each feature's ring refs).
    static func planFeatures(
        count: Int, pieces: (Int) throws -> [PlanePolygon], precision: inout VertexPrecision,
        control: ComputeControl = .none, firstRound: [FeatureRound]? = nil,
        checkingAll: Bool = false, mayShare: (Int, Int) -> Bool = { _, _ in true },
        roundedAgain: ((Int, [Polygon]) -> Void)? = nil
    ) throws -> [FeaturePlan] {
        var plans = [FeaturePlan](repeating: FeaturePlan(), count: count)
        // How each feature's last rounding ended, for checking it again
        // only where positions it holds were raised since.
        var lasts = [LastRound?](repeating: nil, count: count)
        var todo = Array(0..<count)
        var known = firstRound
        var isFirstRound = true
        var moved = PositionSet([])
        var setters: [PlanePoint: Int] = [:]  // changed position → the feature whose raise won
        while !todo.isEmpty {
            let start = precision.shared
            let round = todo
            let lastMoved = moved, lastSetters = setters
            let results: [FeatureRound?] =
                try known
                ?? inParallel(round.count, control: control) { k in
                    let f = round[k]
                    guard let last = lasts[f] else {
                        return try Self.round({ try pieces(f) }, from: start, control: control).round
                    }
                    // A feature's own raises are in `start` as they were
                    // in its last round: only those another feature set
                    // can have moved. A feature holding none is left as
                    // its last round made it.
                    let since = SinceLastRound(last: last) { p in
                        lastMoved.contains(p) && lastSetters[p] != f
                    }
                    let polygons = try pieces(f)
                    guard polygons.contains(where: { since.holdsMoved($0) }) else { return nil }
                    let (rings, round) = try Self.round(
                        { polygons }, from: start, since: checkingAll ? nil : since, control: control)
                    roundedAgain?(f, rings)
                    return round
                }
            known = nil
            var changed: [PlanePoint] = []
            setters = [:]
            for (k, r) in results.enumerated() {
                guard let r else { continue }
                let f = round[k]
                plans[f] = r.plan
                plans[f].isFirstRound = isFirstRound
                lasts[f] = r.last
                guard let local = r.raised else { continue }
                for p in precision.merge(local) {
                    if setters[p] == nil { changed.append(p) }
                    setters[p] = f
                }
            }
            isFirstRound = false
            guard !changed.isEmpty else { break }
            moved = PositionSet(changed)
            todo = candidates(of: changed, setters: setters, plans: plans, mayShare: mayShare)
        }
        return plans
    }

    /// One feature rounded in one round of ``planFeatures(count:pieces:precision:control:firstRound:mayShare:)``:
    /// its plan, and the precision with its raises (nil when it raised none).
    struct FeatureRound {
        var plan: FeaturePlan
        var raised: VertexPrecision?
        /// How its rounding ended (for a later round's check).
        var last: LastRound?
    }

    /// The polygons `pieces()` makes, rounded and repaired from `start`
    /// (``repaired(_:precision:control:checkingAll:)``): the rings, and what a round of
    /// planning keeps of them.
    /// - Throws: `CancellationError` when `control` is cancelled, and what
    ///   `pieces` throws.
    static func round(
        _ pieces: () throws -> [PlanePolygon], from start: VertexPrecision,
        since previous: SinceLastRound? = nil, control: ComputeControl = .none
    ) throws -> (polygons: [Polygon], round: FeatureRound) {
        var local = start
        let (rounded, dropped, box, last) = try repaired(
            pieces, precision: &local, control: control, previous: previous)
        var plan = FeaturePlan(dropped: dropped, box: box)
        for polygon in rounded {
            if let exterior = polygon.first { plan.extent.add(exterior) }
            for ring in polygon { plan.positions += ring.points.count }
        }
        return (rounded, FeatureRound(plan: plan, raised: local.hasLocalRaises ? local : nil, last: last))
    }

    /// The features that may hold a changed position at decimals other
    /// than the ones they were rounded with: those that may share positions
    /// with the feature that set it, whose box holds it. The next round
    /// reads their positions and leaves those that hold none as they were.
    /// O(features × changed positions in the boxes that meet).
    private static func candidates(
        of changed: [PlanePoint], setters: [PlanePoint: Int], plans: [FeaturePlan],
        mayShare: (Int, Int) -> Bool
    ) -> [Int] {
        // The changed positions by the feature that set them, with their box:
        // a feature is tested against a setter's positions only where the
        // boxes meet, not against every position (many, when close levels
        // need repairs everywhere).
        var bySetter: [Int: [PlanePoint]] = [:]
        for p in changed { bySetter[setters[p]!, default: []].append(p) }
        let groups = bySetter.keys.sorted().map { setter in
            var box = PlaneBox.empty
            for p in bySetter[setter]! { box.formUnion(p) }
            return (setter: setter, points: bySetter[setter]!, box: box)
        }
        return plans.indices.filter { f in
            groups.contains { g in
                g.setter != f && mayShare(f, g.setter) && plans[f].box.intersects(g.box)
                    && g.points.contains { plans[f].box.contains($0) }
            }
        }
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
