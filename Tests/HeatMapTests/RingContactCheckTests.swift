import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The contact check against its former self (``ReferenceContactCheck``)
/// over generated rings full of what it must find: crossings, touches at
/// vertices and inside edges, shared edges, folds, spikes, repeated
/// positions, holes in and out of their exteriors, near misses.
@Suite struct RingContactCheckTests {
    private typealias Ring = RingContactCheck.Ring

    /// Compares both checks on every case, the fast one also with strips
    /// of a few segments (so that rings cross many strips and most contacts
    /// lie at strip edges); returns how many had offenders, so that a
    /// generator can be seen to make both kinds.
    private func compare(_ cases: [[Ring]], _ label: String, strips: [Int] = [3, 40]) -> Int {
        var faulty = 0
        for (k, rings) in cases.enumerated() {
            let want = ReferenceContactCheck.offenders(rings)
            let got = RingContactCheck.offenders(rings)
            #expect(got == want, "\(label) case \(k): \(got.sorted()) != \(want.sorted())")
            for strip in strips {
                let tiled = RingContactCheck.offenders(rings, stripBoxes: strip)
                #expect(tiled == want, "\(label) case \(k), strips of \(strip): \(tiled.sorted()) != \(want.sorted())")
            }
            if !want.isEmpty { faulty += 1 }
        }
        return faulty
    }

    /// A wobbly circle on the lattice after scaling by `scale`, counter-
    /// clockwise (or clockwise), cleaned as rounding cleans it when `clean`.
    private func circle(
        _ rng: inout SplitMix, cx: Double, cy: Double, r: Double, n: Int, wobble: Double,
        scale: Double, clockwise: Bool = false, clean: Bool = true
    ) -> [FixedPoint] {
        var pts = (0..<n).map { k -> FixedPoint in
            let t = 2 * Double.pi * Double(k) / Double(n)
            let rr = r * (1 + wobble * (rng.unit() - 0.5))
            return FixedPoint(
                x: Int64(((cx + rr * cos(t)) * scale).rounded()),
                y: Int64(((cy + rr * sin(t)) * scale).rounded()))
        }
        if clockwise { pts.reverse() }
        return clean ? FixedRing.clean(pts) : pts
    }

    /// Few vertices on a tiny lattice: rings that cross, touch, overlap,
    /// repeat positions and turn back all the time, in one to three polygons.
    @Test(arguments: [1, 2, 3, 4]) func scribblesOnATinyLattice(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var cases: [[Ring]] = []
        for _ in 0..<1500 {
            let ringCount = 1 + Int(rng.next() % 4), side = 3 + rng.next() % 30
            var rings: [Ring] = []
            for r in 0..<ringCount {
                let n = 1 + Int(rng.next() % 9)
                var points: [FixedPoint]
                if rng.next() % 3 == 0 {
                    points = (0..<n).map { _ in FixedPoint(x: Int64(rng.next() % side), y: Int64(rng.next() % side)) }
                } else {
                    // A star around a centre, a vertex per sector: simple unless the lattice pinches it.
                    let cx = Double(rng.next() % side), cy = Double(rng.next() % side)
                    points = (0..<(n + 2)).map { k in
                        let t = 2 * Double.pi * (Double(k) + rng.unit()) / Double(n + 2),
                            d = rng.uniform(1, Double(side) / 2)
                        return FixedPoint(x: Int64((cx + d * cos(t)).rounded()), y: Int64((cy + d * sin(t)).rounded()))
                    }
                    if r > 0, rng.next() % 2 == 0 { points.reverse() }
                }
                rings.append(Ring(points: points, polygon: r == 0 ? 0 : Int(rng.next() % 3)))
            }
            cases.append(rings)
        }
        let faulty = compare(cases, "scribbles \(seed)")
        #expect(faulty > 100 && faulty < cases.count - 100)
    }

    /// Contour-like rings: long wobbly circles rounded to a coarse lattice,
    /// with holes, neighbours and islands placed to nearly touch, touch or
    /// cross — most cells of the grid then hold one run of one ring.
    @Test(arguments: [1, 2, 3]) func roundedCirclesThatNearlyMeet(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var cases: [[Ring]] = []
        for _ in 0..<120 {
            let scale = [4.0, 10, 30, 100][Int(rng.next() % 4)]
            let n = 40 + Int(rng.next() % 600), wobble = [0.0, 0.01, 0.05, 0.3][Int(rng.next() % 4)]
            let clean = rng.next() % 4 != 0
            var rings = [
                Ring(
                    points: circle(
                        &rng, cx: 0, cy: 0, r: 10, n: n, wobble: wobble, scale: scale,
                        clean: clean), polygon: 0)
            ]
            // Holes near the exterior's edge and near one another.
            for _ in 0..<Int(rng.next() % 4) {
                let r = rng.uniform(0.5, 4), d = rng.uniform(0, 10 - r + 0.3), t = rng.uniform(0, 2 * .pi)
                rings.append(
                    Ring(
                        points: circle(
                            &rng, cx: d * cos(t), cy: d * sin(t), r: r, n: 8 + Int(rng.next() % 200),
                            wobble: wobble, scale: scale, clockwise: true, clean: clean), polygon: 0))
            }
            // Other polygons beside it, just apart or just over.
            for p in 1..<(1 + Int(rng.next() % 3)) {
                let r = rng.uniform(1, 8), t = rng.uniform(0, 2 * .pi), d = 10 + r + rng.uniform(-0.3, 0.3)
                rings.append(
                    Ring(
                        points: circle(
                            &rng, cx: d * cos(t), cy: d * sin(t), r: r, n: 8 + Int(rng.next() % 300),
                            wobble: wobble, scale: scale, clean: clean), polygon: p))
            }
            cases.append(rings.filter { !$0.points.isEmpty })
        }
        let faulty = compare(cases, "circles \(seed)")
        #expect(faulty > 10 && faulty < cases.count - 10)
    }

    /// Rings that fold back on themselves: thin fingers whose two sides lie
    /// a lattice step or two apart (or on each other), spikes, and a ring
    /// drawn twice over; plus a long straight edge across everything, so
    /// that long boxes meet runs.
    @Test(arguments: [1, 2, 3]) func foldsFingersAndLongEdges(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var cases: [[Ring]] = []
        for _ in 0..<150 {
            var points: [FixedPoint] = []
            let fingers = 2 + Int(rng.next() % 6), length = Int64(20 + rng.next() % 200)
            var x: Int64 = 0
            for _ in 0..<fingers {
                let width = rng.next() % 8 == 0 ? 0 : Int64(1 + rng.next() % 4), steps = 2 + Int(rng.next() % 30)
                let jitter = rng.next() % 6 == 0
                // Up one side in small steps, down the other.
                for s in 0...steps {
                    let dx = jitter ? Int64(rng.next() % 2) : 0
                    points.append(FixedPoint(x: x + dx, y: length * Int64(s) / Int64(steps)))
                }
                for s in stride(from: steps, through: 0, by: -1) {
                    let dx = jitter ? Int64(rng.next() % 2) : 0
                    points.append(FixedPoint(x: x + width + dx, y: length * Int64(s) / Int64(steps)))
                }
                x += width + 1 + Int64(rng.next() % 3)
            }
            points.append(FixedPoint(x: x, y: -5))
            points.append(FixedPoint(x: 0, y: -5))
            if rng.next() % 10 == 0 { points += points }
            var rings = [Ring(points: rng.next() % 2 == 0 ? FixedRing.clean(points) : points, polygon: 0)]
            if rng.next() % 2 == 0 {
                let y = Int64(rng.next() % UInt64(length))
                rings.append(
                    Ring(
                        points: [
                            FixedPoint(x: -50, y: y), FixedPoint(x: x + 50, y: y + Int64(rng.next() % 3)),
                            FixedPoint(x: x + 50, y: y + 9), FixedPoint(x: -50, y: y + 9)
                        ],
                        polygon: Int(rng.next() % 2)))
            }
            cases.append(rings.filter { !$0.points.isEmpty })
        }
        let faulty = compare(cases, "folds \(seed)")
        #expect(faulty > 10 && faulty < cases.count - 10)
    }

    /// Long valid rings (many thousands of vertices, mostly monotone runs)
    /// next to one another, and the same with a few vertices moved onto a
    /// neighbour: the check must find the few faults the skipped cells
    /// could hide.
    @Test func longRingsWithAFewFaults() {
        var rng = SplitMix(seed: 11)
        var cases: [[Ring]] = []
        for trial in 0..<12 {
            let scale = 1000.0
            var rings = [
                Ring(points: circle(&rng, cx: 0, cy: 0, r: 10, n: 6000, wobble: 0.002, scale: scale), polygon: 0),
                Ring(
                    points: circle(
                        &rng, cx: 0, cy: 0, r: 9.9, n: 6000, wobble: 0.002, scale: scale,
                        clockwise: true), polygon: 0),
                Ring(points: circle(&rng, cx: 20.05, cy: 0, r: 10, n: 5000, wobble: 0.002, scale: scale), polygon: 1)
            ]
            for _ in 0..<(trial % 4) {
                // Move a vertex of one ring onto a vertex or an edge of another, or across itself.
                let from = Int(rng.next() % 3), to = Int(rng.next() % 3)
                let i = Int(rng.next() % UInt64(rings[from].points.count)),
                    j = Int(rng.next() % UInt64(rings[to].points.count))
                let a = rings[to].points[j], b = rings[to].points[(j + 1) % rings[to].points.count]
                rings[from].points[i] = rng.next() % 2 == 0 ? a : FixedPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            }
            cases.append(rings)
        }
        _ = compare(cases, "long rings")
        #expect(RingContactCheck.offenders(cases[0]).isEmpty)
    }

    /// Many holes in one exterior (more than a couple, and one or two), set
    /// inside, outside, across, and with their first positions on the
    /// exterior's vertices or edges, so that a hole's side is decided by a
    /// later position: the holes located together must agree with the check
    /// that locates them one by one.
    @Test(arguments: [1, 2, 3]) func manyHolesLocatedTogether(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var cases: [[Ring]] = []
        for _ in 0..<80 {
            let scale = [3.0, 10, 50][Int(rng.next() % 3)]
            let exterior = circle(
                &rng, cx: 0, cy: 0, r: 10, n: 30 + Int(rng.next() % 400), wobble: [0.0, 0.05, 0.4][Int(rng.next() % 3)],
                scale: scale)
            guard exterior.count >= 3 else { continue }
            var rings = [Ring(points: exterior, polygon: 0)]
            for _ in 0..<Int(rng.next() % 9) {
                let r = rng.uniform(0.2, 2), d = rng.uniform(0, 12), t = rng.uniform(0, 2 * .pi)
                var hole = circle(
                    &rng, cx: d * cos(t), cy: d * sin(t), r: r, n: 4 + Int(rng.next() % 30), wobble: 0.1,
                    scale: scale, clockwise: true)
                guard !hole.isEmpty else { continue }
                switch rng.next() % 4 {
                case 0:
                    // Start on a vertex of the exterior.
                    hole[0] = exterior[Int(rng.next() % UInt64(exterior.count))]
                case 1:
                    // Start inside an edge of the exterior (on it where the midpoint is a lattice point).
                    let k = Int(rng.next() % UInt64(exterior.count))
                    let a = exterior[k], b = exterior[(k + 1) % exterior.count]
                    hole[0] = FixedPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                default: break
                }
                rings.append(Ring(points: hole, polygon: 0))
            }
            cases.append(rings)
        }
        let faulty = compare(cases, "holes \(seed)")
        #expect(faulty > 5 && faulty < cases.count - 5)
    }

    /// The holes' positions located in one pass over a ring's edges agree
    /// with locating them one by one: points on vertices, inside edges
    /// (horizontal ones too), on the level of vertices, inside and out.
    @Test func pointsLocatedTogetherAgreeWithOneByOne() {
        var rng = SplitMix(seed: 5)
        for trial in 0..<200 {
            let n = 3 + Int(rng.next() % 60), side = Int64(4 + rng.next() % 40)
            var ring = (0..<n).map { _ in
                FixedPoint(x: Int64(rng.next() % UInt64(side)), y: Int64(rng.next() % UInt64(side)))
            }
            if trial % 3 == 0 {
                // Steps: many horizontal edges.
                ring =
                    (0..<n).flatMap { k -> [FixedPoint] in
                        let x = Int64(k), y = Int64(rng.next() % UInt64(side))
                        return [FixedPoint(x: x, y: y), FixedPoint(x: x + 1, y: y)]
                    } + [FixedPoint(x: Int64(n) + 1, y: -1), FixedPoint(x: 0, y: -1)]
            }
            var points = (0..<Int(rng.next() % 40)).map { _ in
                FixedPoint(x: Int64(rng.next() % UInt64(side + 4)) - 2, y: Int64(rng.next() % UInt64(side + 4)) - 2)
            }
            for _ in 0..<Int(rng.next() % 6) where !ring.isEmpty {
                let k = Int(rng.next() % UInt64(ring.count))
                let a = ring[k], b = ring[(k + 1) % ring.count]
                points.append(rng.next() % 2 == 0 ? a : FixedPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
            }
            let together = RingContactCheck.locate(points, in: ring)
            let alone = points.map { RingContactCheck.locate($0, in: ring) }
            #expect(together == alone, "trial \(trial)")
            // The one-point test passes over edges wholly above or below the
            // point: it must agree with every edge tested.
            let everyEdge = points.map { p -> Int in
                guard ring.count >= 3 else { return -1 }
                var inside = false
                for i in ring.indices {
                    guard let toggles = StripIndex.crossing(p, ring[i], ring[(i + 1) % ring.count]) else { return 0 }
                    if toggles { inside.toggle() }
                }
                return inside ? 1 : -1
            }
            #expect(alone == everyEdge, "trial \(trial)")
        }
        #expect(RingContactCheck.locate([], in: [FixedPoint(x: 0, y: 0)]).isEmpty)
    }

    /// Rings as rounding makes them: smooth plane rings of doubles, some
    /// pairs less than a lattice step apart (which rounding can make touch
    /// or cross) and some a step or more apart (which it cannot), with
    /// zigzags whose runs break every few segments, rounded to the lattice
    /// as the export rounds (half away from zero) and cleaned.
    @Test(arguments: [1, 2, 3, 4]) func roundingMakesOrSparesTouches(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        var cases: [[Ring]] = []
        func rounded(_ pts: [(Double, Double)]) -> [FixedPoint] {
            FixedRing.clean(pts.map { FixedPoint(x: Int64($0.0.rounded()), y: Int64($0.1.rounded())) })
        }
        for _ in 0..<100 {
            // A band between two wavy closed curves r = R(t) and r = R(t) − gap,
            // the gap in lattice steps: under 1 (may touch) or 1.5 and more (never).
            let big = rng.uniform(60, 400), gap = rng.next() % 2 == 0 ? rng.uniform(0.05, 0.99) : rng.uniform(1.5, 3)
            let n = 200 + Int(rng.next() % 1500), waves = Double(rng.next() % 12), zigzag = rng.uniform(0, 1.5)
            let amplitude = rng.uniform(0, 0.2) * big, phase = rng.uniform(0, 2 * .pi)
            func curve(_ offset: Double, clockwise: Bool) -> [(Double, Double)] {
                var pts = (0..<n).map { k -> (Double, Double) in
                    let t = 2 * Double.pi * Double(k) / Double(n)
                    let wiggle = (k % 2 == 0 ? 1 : -1) * zigzag
                    let r = big + amplitude * sin(waves * t + phase) - offset + wiggle
                    return (r * cos(t), r * sin(t))
                }
                if clockwise { pts.reverse() }
                return pts
            }
            let outer = rounded(curve(0, clockwise: false)), inner = rounded(curve(gap + 2 * zigzag, clockwise: true))
            guard outer.count >= 3, inner.count >= 3 else { continue }
            // The inner curve as a hole of the outer, or as a polygon of its own (reversed).
            cases.append(
                rng.next() % 2 == 0
                    ? [Ring(points: outer, polygon: 0), Ring(points: inner, polygon: 0)]
                    : [Ring(points: outer, polygon: 0), Ring(points: inner.reversed(), polygon: 1)])
        }
        let faulty = compare(cases, "rounded bands \(seed)")
        #expect(faulty > 5 && faulty < cases.count - 5)
    }
}
