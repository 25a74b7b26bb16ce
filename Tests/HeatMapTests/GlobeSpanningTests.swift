import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Data over most of the globe in the equal-area plane, whose disc of
/// radius 2R holds the whole sphere and whose rim is one point, the
/// antipode of the centre: the grid holds no density near the rim, a ring
/// round the whole data set bounds the world beyond its image, and rings
/// in the far half follow the plane between their positions. Checked by
/// the exact validity test of the export's readers.
@Suite struct GlobeSpanningTests {
    static let globe = PlaneProjection(kind: .equalArea, centreLatitude: 10, centreLongitude: 30)
    static let R = PlaneProjection.authalicRadius

    static func export(_ polygons: [PlanePolygon]) throws -> (text: String, polygons: [[[[Double]]]]) {
        let set = ContourSet(thresholds: [1], levels: [polygons], bands: [polygons], isolines: [[]])
        let text = try GeoJSONExport.contours(set, projection: globe, units: "u")
        return (text, try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0]))
    }

    /// Whether (longitude, latitude) lies inside any polygon (holes out).
    static func covers(_ polygons: [[[[Double]]]], _ p: [Double]) -> Bool {
        polygons.contains { polygon in
            GeoJSONRead.inside(p, polygon[0]) && !polygon.dropFirst().contains { GeoJSONRead.inside(p, $0) }
        }
    }

    @Test func theGridHoldsNoDensityNearTheRimOrPastIt() throws {
        // A grid wider than the disc, points near the centre, a kernel wide
        // enough to reach the rim.
        let geometry = GridGeometry(
            columns: 45, rows: 45, x0: -2.2 * Self.R, y0: -2.2 * Self.R, dx: 0.1 * Self.R, dy: 0.1 * Self.R)
        let points = PlanePoints(x: [0, 1e6, -2e6], y: [0, 5e5, 1e6], weight: [1, 2, 1])
        let limit = 2 * Self.R - SphereRim.marginInCells * 0.1 * Self.R * 2.0.squareRoot()
        for mean in [false, true] {
            var accumulator = try DensityAccumulator(
                geometry: geometry, radius: 3 * Self.R, projection: Self.globe, estimator: mean ? .mean : .density)
            var p = points
            if mean { p.value = [1, 2, 3] }
            try accumulator.add(p)
            let grid = try accumulator.finish()
            for r in 0..<geometry.rows {
                for c in 0..<geometry.columns {
                    let node = geometry.node(column: c, row: r), v = grid.values[r * geometry.columns + c]
                    let beyond = (node.x * node.x + node.y * node.y).squareRoot() > limit
                    if beyond {
                        #expect(mean ? v.isNaN : v == 0, "node \(c), \(r): \(v)")
                    } else {
                        #expect(v > 0, "node \(c), \(r): \(v)")
                    }
                }
            }
        }
        // A grid well inside the disc keeps every value.
        let regional = GridGeometry(columns: 20, rows: 20, x0: -1e6, y0: -1e6, dx: 1e5, dy: 1e5)
        var accumulator = try DensityAccumulator(geometry: regional, radius: 3e6, projection: Self.globe)
        try accumulator.add(points)
        #expect(try accumulator.finish().values.allSatisfy { $0 > 0 })
    }

    @Test func aRingRoundTheWholeGlobeBoundsTheWorldBeyondItsImage() throws {
        // The plane's inside of a circle of radius 1.9 R is everything but a
        // cap round the antipode; a hole round the centre stays a hole.
        let polygon = PlanePolygon(
            exterior: Shapes.circle(0, 0, 1.9 * Self.R, 720),
            holes: [Shapes.circle(0, 0, 0.1 * Self.R, 60, clockwise: true)])
        let (text, polygons) = try Self.export([polygon])
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        #expect(Self.covers(polygons, [0, 89.5]) && Self.covers(polygons, [0, -89.5]))
        #expect(Self.covers(polygons, [-100, 40]) && Self.covers(polygons, [175, -60]))
        #expect(!Self.covers(polygons, [30, 10]))  // the centre, in the hole
        #expect(!Self.covers(polygons, [-150, -10]))  // the antipode
    }

    @Test func aBandBetweenTwoRingsRoundTheGlobeIsTheRingBetweenTheirImages() throws {
        let polygon = PlanePolygon(
            exterior: Shapes.circle(0, 0, 1.95 * Self.R, 720),
            holes: [Shapes.circle(0, 0, 1.7 * Self.R, 720, clockwise: true)])
        let (text, polygons) = try Self.export([polygon])
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        // 1.8 R from the centre in the plane is 128.3° from it on the
        // sphere: inside the band; the centre, the poles (within 100° of
        // the centre) and the antipode are not.
        let between = Self.globe.unproject(PlanePoint(x: 0, y: 1.8 * Self.R))
        #expect(Self.covers(polygons, [remainder(between.longitude, 360), between.latitude]))
        for p in [[30.0, 10], [0, 89.5], [0, -89.5], [-150, -10]] { #expect(!Self.covers(polygons, p), "\(p)") }
    }

    @Test(arguments: [DensityEstimator.density, .mean])
    func framesHoldNoDensityNearTheRim(estimator: DensityEstimator) async throws {
        // Points over the whole globe in three weekly frames: each frame's
        // grid is marked at the rim as the points' own grid is.
        var rng = SplitMix(seed: 5)
        func unit() -> Double { Double(rng.next() % 1_000_000) / 1_000_000 }
        let readings = (0..<600).map { i in
            TimeFrameTests.Reading(
                id: i,
                coordinate: LocationCoordinate2D(
                    latitude: asin(2 * unit() - 1) * 180 / .pi, longitude: 360 * unit() - 180),
                weight: 1, value: unit(), time: Date(timeIntervalSince1970: 1_609_459_200 + 21 * 86_400 * unit()))
        }
        var configuration = HeatMapConfiguration(radius: 2_000_000, contourLevels: 4)
        configuration.gridResolution = 40
        configuration.estimator = estimator
        let timeline = try await HeatMapTimeline.prepare(
            readings, configuration: configuration, frames: TimeFrameOptions(step: TimeStep(7, .day)))
        let g = timeline.geometry
        let limit = 2 * Self.R - SphereRim.marginInCells * (g.dx * g.dx + g.dy * g.dy).squareRoot()
        var beyond = 0, frames = 0
        for try await frame in timeline.frames {
            frames += 1
            for r in 0..<g.rows {
                for c in 0..<g.columns {
                    let node = g.node(column: c, row: r), v = frame.grid.values[r * g.columns + c]
                    guard (node.x * node.x + node.y * node.y).squareRoot() > limit else { continue }
                    beyond += 1
                    #expect(estimator == .mean ? v.isNaN : v == 0, "frame \(frame.span.index) node \(c), \(r): \(v)")
                }
            }
        }
        #expect(frames >= 3 && beyond > 0)
    }

    struct Sighting: HeatMapable {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
    }

    @Test(arguments: [DensityKernel.gaussian, .quartic])
    func bandsOfPointsOnEveryContinentAreValid(kernel: DensityKernel) throws {
        // Points over a band of latitudes all round the globe and a cluster:
        // the grid reaches the rim, and the lowest bands run along it.
        var rng = SplitMix(seed: 41)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() % 1_000_000) / 1_000_000 }
        var sightings: [Sighting] = []
        for i in 0..<400 {
            let (lat, lon) =
                i % 4 == 0 ? (35 + uniform(-3, 3), 139 + uniform(-3, 3)) : (uniform(-60, 70), uniform(-180, 180))
            sightings.append(
                Sighting(id: i, coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), weight: 1))
        }
        var configuration = HeatMapConfiguration(radius: 700_000, contourLevels: 6)
        configuration.gridResolution = 48
        configuration.smoother = .none
        configuration.kernel = kernel
        let contours = HeatMapContours.compute(from: sightings, configuration: configuration)
        let text = try GeoJSONExport.contours(contours)
        // Far-half rings gain many positions: the exact contact check of
        // the rounding (about linear) rather than the tests' O(n²) one.
        let features = try GeoJSONRead.features(text)
        #expect(features.count == 6)
        for (n, feature) in features.enumerated() {
            for ring in try GeoJSONRead.polygons(feature).joined() {
                #expect(ring.allSatisfy { abs($0[0]) <= 180 && abs($0[1]) <= 90 }, "feature \(n)")
            }
        }
        #expect(try GeoJSONRead.featuresAtFault(text) == [])
    }

    /// Bins of points over the whole globe: the cells near the antipode of
    /// the plane's centre reach past the rim of the equal-area plane (the
    /// circle of radius 2R that is that antipode), which is no place on the
    /// sphere; cut there, each is a wedge toward the antipode, and every
    /// outline is valid (before the cut, 43 of 205 hexagons of such a set
    /// were not).
    @Test(arguments: [BinShape.hexagon, .square])
    func binsPastTheRimOfThePlaneAreCutThere(shape: BinShape) throws {
        var rng = SplitMix(seed: 43)
        let sightings = (0..<1500).map { i -> Sighting in
            let lat = asin(rng.uniform(-1, 1)) * 180 / Double.pi, lon = rng.uniform(-180, 180)
            return Sighting(id: i, coordinate: LocationCoordinate2D(latitude: lat, longitude: lon), weight: 1)
        }
        for size in [800.0, 2000] {
            for includeEmpty in [false, true] {
                let result = try HeatMapBinning.bin(
                    sightings, configuration: BinningConfiguration(shape: shape, size: size, includeEmpty: includeEmpty)
                )
                let text = try GeoJSONExport.bins(result)
                // Every occupied cell has its feature; an empty one wholly
                // past the rim covers no place and has none.
                let ids = Set(
                    try GeoJSONRead.features(text).compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }
                )
                let occupied = result.bins.filter { $0.statistics.count > 0 }.map { "\($0.id.first),\($0.id.second)" }
                #expect(occupied.allSatisfy(ids.contains))
                if !includeEmpty { #expect(ids.count == result.bins.count) }
                #expect(try GeoJSONRead.featuresAtFault(text) == [], "\(shape) \(size) km")
                #expect(result.bins.reduce(0) { $0 + $1.statistics.count } == 1500)
                // The premise: some cell reaches past the rim.
                let rim = 2 * Self.R
                #expect(result.bins.contains { $0.corners.contains { ($0.x * $0.x + $0.y * $0.y).squareRoot() > rim } })
            }
        }
    }

    /// Whether `error` is the planner's refusal of a web mercator grid
    /// more than 360° wide.
    static func refusesAWideMercatorGrid(_ error: any Error) -> Bool {
        guard case .invalidConfiguration(let why)? = error as? HeatMapError else { return false }
        return why.contains("more than the globe, in the web-mercator projection")
    }

    @Test func webMercatorRefusesAGridWiderThanTheGlobe() throws {
        // Its plane's x is the longitude: a grid more than 360° wide would
        // put both its ends on the same meridians, so its bands would
        // overlap themselves once unprojected. Equal-area maps them.
        let sightings = [(0.0, 0.0), (10, 90), (-10, 180), (5, -90)].enumerated().map { i, p in
            Sighting(id: i, coordinate: LocationCoordinate2D(latitude: p.0, longitude: p.1), weight: 1)
        }
        var configuration = HeatMapConfiguration(radius: 5_000_000, contourLevels: 4)
        configuration.gridResolution = 64
        configuration.projection = .webMercator
        #expect {
            _ = try HeatMapContours.compute(from: sightings, configuration: configuration, control: .none)
        } throws: { Self.refusesAWideMercatorGrid($0) }
        // Half the globe is mapped as before.
        configuration.radius = 1_000_000
        let half = sightings.filter { abs($0.coordinate.longitude) <= 90 }
        #expect(try !HeatMapContours.compute(from: half, configuration: configuration, control: .none).contours.isEmpty)
        configuration.projection = .equalArea
        #expect(
            try !HeatMapContours.compute(from: sightings, configuration: configuration, control: .none).contours.isEmpty
        )
    }

    struct Station: HeatMapRadial {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
        let radius: Double
    }

    @Test func webMercatorRefusesAGridThatItsPointsOwnRadiiWiden() throws {
        // 270° of longitude: the common radius leaves the grid narrower
        // than the globe, the points' own radii do not.
        func stations(radius: Double) -> [Station] {
            [-135.0, -45, 45, 135].enumerated().map { i, lon in
                Station(
                    id: i, coordinate: LocationCoordinate2D(latitude: 0, longitude: lon), weight: 1, radius: radius)
            }
        }
        var configuration = HeatMapConfiguration(radius: 100_000, contourLevels: 3)
        configuration.gridResolution = 64
        configuration.projection = .webMercator
        #expect(
            try !HeatMapContours.compute(from: stations(radius: 100_000), configuration: configuration, control: .none)
                .contours.isEmpty)
        #expect {
            _ = try HeatMapContours.compute(
                from: stations(radius: 4_000_000), configuration: configuration, control: .none)
        } throws: { Self.refusesAWideMercatorGrid($0) }
    }
}
