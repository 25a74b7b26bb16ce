import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// UTM against PROJ's answers (pyproj 3, EPSG:4326 → EPSG:326zz/327zz),
/// and the inverse against the forward map.
@Suite struct UTMProjectionTests {
    @Test(arguments: [
        (32633, 52.5, 13.4, 391_390.7313, 5_817_855.2408),
        (32633, 0.5, 9.1, -157_668.4552, 55_561.3295),
        (32733, -33.9, 18.4, 814_420.3310, 6_243_724.8401),
        (32601, 71.0, -179.0, 427_338.6673, 7_878_596.0016),
        (32760, -45.0, 174.0, 263_553.9739, 5_012_670.4953)
    ])
    func matchesPROJ(code: Int, lat: Double, lon: Double, e: Double, n: Double) throws {
        let utm = try #require(UTMProjection(epsg: code))
        let p = utm.forward(latitude: lat, longitude: lon)
        #expect(abs(p.x - e) < 1e-3 && abs(p.y - n) < 1e-3, "forward \(p)")
        let c = utm.inverse(PlanePoint(x: e, y: n))
        // 1e-8 degrees is about a millimetre.
        #expect(abs(c.latitude - lat) < 1e-8 && abs(c.longitude - lon) < 1e-8, "inverse \(c)")
    }

    @Test func inverseUndoesForwardAcrossTheZone() throws {
        var g = SplitMix(seed: 9)
        let utm = try #require(UTMProjection(epsg: 32631))
        for _ in 0..<2000 {
            let lat = g.uniform(-80, 84), lon = g.uniform(-1, 7)
            let c = utm.inverse(utm.forward(latitude: lat, longitude: lon))
            #expect(abs(c.latitude - lat) < 1e-9 && abs(c.longitude - lon) < 1e-9)
        }
        #expect(
            UTMProjection(epsg: 32661) == nil && UTMProjection(epsg: 32600) == nil && UTMProjection(epsg: 27700) == nil)
    }
}
