import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapFormats

/// Rings near a pole, where a few hundred kilometres of plane span tens of
/// degrees of longitude: a band between two twelve-sided rings 6 km apart
/// at their closest, with sides of 207 km at 85.5° N, whose longitude/
/// latitude chords stray about 10 km from the plane's sides. The rings
/// straddle ±180°, so the chords that the cut there ends are not the
/// rounding's to cut closer: the rings must follow the plane before.
@Suite struct PolarChordTests {
    static let projection = PlaneProjection(kind: .equalArea, centreLatitude: 30, centreLongitude: 0)

    static func polygon(_ k: Int, radius: Double, turn: Double) -> [PlanePoint] {
        let c = projection.project(latitude: 85.5, longitude: 180)
        return (0..<k).map { i in
            let t = turn + 2 * Double.pi * Double(i) / Double(k)
            return PlanePoint(x: c.x + radius * cos(t), y: c.y + radius * sin(t))
        }
    }

    @Test func aBandNearThePoleAcrossTheAntimeridianStaysValid() throws {
        let outer = Self.polygon(12, radius: 400_000, turn: 0)
        let inner = Self.polygon(12, radius: 380_000, turn: Double.pi / 12)
        // The premise: the plane keeps the rings 6.4 km apart.
        let apothem = 400_000 * cos(Double.pi / 12)
        #expect(apothem - 380_000 > 6_000)
        let band = PlanePolygon(exterior: outer, holes: [Array(inner.reversed())])
        let set = ContourSet(thresholds: [1], levels: [[band]], bands: [[band]], isolines: [[]])
        let text = try GeoJSONExport.contours(set, projection: Self.projection, units: "u")
        #expect(try GeoJSONRead.featuresAtFault(text) == [])
        let rings = try GeoJSONRead.polygons(try GeoJSONRead.features(text)[0]).joined()
        // Cut at ±180° into pieces whose rings gained the positions that follow the plane.
        #expect(rings.reduce(0) { $0 + $1.count } > 4 * 24)
    }
}
