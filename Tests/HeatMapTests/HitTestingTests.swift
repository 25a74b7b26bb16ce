import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Hit tests through the polygon index (docs/contour-rules.md), on hand-built bands.
@Suite struct HitTestingTests {
    static func square(_ a: Double, _ b: Double) -> [PlanePoint] {
        [PlanePoint(x: a, y: a), PlanePoint(x: b, y: a), PlanePoint(x: b, y: b), PlanePoint(x: a, y: b)]
    }

    /// Band 0: the square 0…10 minus 3…7; band 1: the square 3…7 (the same ring, reversed).
    static func nestedSquares() -> HeatMapContours {
        let inner = square(3, 7)
        let set = ContourSet(
            thresholds: [1, 2],
            levels: [[PlanePolygon(exterior: square(0, 10))], [PlanePolygon(exterior: inner)]],
            bands: [
                [PlanePolygon(exterior: square(0, 10), holes: [inner.reversed()])], [PlanePolygon(exterior: inner)]
            ],
            isolines: [[square(0, 10)], [inner]])
        let geometry = GridGeometry(columns: 11, rows: 11, x0: 0, y0: 0, dx: 1, dy: 1)
        let values = (0..<121).map { k -> Double in
            let c = Double(k % 11), r = Double(k / 11)
            return 3 - max(abs(c - 5), abs(r - 5)) / 2.5
        }
        let grid = DensityGrid(
            geometry: geometry, values: values, projection: PlaneProjection(kind: .planar),
            radius: 1, estimator: .density, units: "per square unit")
        return HeatMapContours(
            grid: grid, contourSet: set,
            configuration: HeatMapConfiguration(projection: .planar), summary: InputSummary())
    }

    func levels(_ result: HeatMapContours, x: Double, y: Double) -> [Int] {
        result.contours(containing: LocationCoordinate2D(latitude: y, longitude: x)).map(\.level)
    }

    @Test func interiorPointsFindTheirBand() {
        let r = Self.nestedSquares()
        #expect(levels(r, x: 1, y: 1) == [0])
        #expect(levels(r, x: 5, y: 5) == [1])
        #expect(levels(r, x: 9.9, y: 5) == [0])
        #expect(levels(r, x: 11, y: 5) == [])
        #expect(levels(r, x: -0.1, y: 5) == [])
    }

    @Test func pointsOnSharedEdgesAndVerticesBelongToTheUpperBandOnly() {
        let r = Self.nestedSquares()
        #expect(levels(r, x: 3, y: 5) == [1], "on the shared edge")
        #expect(levels(r, x: 3, y: 3) == [1], "on a shared vertex")
        #expect(levels(r, x: 7, y: 7) == [1])
        #expect(levels(r, x: 0, y: 5) == [0], "on the outer edge")
        #expect(levels(r, x: 10, y: 10) == [0], "on the outer corner")
    }

    /// Round a pit the upper band is the one with the hole: band 1 is the
    /// ring 2…8 with a hole 4…6, where band 0 comes back as an island, and
    /// the island's own hole 4.5…5.5 is below every threshold. A ring lies
    /// at its upper band's threshold, so a point on it is in that band.
    @Test func pointsOnAPitsRingBelongToTheUpperBand() {
        let locator = BandLocator(bands: [
            [
                PlanePolygon(exterior: Self.square(0, 10), holes: [Self.square(2, 8).reversed()]),
                PlanePolygon(exterior: Self.square(4, 6), holes: [Self.square(4.5, 5.5).reversed()])
            ],
            [PlanePolygon(exterior: Self.square(2, 8), holes: [Self.square(4, 6).reversed()])]
        ])
        #expect(locator.band(at: PlanePoint(x: 2, y: 5)) == 1, "on the peak's ring")
        #expect(locator.band(at: PlanePoint(x: 4, y: 5)) == 1, "on the pit's ring")
        #expect(locator.band(at: PlanePoint(x: 6, y: 6)) == 1, "on the pit's corner")
        #expect(locator.band(at: PlanePoint(x: 4.2, y: 5)) == 0, "in the island")
        #expect(locator.band(at: PlanePoint(x: 4.5, y: 5)) == 0, "on the island's hole")
        #expect(locator.band(at: PlanePoint(x: 5, y: 5)) == nil, "below every threshold")
        #expect(locator.polygons(containing: PlanePoint(x: 4, y: 5)).map(\.level) == [1])
    }

    @Test func polygonContainsAgreesWithTheIndex() {
        let r = Self.nestedSquares()
        for (x, y) in [(1.0, 1.0), (5, 5), (3, 5), (0, 5), (11, 5), (7, 3)] {
            let c = LocationCoordinate2D(latitude: y, longitude: x)
            let direct = r.contours.filter { $0.contains(c) }.map(\.level)
            #expect(direct == levels(r, x: x, y: y), "at (\(x), \(y))")
        }
    }

    @Test func inspectionReportsValueBandAndBounds() {
        let r = Self.nestedSquares()
        let a = r.inspect(LocationCoordinate2D(latitude: 5, longitude: 5))
        #expect(a.level == 1)
        #expect(a.threshold == 2)
        #expect(a.upper == nil)
        #expect(a.value == 3)
        let b = r.inspect(LocationCoordinate2D(latitude: 1, longitude: 1))
        #expect(b.level == 0 && b.threshold == 1 && b.upper == 2)
        #expect(abs((b.value ?? 0) - (3 - 4 / 2.5)) < 1e-12)
        let c = r.inspect(LocationCoordinate2D(latitude: 50, longitude: 50))
        #expect(c.level == nil && c.value == nil)
    }

    /// Concentric rings with many vertices: the index answers exactly like

    /// A grid round the north pole covers where a latitude past the pole
    /// would land if projected (95° N is 85° N across the pole): such a
    /// coordinate, and a NaN, lie nowhere, while the places round the pole
    /// do lie in a band.
    @Test func coordinatesPastAPoleLieInNoBand() async throws {
        let points = (0..<360).map { k in
            HeatMapPoint(id: k, latitude: 84 + Double(k % 5), longitude: Double(k))
        }
        let r = try await HeatMapContours.compute(
            from: points, configuration: HeatMapConfiguration(radius: 300_000, contourLevels: 4))
        let inside = LocationCoordinate2D(latitude: 85, longitude: 0)
        #expect(r.inspect(inside).value != nil && r.inspect(inside).level != nil)
        #expect(!r.contours(containing: inside).isEmpty)
        #expect(r.contours.contains { $0.contains(inside) })
        let nowhere = [
            LocationCoordinate2D(latitude: 95, longitude: 180), LocationCoordinate2D(latitude: -95, longitude: 0),
            LocationCoordinate2D(latitude: .nan, longitude: 0), LocationCoordinate2D(latitude: 85, longitude: .infinity)
        ]
        for c in nowhere {
            let answer = r.inspect(c)
            #expect(answer.value == nil && answer.level == nil, "at \(c)")
            #expect(r.contours(containing: c).isEmpty, "at \(c)")
            #expect(!r.contours.contains { $0.contains(c) }, "at \(c)")
            #expect(r.grid.value(at: c) == nil, "at \(c)")
        }
        #expect(r.levels(at: [inside] + nowhere).map { $0 != nil } == [true, false, false, false, false])
        // A longitude many turns off is a place (and the polygon test ends).
        let far = LocationCoordinate2D(latitude: 85, longitude: 1e20)
        #expect(r.contours.filter { $0.contains(far) }.map(\.level) == r.contours(containing: far).map(\.level))
    }
    /// a scan of every polygon, for thousands of random queries.
    @Test func indexAgreesWithABruteForceScan() {
        func circle(_ radius: Double, _ n: Int) -> [PlanePoint] {
            (0..<n).map { k in
                let a = Double(k) / Double(n) * 2 * .pi
                return PlanePoint(x: radius * cos(a) + 0.37 * sin(5 * a), y: radius * sin(a))
            }
        }
        let radii = [10.0, 8, 6, 4, 2]
        let rings = radii.map { circle($0, 400) }
        var bands: [[PlanePolygon]] = []
        for (i, ring) in rings.enumerated() {
            let holes = i + 1 < rings.count ? [Array(rings[i + 1].reversed())] : []
            bands.append([PlanePolygon(exterior: ring, holes: holes)])
        }
        let index = PolygonIndex(bands: bands)
        let split = PolygonIndex(bands: bands, parts: 3)
        var rng = SplitMix(seed: 42)
        for _ in 0..<5000 {
            let p = PlanePoint(x: rng.uniform(-12, 12), y: rng.uniform(-12, 12))
            var expected: [Int] = []
            for (i, band) in bands.enumerated() {
                let poly = band[0]
                if PlaneRing.locate(p, in: poly.exterior) >= 0,
                    !poly.holes.contains(where: { PlaneRing.locate(p, in: $0) >= 0 })
                {
                    expected.append(i)
                }
            }
            #expect(index.polygons(containing: p) == expected)
            #expect(split.polygons(containing: p) == expected)
            #expect(split.highestPolygon(containing: p) == expected.last)
            #expect(expected.count <= 1)
        }
    }

    @Test func batchQueriesAnswerAsSingleOnes() {
        // Concentric bands (rings of 400 vertices) and queries on every
        // core: the batch answer is each point's own answer, in order.
        let rings = [9.0, 6, 3].map { radius in
            (0..<400).map { k in
                let a = Double(k) / 400 * 2 * .pi
                return PlanePoint(x: radius * cos(a), y: radius * sin(a))
            }
        }
        let bands = rings.indices.map { i in
            [PlanePolygon(exterior: rings[i], holes: i + 1 < rings.count ? [Array(rings[i + 1].reversed())] : [])]
        }
        let locator = BandLocator(bands: bands)
        var rng = SplitMix(seed: 9)
        // Enough points to be answered in spatial order, some not finite.
        var points = (0..<20_000).map { _ in PlanePoint(x: rng.uniform(-10, 10), y: rng.uniform(-10, 10)) }
        points.insert(PlanePoint(x: .nan, y: 0), at: 7)
        points.append(PlanePoint(x: 1, y: -.infinity))
        let batch = locator.bands(at: points)
        #expect(batch[7] == nil && batch.last! == nil)
        // Points so far apart that their box is wider than any Double.
        let extremes = points + [PlanePoint(x: -1e308, y: -1e308), PlanePoint(x: 1e308, y: 1e308)]
        #expect(locator.bands(at: extremes) == batch + [nil, nil])
        #expect(batch.count == points.count)
        #expect(zip(points, batch).allSatisfy { locator.band(at: $0) == $1 })
        #expect(Set(batch) == [nil, 0, 1, 2])
        #expect(locator.bands(at: []).isEmpty)
    }

    @Test(arguments: [PolygonSmoother.none, .chaikin()])
    func indexOfRealContoursAgreesWithABruteForceScan(smoother: PolygonSmoother) throws {
        // Clustered points, their bands (every inner boundary is a ring two
        // bands share, indexed once), queried at random and exactly on
        // vertices; the answer must be the brute-force one. (A computed
        // edge midpoint lies within rounding of its edge, on either side:
        // the two scans may differ there, and neither is wrong.)
        var rng = SplitMix(seed: 21)
        var x: [Double] = [], y: [Double] = [], w: [Double] = []
        for k in 0..<2000 {
            let centre = [(20.0, 30.0), (60, 55), (45, 80)][k % 3]
            x.append(centre.0 + 12 * (rng.unit() + rng.unit() - 1))
            y.append(centre.1 + 12 * (rng.unit() + rng.unit() - 1))
            w.append(0.5 + rng.unit())
        }
        let configuration = HeatMapConfiguration(
            radius: 9, contourLevels: 8, levelSpacing: .linear,
            gridResolution: 120, smoother: smoother, projection: .planar)
        let grid = try DensityGrid.compute(
            points: PlanePoints(x: x, y: y, weight: w),
            projection: PlaneProjection(kind: .planar), configuration: configuration)
        let thresholds = ThresholdResolver.thresholds(for: .linear, levelCount: 8, grid: grid)
        let bands = try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: smoother).bands
        let locator = BandLocator(bands: bands)
        func expected(_ p: PlanePoint) -> Int? {
            var found: Int?
            for (level, polygons) in bands.enumerated() {
                for polygon in polygons
                where PlaneRing.locate(p, in: polygon.exterior) >= 0
                    && !polygon.holes.contains(where: { PlaneRing.locate(p, in: $0) >= 0 })
                {
                    found = level
                }
            }
            return found
        }
        var queries = (0..<1500).map { _ in PlanePoint(x: rng.uniform(0, 80), y: rng.uniform(10, 100)) }
        for polygon in bands.joined() {
            for ring in [polygon.exterior] + polygon.holes {
                for k in stride(from: 0, to: ring.count, by: 2) { queries.append(ring[k]) }
            }
        }
        #expect(bands.count >= 6 && queries.count > 2000)
        let answers = locator.bands(at: queries)
        let wrong = zip(queries, answers).filter { $0.1 != expected($0.0) }.count
        #expect(wrong == 0)
    }
}
