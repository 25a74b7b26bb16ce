import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Bands round a pole in GeoJSON: a band between two rings that circle the
/// pole is one strip between them (not a cap with a cap for a hole, which
/// share their edge over the pole), holes and bulges across ±180° become
/// notches on both sides, and a hole of an exterior wider than a turn goes
/// in the turn that holds it. Checked by the exact validity test of the
/// export's readers, on shapes and on points round both poles.
@Suite struct PolarBandTests {
    static let north = PlaneProjection(kind: .equalArea, centreLatitude: 84, centreLongitude: 10)

    /// The plane position of the north pole under `north`.
    static var pole: PlanePoint { north.project(latitude: 90, longitude: 0) }

    static func export(_ polygons: [PlanePolygon]) throws -> (text: String, polygons: [[[[Double]]]]) {
        let set = ContourSet(thresholds: [1], levels: [polygons], bands: [polygons], isolines: [[]])
        let text = try GeoJSONExport.contours(set, projection: north, units: "u")
        return (text, try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0]))
    }

    @Test func aBandRoundThePoleIsOneStripBetweenItsRings() throws {
        let p = Self.pole
        let band = PlanePolygon(
            exterior: Shapes.circle(p.x, p.y, 700_000, 300),
            holes: [Shapes.circle(p.x + 20_000, p.y, 300_000, 200, clockwise: true)])
        let (text, polygons) = try Self.export([band])
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        #expect(polygons.count == 1 && polygons[0].count == 1)
        let ring = polygons[0][0]
        // It spans every longitude and stops short of the pole.
        #expect(ring.contains { $0[0] == 180 } && ring.contains { $0[0] == -180 })
        #expect(ring.allSatisfy { $0[1] < 89.9 })
    }

    @Test func aHoleAcrossTheAntimeridianIsANotchOnBothSides() throws {
        let p = Self.pole
        // Where ±180° runs in the plane, about 500 km from the pole.
        let seam = Self.north.project(latitude: 85.5, longitude: 180)
        let hole = Shapes.circle(seam.x, seam.y, 60_000, 60, clockwise: true)
        for inner in [false, true] {
            var holes = [hole]
            if inner { holes.append(Shapes.circle(p.x, p.y, 200_000, 120, clockwise: true)) }
            let band = PlanePolygon(exterior: Shapes.circle(p.x, p.y, 900_000, 300), holes: holes)
            let (text, polygons) = try Self.export([band])
            #expect(try GeoJSONRead.allProblems(text).isEmpty, "strip: \(inner)")
            // The hole is notched into the exterior, not left as a hole
            // that reaches past ±180°.
            #expect(polygons.allSatisfy { $0.count == 1 }, "strip: \(inner)")
            #expect(polygons[0][0].filter { abs($0[0]) == 180 }.count >= 4, "strip: \(inner)")
        }
    }

    @Test func aHoleOfAnExteriorWiderThanATurnGoesWhereItLies() throws {
        // A band that spirals round the pole through 380°, its ends a turn
        // apart in longitude and 250 km apart in the plane, with a hole near
        // its start: the hole fits the unwrapped exterior in two turns.
        let p = Self.pole
        func point(_ degrees: Double, _ r: Double) -> PlanePoint {
            let t = degrees * Double.pi / 180
            return PlanePoint(x: p.x + r * cos(t), y: p.y + r * sin(t))
        }
        let steps = 190
        let angles = (0...steps).map { 380 * Double($0) / Double(steps) }
        let inner = angles.map { point($0, 400_000 + 250_000 * $0 / 360) }
        let outer = angles.map { point($0, 550_000 + 250_000 * $0 / 360) }
        let centre = point(6, 475_000 + 250_000 * 6 / 360)
        let hole = Shapes.circle(centre.x, centre.y, 30_000, 40, clockwise: true)
        let (text, polygons) = try Self.export([PlanePolygon(exterior: outer + inner.reversed(), holes: [hole])])
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        #expect(polygons.reduce(0) { $0 + $1.count - 1 } == 1)
    }

    struct Sighting: HeatMapable {
        let id: Int
        let coordinate: LocationCoordinate2D
        let weight: Double
    }

    /// Points round a pole, a uniform scatter and three clusters (one on
    /// ±180°), seeded.
    static func sightings(south: Bool, seed: UInt64) -> [Sighting] {
        var rng = SplitMix(seed: seed)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() % 1_000_000) / 1_000_000 }
        return (0..<1500).map { i in
            var lat: Double, lon: Double
            if i % 2 == 0 {
                (lat, lon) = (uniform(72, 89.9), uniform(-180, 180))
            } else {
                let c = [(80.0, 179.0), (85, -120), (78, 30)][i % 3]
                (lat, lon) = (min(89.9, c.0 + uniform(-2, 2)), c.1 + uniform(-12, 12))
                lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
            }
            return Sighting(
                id: i, coordinate: LocationCoordinate2D(latitude: south ? -lat : lat, longitude: lon),
                weight: uniform(0.5, 3))
        }
    }

    @Test(arguments: [false, true], [DensityKernel.gaussian, .quartic])
    func bandsOfPointsRoundAPoleAreValid(south: Bool, kernel: DensityKernel) throws {
        // A coarse grid, unsmoothed: the readers' validity test compares
        // every pair of segments.
        var configuration = HeatMapConfiguration(radius: 250_000, contourLevels: 6, levelSpacing: .quantile)
        configuration.gridResolution = 60
        configuration.smoother = .none
        configuration.kernel = kernel
        let contours = HeatMapContours.compute(
            from: Self.sightings(south: south, seed: 7), configuration: configuration)
        let text = try GeoJSONExport.contours(contours)
        #expect(try GeoJSONRead.allProblems(text).isEmpty)
        // No hole reaches a pole or ±180°: a band round the pole is a
        // strip, and a hole across ±180° a notch.
        for feature in try GeoJSONRead.features(text) {
            for polygon in try GeoJSONRead.polygons(feature) {
                #expect(polygon.dropFirst().allSatisfy { $0.allSatisfy { abs($0[0]) < 180 && abs($0[1]) < 90 } })
            }
        }
        // A band round the pole reaches every longitude.
        let rings = try GeoJSONRead.features(text).flatMap { try GeoJSONRead.polygons($0).map { $0[0] } }
        #expect(rings.contains { $0.contains { $0[0] == 180 } && $0.contains { $0[0] == -180 } })
    }

    /// A polygon round a pole (its ring goes once round the globe) holds
    /// the places poleward of it: `contains` answers as the result's index
    /// does at the pole and at probes all round both polar caps (but for
    /// those on a boundary, where the two measure apart; 877 of 1 200
    /// differed before).
    @Test(arguments: [false, true])
    func aPolygonRoundAPoleContainsWhatThePolarIndexDoes(south: Bool) throws {
        var configuration = HeatMapConfiguration(radius: 250_000, contourLevels: 4, levelSpacing: .quantile)
        configuration.gridResolution = 80
        let contours = HeatMapContours.compute(
            from: Self.sightings(south: south, seed: 11), configuration: configuration)
        let sign = south ? -1.0 : 1.0
        let pole = LocationCoordinate2D(latitude: sign * 90, longitude: 0)
        #expect(!contours.contours(containing: pole).isEmpty)
        var rng = SplitMix(seed: 5)
        var checked = 0, differ = 0
        for k in 0..<600 {
            let probe =
                k == 0
                ? pole
                : LocationCoordinate2D(
                    latitude: sign * (70 + 20 * Double(rng.next() % 100_000) / 100_000),
                    longitude: -180 + 360 * Double(rng.next() % 100_000) / 100_000)
            let indexed = Set(contours.contours(containing: probe).map(\.id))
            let tested = Set(contours.contours.filter { $0.contains(probe) }.map(\.id))
            if k == 0 { #expect(tested == indexed && !tested.isEmpty) }
            if tested != indexed { differ += 1 }
            if !indexed.isEmpty { checked += 1 }
        }
        #expect(checked > 100)
        // The index measures in the plane, `contains` in longitude and
        // latitude: a probe within the chords' difference of a boundary
        // may fall on another side (measured 2 of 600 either way).
        #expect(differ <= 6, "\(differ) of 600 probes")
    }
}
