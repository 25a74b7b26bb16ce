import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct GeoJSONRoundingTests {
    let planar = PlaneProjection(kind: .planar)

    func export(_ polygons: [PlanePolygon], precision: Int) throws -> String {
        let set = ContourSet(thresholds: [1], levels: [polygons], bands: [polygons], isolines: [[]])
        return try GeoJSONExport.contours(
            set, projection: planar, units: "u", options: GeoJSONOptions(precision: precision))
    }

    @Test func nearDuplicateVerticesAndTinyRingsDisappear() throws {
        let exterior = [
            PlanePoint(x: 0, y: 0), PlanePoint(x: 1e-9, y: 0), PlanePoint(x: 1, y: 0),
            PlanePoint(x: 1, y: 1), PlanePoint(x: 1 + 2e-8, y: 1 - 1e-8), PlanePoint(x: 0, y: 1)
        ]
        let tinyHole = Shapes.rectangle(0.5, 0.5, 0.5 + 1e-8, 0.5 + 1e-8, clockwise: true)
        let sliver = [PlanePoint(x: 3, y: 3), PlanePoint(x: 4, y: 3 + 1e-9), PlanePoint(x: 3.5, y: 3 + 3e-9)]
        let text = try export(
            [PlanePolygon(exterior: exterior, holes: [tinyHole]), PlanePolygon(exterior: sliver)], precision: 6)
        let polygons = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0])
        #expect(polygons.count == 1)
        #expect(polygons[0] == [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]])
    }

    @Test func spikesAreRemoved() throws {
        // A spike of 4e-7 out and back rounds to a zero-width spike at 6 decimals.
        let exterior = [
            PlanePoint(x: 0, y: 0), PlanePoint(x: 1, y: 0), PlanePoint(x: 1, y: 0.5),
            PlanePoint(x: 1.0000004, y: 0.5000001), PlanePoint(x: 1, y: 0.5000002), PlanePoint(x: 1, y: 1),
            PlanePoint(x: 0, y: 1)
        ]
        let text = try export([PlanePolygon(exterior: exterior)], precision: 6)
        #expect(try GeoJSONRead.allProblems(text, geographic: false).isEmpty)
    }

    @Test func ringsThatRoundingWouldCrossKeepMoreDecimals() throws {
        // The exterior's notch tip (0.00152, 0.5) is just left of the hole's
        // slanted edge; at 3 decimals the tip rounds to x = 0.002 while the
        // edge moves to x = 0.0015 there: they would cross.
        let exterior = [
            PlanePoint(x: 0, y: 0), PlanePoint(x: 1, y: 0), PlanePoint(x: 1, y: 1), PlanePoint(x: 0, y: 1),
            PlanePoint(x: 0, y: 0.6), PlanePoint(x: 0.00152, y: 0.5), PlanePoint(x: 0, y: 0.4)
        ]
        let hole = [PlanePoint(x: 0.00149, y: 0.4), PlanePoint(x: 0.00249, y: 0.6), PlanePoint(x: 0.3, y: 0.5)]
        let polygon = PlanePolygon(exterior: exterior, holes: [hole])
        // Plain rounding would be invalid (the test can fail):
        let naive = polygon.exterior.map { [($0.x * 1000).rounded() / 1000, ($0.y * 1000).rounded() / 1000] }
        let naiveHole = hole.reversed().map { [($0.x * 1000).rounded() / 1000, ($0.y * 1000).rounded() / 1000] }
        #expect(!GeoJSONRead.problems([naive + [naive[0]], naiveHole + [naiveHole[0]]]).isEmpty)

        let text = try export([polygon], precision: 3)
        #expect(try GeoJSONRead.allProblems(text, geographic: false).isEmpty)
        let rings = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0])[0]
        #expect(rings.count == 2)
        #expect(rings[0].contains([0.0015, 0.5]))  // one more decimal where needed
        #expect(text.contains("[0.0015,0.4]"))
    }

    @Test func ringsPinchedByRoundingKeepMoreDecimals() throws {
        // An hourglass whose waist vertices 0.0004 apart round to one point at 3 decimals.
        let exterior = [
            PlanePoint(x: 0, y: 0), PlanePoint(x: 1, y: 0), PlanePoint(x: 0.5002, y: 0.4998),
            PlanePoint(x: 1, y: 1), PlanePoint(x: 0, y: 1), PlanePoint(x: 0.4998, y: 0.5002)
        ]
        let text = try export([PlanePolygon(exterior: exterior)], precision: 3)
        #expect(try GeoJSONRead.allProblems(text, geographic: false).isEmpty)
        #expect(text.contains("[0.5002,0.4998]"))
    }

    @Test func neighbouringPolygonsThatRoundingWouldJoinStayApart() throws {
        // Two squares of one band 0.0003 apart: at 3 decimals they would share an edge.
        let a = PlanePolygon(exterior: Shapes.rectangle(0, 0, 1.0004, 1))
        let b = PlanePolygon(exterior: Shapes.rectangle(1.0007, 0, 2, 1))
        let text = try export([a, b], precision: 3)
        #expect(try GeoJSONRead.allProblems(text, geographic: false).isEmpty)
        let polygons = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0])
        let maxA = polygons[0][0].map { $0[0] }.max()!, minB = polygons[1][0].map { $0[0] }.min()!
        #expect(maxA < minB)
    }

    /// The polygons are made once, repairs or not (a round of repair
    /// rounds again only the rings it concerns), and the repaired rings are
    /// those of rounding the polygons again from the settled precision
    /// (with the same box).
    @Test func aRepairRoundsFromThePolygonsMadeOnce() throws {
        let a = PlanePolygon(exterior: Shapes.rectangle(0, 0, 1.0004, 1))
        // 0.00005 apart: one edge at 3 decimals until repaired.
        let b = PlanePolygon(exterior: Shapes.rectangle(1.00045, 0, 2, 1))
        let far = PlanePolygon(exterior: Shapes.rectangle(5, 0, 6, 1))
        for (polygons, repairs) in [([a, far], false), ([a, b], true), ([far, a, b], true)] {
            var calls = 0
            var precision = VertexPrecision(decimals: 3, limit: 12)
            let (out, dropped, box, _) = try PrecisionRounding.repaired(
                {
                    calls += 1; return polygons
                },
                precision: &precision)
            #expect(dropped.isEmpty)
            #expect(calls == 1)
            #expect(repairs ? !precision.local.isEmpty : precision.local.isEmpty)
            // The box holds every position, at most a unit of the base
            // decimals (0.001) wider.
            let exact = polygons.reduce(PlaneBox.empty) { b, p in
                p.exterior.reduce(b) {
                    var b = $0; b.formUnion($1); return b
                }
            }
            #expect(
                box.minX <= exact.minX && box.minY <= exact.minY && box.maxX >= exact.maxX && box.maxY >= exact.maxY)
            #expect(exact.minX - box.minX <= 0.0015 && box.maxX - exact.maxX <= 0.0015)
            #expect(exact.minY - box.minY <= 0.0015 && box.maxY - exact.maxY <= 0.0015)
            // The settled precision rounds the same rings from polygons held whole.
            let again = PrecisionRounding.rounded(polygons, precision: precision)
            #expect(out.map { $0.map(\.points) } == again.map { $0.map(\.points) })
            #expect(out.count == polygons.count)
        }
    }

    @Test func randomWigglyBandsStayValidAtLowPrecision() throws {
        // Rings with many vertices closer together than the rounding step.
        var rng = SplitMix(seed: 8)
        for trial in 0..<8 {
            func wiggly(_ r: Double, _ n: Int) -> [PlanePoint] {
                (0..<n).map { k in
                    let t = 2 * Double.pi * Double(k) / Double(n)
                    let rr = r * (1 + 0.02 * (rng.unit() - 0.5))
                    return PlanePoint(x: rr * cos(t), y: rr * sin(t))
                }
            }
            let outer = wiggly(1, 250), hole = wiggly(0.985, 250).reversed()
            let text = try export([PlanePolygon(exterior: outer, holes: [Array(hole)])], precision: 2 + trial % 3)
            let problems = try GeoJSONRead.allProblems(text, geographic: false)
            #expect(problems.isEmpty, "trial \(trial): \(problems.prefix(3))")
        }
    }

    @Test func aRepairRoundChecksOnlyWhatChangedWithTheSameAnswer() throws {
        // Many small wiggly rings packed closer than the rounding step,
        // some as holes: repairs take several rounds. Checking again only
        // what a round changed must settle exactly as checking all does.
        var rng = SplitMix(seed: 33)
        for trial in 0..<12 {
            func wiggly(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int) -> [PlanePoint] {
                (0..<n).map { k in
                    let t = 2 * Double.pi * Double(k) / Double(n)
                    let rr = r * (1 + 0.3 * (rng.unit() - 0.5))
                    return PlanePoint(x: cx + rr * cos(t), y: cy + rr * sin(t))
                }
            }
            var polygons: [PlanePolygon] = []
            for i in 0..<6 {
                for j in 0..<6 {
                    let cx = Double(i) * 0.021, cy = Double(j) * 0.021
                    let holes = (i + j + trial) % 3 == 0 ? [Array(wiggly(cx, cy, 0.004, 7).reversed())] : []
                    polygons.append(PlanePolygon(exterior: wiggly(cx, cy, 0.0102, 9 + (i * j) % 5), holes: holes))
                }
            }
            let decimals = 2 + trial % 3
            var all = VertexPrecision(decimals: decimals, limit: 12)
            var changed = all
            let full = try PrecisionRounding.repaired({ polygons }, precision: &all, checkingAll: true)
            let part = try PrecisionRounding.repaired({ polygons }, precision: &changed)
            #expect(full.polygons.map { $0.map(\.points) } == part.polygons.map { $0.map(\.points) }, "trial \(trial)")
            #expect(full.dropped == part.dropped)
            #expect(all.local == changed.local)
            // Positions raised twice: the repairs took more than one round.
            if trial == 0 { #expect((changed.local.values.max() ?? 0) > decimals + 1) }
        }
    }

    /// Bands that share their boundaries (a band's hole is the next band's
    /// exterior) packed closer than the rounding step: a feature's repairs
    /// raise positions its neighbours hold, so planning takes several
    /// rounds. Checking a feature again only where others raised its
    /// positions must settle exactly as checking all of it does.
    @Test func aLaterPlanningRoundChecksOnlyWhatOthersRaised() throws {
        var rng = SplitMix(seed: 51)
        for trial in 0..<10 {
            let features = Self.nestedBands(trial: trial, rng: &rng)
            let decimals = 2 + trial % 2
            var all = VertexPrecision(decimals: decimals, limit: 12)
            var part = all
            let full = try PrecisionRounding.planFeatures(
                count: 3, pieces: { features[$0] }, precision: &all, checkingAll: true)
            let since = try PrecisionRounding.planFeatures(count: 3, pieces: { features[$0] }, precision: &part)
            #expect(full.map(\.dropped) == since.map(\.dropped), "trial \(trial)")
            #expect(full.map(\.positions) == since.map(\.positions), "trial \(trial)")
            #expect(full.map(\.isFirstRound) == since.map(\.isFirstRound), "trial \(trial)")
            for feature in features {
                for polygon in feature {
                    for p in polygon.exterior + polygon.holes.joined() {
                        #expect(all.decimals(of: p) == part.decimals(of: p))
                    }
                }
            }
            // Repairs of one band reached its neighbours in some trials.
            if trial == 0 { #expect(full.contains { !$0.isFirstRound }) }
            // And the settled rounding is valid.
            let settled = part
            for (f, feature) in features.enumerated() {
                let rings = PrecisionRounding.rounded(feature, precision: settled, dropped: since[f].dropped)
                var check: [RingContactCheck.Ring] = []
                for (k, polygon) in rings.enumerated() {
                    for r in polygon { check.append(RingContactCheck.Ring(points: r.points, polygon: k)) }
                }
                #expect(RingContactCheck.offenders(check).isEmpty, "trial \(trial) feature \(f)")
            }
        }
    }

    /// Three features of bands around 5 × 5 spots, three nested wiggly
    /// levels each (a band's hole is the next band's exterior), packed
    /// closer than a rounding step of 2 or 3 decimals.
    static func nestedBands(trial: Int, rng: inout SplitMix) -> [[PlanePolygon]] {
        func wiggly(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int) -> [PlanePoint] {
            (0..<n).map { k in
                let t = 2 * Double.pi * Double(k) / Double(n)
                let rr = r * (1 + 0.25 * (rng.unit() - 0.5))
                return PlanePoint(x: cx + rr * cos(t), y: cy + rr * sin(t))
            }
        }
        var features: [[PlanePolygon]] = [[], [], []]
        for i in 0..<5 {
            for j in 0..<5 {
                let cx = Double(i) * 0.03 + 0.001 * rng.unit(), cy = Double(j) * 0.03
                let rings = [0.012, 0.008, 0.0045].map { wiggly(cx, cy, $0, 7 + (i + j + trial) % 6) }
                features[0].append(PlanePolygon(exterior: rings[0], holes: [rings[1].reversed()]))
                features[1].append(PlanePolygon(exterior: rings[1], holes: [rings[2].reversed()]))
                features[2].append(PlanePolygon(exterior: rings[2]))
            }
        }
        return features
    }

    /// The rings planning hands out for a feature it rounds again are the
    /// ones the settled precision makes of it (unless a later round rounds
    /// it again): a writer may keep them instead of making them again.
    @Test func ringsRoundedAgainAreTheSettledOnes() throws {
        var rng = SplitMix(seed: 51)
        var sawLaterRound = false
        for trial in 0..<10 {
            let features = Self.nestedBands(trial: trial, rng: &rng)
            var precision = VertexPrecision(decimals: 2 + trial % 2, limit: 12)
            let handed = Mutex([Int: [PrecisionRounding.Polygon]]())
            let plans = try PrecisionRounding.planFeatures(
                count: 3, pieces: { features[$0] }, precision: &precision,
                roundedAgain: { f, rings in handed.withLock { $0[f] = rings } })
            let last = handed.withLock { $0 }
            for f in features.indices {
                #expect(plans[f].isFirstRound == (last[f] == nil), "trial \(trial) feature \(f)")
                guard let rings = last[f] else { continue }
                sawLaterRound = true
                let settled = PrecisionRounding.rounded(features[f], precision: precision, dropped: plans[f].dropped)
                #expect(rings.map { $0.map(\.points) } == settled.map { $0.map(\.points) }, "trial \(trial)")
                #expect(rings.map { $0.map(\.decimals) } == settled.map { $0.map(\.decimals) }, "trial \(trial)")
            }
        }
        #expect(sawLaterRound)
    }

    /// A round kept by its refs alone (no positions) is checked again where
    /// the caller says rings moved: a ring moved onto another is found, as
    /// the whole check finds it; rings said not to move are taken as they
    /// were.
    @Test func aRoundKeptWithoutPositionsChecksTheRingsSaidToMove() {
        func square(_ x: Int64, _ y: Int64, _ side: Int64) -> [FixedPoint] {
            [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map { FixedPoint(x: $0.0, y: $0.1) }
        }
        // Ten squares in a row, 10 apart; ring 1 then moves onto ring 0's edge.
        var rings = (0..<10).map { RingContactCheck.Ring(points: square(Int64($0) * 20, 0, 10), polygon: $0) }
        let refs = (0..<10).map { PrecisionRounding.RingRef(polygon: $0, ring: 0) }
        let before = RepairRound(refs: refs, bad: [])
        rings[1].points = square(5, 2, 10)
        let whole = RingContactCheck.offenders(rings)
        #expect(whole == [0, 1])
        let said = RepairRound.offenders(rings, refs: refs, changedSince: before, moved: { $0 == 1 }, control: .none)
        #expect(said == whole)
        // Said not to have moved, nothing is checked again.
        #expect(
            RepairRound.offenders(rings, refs: refs, changedSince: before, moved: { _ in false }, control: .none) == [])
        // A ring the round before left at fault is checked again anyway.
        let faulty = RepairRound(refs: refs, bad: [0])
        #expect(
            RepairRound.offenders(rings, refs: refs, changedSince: faulty, moved: { _ in false }, control: .none)
                == whole)
    }

    @Test func theContactCheckFindsWhatItShould() {
        func ring(_ pts: [(Int64, Int64)], _ polygon: Int = 0) -> RingContactCheck.Ring {
            RingContactCheck.Ring(points: pts.map { FixedPoint(x: $0.0, y: $0.1) }, polygon: polygon)
        }
        let square = ring([(0, 0), (10, 0), (10, 10), (0, 10)])
        #expect(RingContactCheck.offenders([square]).isEmpty)
        // A bow tie crosses itself.
        #expect(RingContactCheck.offenders([ring([(0, 0), (10, 10), (10, 0), (0, 10)])]) == [0])
        // A hole touching the exterior at a shared vertex once is fine, twice is not.
        let squareWithVertex = ring([(0, 0), (10, 0), (10, 10), (5, 10), (0, 10), (0, 5)])
        let touchOnce = ring([(0, 5), (5, 8), (5, 2)], 0)
        #expect(RingContactCheck.offenders([squareWithVertex, touchOnce]).isEmpty)
        let touchTwice = ring([(0, 5), (5, 10), (5, 2)], 0)
        #expect(RingContactCheck.offenders([squareWithVertex, touchTwice]) == [0, 1])
        // A vertex exactly inside another ring's edge is not a safe touch once read as doubles.
        #expect(RingContactCheck.offenders([square, touchOnce]) == [0, 1])
        // A hole crossing the exterior through a vertex.
        let crossing = ring([(10, 5), (12, 8), (5, 5)], 0)
        #expect(RingContactCheck.offenders([square, crossing]) == [0, 1])
        // Two polygons of a MultiPolygon may touch at points, not share an edge.
        let neighbour = ring([(10, 10), (20, 10), (20, 20)], 1)
        #expect(RingContactCheck.offenders([square, neighbour]).isEmpty)
        let sharing = ring([(10, 2), (20, 2), (20, 8), (10, 8)], 1)
        #expect(RingContactCheck.offenders([square, sharing]) == [0, 1])
        // A hole outside its exterior, and one inside.
        #expect(RingContactCheck.offenders([square, ring([(12, 2), (14, 2), (13, 4)].reversed(), 0)]) == [0, 1])
        #expect(RingContactCheck.offenders([square, ring([(2, 2), (4, 2), (3, 4)].reversed(), 0)]).isEmpty)
        #expect(RingContactCheck.locate(FixedPoint(x: 5, y: 5), in: square.points) == 1)
        #expect(RingContactCheck.locate(FixedPoint(x: 10, y: 5), in: square.points) == 0)
        #expect(RingContactCheck.locate(FixedPoint(x: 11, y: 5), in: square.points) == -1)
        #expect(RingContactCheck.locate(FixedPoint(x: 5, y: 10), in: square.points) == 0)
        #expect(RingContactCheck.locate(FixedPoint(x: 10, y: 10), in: square.points) == 0)
        #expect(RingContactCheck.locate(FixedPoint(x: 0, y: 0), in: square.points) == 0)
        // Against a brute-force count on a jagged ring, with many strips.
        var rng = SplitMix(seed: 5)
        let jagged = (0..<60).map { k -> FixedPoint in
            let t = 2 * Double.pi * Double(k) / 60, r = 50 + Double(rng.next() % 40)
            return FixedPoint(x: Int64((r * cos(t)).rounded()), y: Int64((r * sin(t)).rounded()))
        }
        let index = StripIndex(jagged)
        for x in stride(from: Int64(-95), through: 95, by: 3) {
            for y in stride(from: Int64(-95), through: 95, by: 3) {
                let p = FixedPoint(x: x, y: y)
                #expect(index.locate(p) == StripIndex(jagged, strips: 1).locate(p))
                let inside = GeoJSONRead.inside(
                    [Double(x), Double(y)], (jagged + [jagged[0]]).map { [Double($0.x), Double($0.y)] })
                if index.locate(p) != 0 { #expect((index.locate(p) == 1) == inside) }
            }
        }
        // A ring touching itself at a vertex.
        #expect(RingContactCheck.offenders([ring([(0, 0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)])]) == [0])
    }

    @Test func convexSimpleTest() {
        func pts(_ p: [(Int64, Int64)]) -> [FixedPoint] { p.map { FixedPoint(x: $0.0, y: $0.1) } }
        #expect(PrecisionRounding.isConvexSimple(pts([(0, 0), (2, 0), (3, 1), (2, 2), (0, 2), (-1, 1)])))
        #expect(!PrecisionRounding.isConvexSimple(pts([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])))
        // A pentagram turns one way everywhere but winds twice.
        let star = (0..<5).map { k -> (Int64, Int64) in
            let t = Double(2 * k % 5) * 2 * .pi / 5
            return (Int64((1000 * cos(t)).rounded()), Int64((1000 * sin(t)).rounded()))
        }
        #expect(!PrecisionRounding.isConvexSimple(pts(star)))
    }
}
