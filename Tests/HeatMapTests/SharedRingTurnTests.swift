import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapFormats

/// A ring two bands share is one band's hole and the next band's
/// exterior, and both must write the very same positions: a difference
/// in the last bit becomes a different rounding once a repair raises the
/// ring to the 13th decimal, and the bands overlap or leave a gap (seen
/// on 5 000 points spread over the globe, `--smooth none`: bands 0 and 1
/// overlapping by 2.5e-5 of their area near 84° N).
///
/// A hole whose exterior crosses the seam of the plane's longitudes (the
/// meridian opposite its centre) may be moved a turn, into the exterior's
/// longitudes, before the polygon is cut at ±180°, and moved back after;
/// the same ring as an exterior of its own never moves.
@Suite struct SharedRingTurnTests {
    /// The plane centred at 60° N, 100° E: its seam is the 80th meridian
    /// west, where a longitude of magnitude below 128 and the same one a
    /// turn on (above 256) have different exponents.
    static let projection = PlaneProjection(kind: .equalArea, centreLatitude: 60, centreLongitude: 100)

    /// A plane ring round (latitude, longitude) of `radius` metres, with
    /// `count` positions at irregular angles (so their bits vary), the
    /// first at angle `start`.
    static func ring(
        latitude: Double, longitude: Double, radius: Double, count: Int, start: Double = 0, seed: UInt64
    ) -> [PlanePoint] {
        let c = projection.project(latitude: latitude, longitude: longitude)
        var random = SplitMix(seed: seed)
        return (0..<count).map { k in
            let t = start + 2 * Double.pi * (Double(k) + 0.8 * random.unit()) / Double(count)
            let r = radius * (1 + 0.01 * random.unit())
            return PlanePoint(x: c.x + r * cos(t), y: c.y + r * sin(t))
        }
    }

    @Test(arguments: [0, 1, 2, 3])
    func aHoleMovedATurnComesBackWithTheBitsOfItsOwnExterior(seed: UInt64) throws {
        let geometry = LonLatGeometry(projection: Self.projection)
        // Round 80° N, 80° W (40° from the centre, the pole 10° away), so
        // the exterior runs across the seam; the hole lies east of it, at
        // 73° W, where its own longitudes stay. Begun on either side of
        // the seam, the exterior is unwrapped into either turn.
        let hole = Self.ring(latitude: 80, longitude: -73, radius: 30_000, count: 300, seed: 200 + seed)
        let above = GeoJSONExport.outputPolygons(PlanePolygon(exterior: hole), geometry: geometry)
        try #require(above.count == 1)
        var moved = 0
        for start in [0, Double.pi / 2, Double.pi, 3 * Double.pi / 2] {
            let exterior = Self.ring(
                latitude: 80, longitude: -80, radius: 600_000, count: 400, start: start, seed: 100 + seed)
            let polygon = PlanePolygon(exterior: exterior, holes: [Array(hole.reversed())])
            let measured = geometry.measuredPolygon(raw: geometry.raw(polygon))
            if let x = measured.polygon.holes.first?.first?.x, x > 180 { moved += 1 }
            let holes = GeoJSONExport.outputPolygons(polygon, geometry: geometry).flatMap(\.holes)
            try #require(holes.count == 1)
            func bits(_ ring: [PlanePoint]) -> Set<[UInt64]> { Set(ring.map { [$0.x.bitPattern, $0.y.bitPattern] }) }
            #expect(holes[0].count == above[0].exterior.count)
            let differing = bits(holes[0]).symmetricDifference(bits(above[0].exterior)).count
            #expect(differing == 0, "exterior begun at \(start)")
        }
        // The premise: some exteriors took the hole a turn on.
        #expect(moved > 0)
    }
}
