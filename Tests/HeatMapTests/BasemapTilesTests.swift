import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Pages over XYZ map tiles: drawn in Web Mercator, the field still read
/// in the data's plane, the attribution on the map.
@Suite struct BasemapTilesTests {
    @Test func templatesWithoutTheirPlaceholdersAreRefused() {
        #expect(throws: HeatMapError.self) { try HeatMapTileBasemap(urlTemplate: "https://t.example/{z}/{x}.png") }
        #expect(throws: HeatMapError.self) {
            try HeatMapTileBasemap(urlTemplate: "https://t.example/{z}/{x}/{y}.png", maximumZoom: 30)
        }
        #expect(throws: Never.self) { try HeatMapTileBasemap(urlTemplate: "https://{s}.t.example/{z}/{x}/{y}.png") }
    }

    @Test func theWarpPutsDataPointsWhereWebMercatorTilesHaveThem() {
        // A data plane centred on Minneapolis; points a few km apart land
        // in the view at the offsets their Web Mercator coordinates have.
        let source = PlaneProjection(kind: .equalArea, centreLatitude: 44.97, centreLongitude: -93.26)
        let warp = PlaneWarp.webMercator(from: source)
        let places = [(44.97, -93.26), (45.0, -93.3), (44.93, -93.2)]
        let box = places.reduce(PlaneBox.empty) { box, p in
            var b = box
            b.formUnion(source.project(latitude: p.0, longitude: p.1))
            return b
        }
        let view = ViewTransform(fitting: box, into: PixelRect(x: 0, y: 0, width: 800, height: 600), warp: warp)
        let r = PlaneProjection.mercatorRadius, rad = Double.pi / 180
        func mercator(_ p: (Double, Double)) -> (x: Double, y: Double) {
            (r * (p.1 + 93.26) * rad, r * log(tan(Double.pi / 4 + p.0 * rad / 2)))
        }
        let a = view.pixel(source.project(latitude: places[0].0, longitude: places[0].1))
        for p in places.dropFirst() {
            let b = view.pixel(source.project(latitude: p.0, longitude: p.1))
            let m0 = mercator(places[0]), m1 = mercator(p)
            // Pixels are Web Mercator metres times one scale, y down.
            #expect(abs((b.x - a.x) - (m1.x - m0.x) * view.scale) < 1e-6)
            #expect(abs((b.y - a.y) + (m1.y - m0.y) * view.scale) < 1e-6)
        }
        // And back: the data-plane box of the view holds the data.
        let shown = view.planeBox
        #expect(shown.minX <= box.minX && shown.maxX >= box.maxX && shown.minY <= box.minY && shown.maxY >= box.maxY)
    }

    @Test func thePageAsksForTilesAndCreditsThemOnTheMap() async throws {
        var random = SplitMix(seed: 4)
        let points = (0..<2000).map { _ in
            HeatMapPoint(
                latitude: 44.97 + Double.random(in: -0.03...0.03, using: &random),
                longitude: -93.26 + Double.random(in: -0.04...0.04, using: &random), weight: 1)
        }
        let contours = try await HeatMapContours.compute(
            from: points, configuration: HeatMapConfiguration(radius: 800, contourLevels: 4, bandwidth: .fixed))
        var options = HeatMapRenderOptions(attribution: "Tiles <credit>")
        options.basemapTiles = try HeatMapTileBasemap(urlTemplate: "https://t.example/{z}/{x}/{y}.png?a=1&b=2")
        options.basemap = nil
        let html = HeatMapRenderer.html(contours, options: options)
        let data = try HTMLMapTests().dataObject(html)
        let tiles = try #require(data["tiles"] as? [String: Any])
        #expect(tiles["url"] as? String == "https://t.example/{z}/{x}/{y}.png?a=1&b=2")
        #expect(tiles["maxZoom"] as? Int == 19)
        // The view is Web Mercator about the data's meridian; the field stays in the data's plane.
        let projection = try #require(data["projection"] as? [String: Any])
        #expect(projection["kind"] as? String == "webMercator")
        let field = try #require(data["fieldProjection"] as? [String: Any])
        #expect(field["kind"] as? String == "equalArea")
        #expect(html.contains("id=\"hm-tiles\""))
        #expect(html.contains("<div class=\"hm-attribution\">Tiles &lt;credit&gt;</div>"))
        #expect(!html.contains("<p class=\"hm-credit\">Tiles"))
        // Without tiles the page stays offline: no tile layer, no URL.
        let offline = HeatMapRenderer.html(contours, options: HeatMapRenderOptions())
        #expect(!offline.contains("id=\"hm-tiles\""))
        let offlineData = try HTMLMapTests().dataObject(offline)
        #expect(offlineData["tiles"] == nil && offlineData["fieldProjection"] == nil)
    }
}
