import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Projections, the longitude arc across ±180°, and the adaptive rule.
@Suite struct ProjectionTests {
    @Test func normalizingMatchesTheRemainderDefinition() {
        // The wrap avoids fmod for |x| < 3600; it must give fmod's results
        // exactly, the signs of zeros too.
        func reference(_ x: Double) -> Double {
            var l = x.truncatingRemainder(dividingBy: 360)
            if l < -180 { l += 360 }
            if l >= 180 { l -= 360 }
            return l
        }
        var generator = SplitMix(seed: 13)
        var samples: [Double] = [
            0, -0.0, 180, -180, 360, -360, 720, -720, 3599.999, -3599.999, 3600, -3600,
            179.99999999999997, 1e300, -1e300, .infinity, .nan
        ]
        for _ in 0..<5_000 { samples.append(generator.uniform(-5000, 5000)) }
        for _ in 0..<200 { samples.append(Double(Int(generator.uniform(-12, 12))) * 360) }
        for x in samples {
            let got = LongitudeArc.normalized(x), want = reference(x)
            #expect(got.bitPattern == want.bitPattern || (got.isNaN && want.isNaN), "\(x)")
        }
    }

    @Test func smallestArcCrossesTheAntimeridianForFijiLikeData() {
        let arc = LongitudeArc.smallest(containing: [178.5, -179.0, 179.9, -177.5])!
        #expect(abs(arc.width - 4.0) < 1e-9)
        #expect(abs(arc.west - 178.5) < 1e-9)
        #expect(abs(arc.centre - (-179.5)) < 1e-9)  // 178.5 + 4 / 2 = 180.5
        // 0–360 data is the same cluster.
        let same = LongitudeArc.smallest(containing: [178.5, 181.0, 179.9, 182.5])!
        #expect(abs(same.width - 4.0) < 1e-9 && abs(same.centre - arc.centre) < 1e-9)
        let plain = LongitudeArc.smallest(containing: [10, 20, 15])!
        #expect(plain.west == 10 && plain.width == 10 && plain.centre == 15)
        #expect(LongitudeArc.smallest(containing: [Double]()) == nil)
    }

    @Test(arguments: [MapProjection.equalArea, .equirectangular, .webMercator])
    func projectionsRoundTrip(kind: MapProjection) {
        let p = PlaneProjection(kind: kind, centreLatitude: -18, centreLongitude: 179.5)
        for (lat, lon) in [(-18.0, 179.5), (-25.0, -175.0), (-10.0, 172.0), (-30.5, 185.0)] {
            let back = p.unproject(p.project(latitude: lat, longitude: lon))
            #expect(abs(back.latitude - lat) < 1e-9)
            #expect(abs(LongitudeArc.normalized(back.longitude - lon)) < 1e-9)
        }
    }

    @Test func equalAreaKeepsAreas() {
        // A 1° × 1° cell at 60° N has area R² · Δλ · (sin 61° − sin 60°).
        let p = PlaneProjection(kind: .equalArea, centreLatitude: 40, centreLongitude: 10)
        let corners = [(60.0, 30.0), (60.0, 31.0), (61.0, 31.0), (61.0, 30.0)]
        // Densify the edges so straight plane edges follow the parallels.
        var ring: [PlanePoint] = []
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            for s in 0..<200 {
                let t = Double(s) / 200
                ring.append(p.project(latitude: a.0 + (b.0 - a.0) * t, longitude: a.1 + (b.1 - a.1) * t))
            }
        }
        let r = PlaneProjection.authalicRadius
        let exact = r * r * (.pi / 180) * (sin(61 * Double.pi / 180) - sin(60 * Double.pi / 180))
        #expect(abs(abs(PlaneRing.signedArea(ring)) / exact - 1) < 1e-4)
    }

    @Test func fittedProjectionCentresOnTheCluster() {
        let coords = [(-15.0, 178.0), (-20.0, -178.0), (-25.0, 182.0)].map {
            LocationCoordinate2D(latitude: $0.0, longitude: $0.1)
        }
        let p = PlaneProjection.fitted(.equalArea, to: coords)
        #expect(abs(p.centreLatitude - (-20)) < 1e-9)
        #expect(abs(abs(p.centreLongitude) - 180) < 1e-9)
        // Points on both sides of ±180° land close together in the plane.
        let a = p.project(coords[0]), b = p.project(coords[1])
        #expect(abs(a.x - b.x) < 600_000)
    }

    @Test func planarIsTheIdentity() {
        let p = PlaneProjection(kind: .planar)
        #expect(p.project(latitude: 3, longitude: 500) == PlanePoint(x: 500, y: 3))
        #expect(p.unproject(PlanePoint(x: 500, y: 3)) == LocationCoordinate2D(latitude: 3, longitude: 500))
        #expect(p.areaUnitScale == 1 && !p.isGeographic)
    }

    @Test func adaptiveFollowsTheApplePackageRule() {
        // 100 points on a 0.1° × 0.1° box at the equator: 11.1 km square.
        let pts = (0..<100).map { i in
            HeatMapPoint(id: i, latitude: Double(i / 10) * 0.1 / 9, longitude: Double(i % 10) * 0.1 / 9)
        }
        let c = HeatMapConfiguration.adaptive(for: pts)
        let side = 0.1 * 111_320.0
        #expect(abs(c.radius - side / 10) < 1)  // √(area / n)
        #expect(c.gridResolution == 30)  // side / (radius / 3)
        #expect(HeatMapConfiguration.adaptive(for: [pts[0]]) == HeatMapConfiguration())
    }

    @Test func gridGeometryFollowsSection4() {
        let box = PlaneBox(minX: 0, minY: 0, maxX: 100, maxY: 40)
        let g = GridGeometry.fitting(box: box, radius: 10, paddingFactor: 1.5, resolution: 100)
        // Padded box: −15…115 × −15…55 = 130 × 70.
        #expect(g.columns == 100)
        #expect(g.rows == Int(100.0 * 70 / 130))
        #expect(abs(g.dx - 1.3) < 1e-12)
        #expect(abs(g.x0 - (-15 + 0.65)) < 1e-12)
        #expect(abs(g.y0 - (-15 + g.dy / 2)) < 1e-12)
    }
}
