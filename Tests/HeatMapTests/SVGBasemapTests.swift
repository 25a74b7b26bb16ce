import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct SVGBasemapTests {
    /// Data around Fiji / the Chathams, straddling ±180°.
    func antimeridianData() -> (HeatMapBinLayer, [LocationCoordinate2D]) {
        let coords = [
            LocationCoordinate2D(latitude: -44, longitude: 178.5),
            LocationCoordinate2D(latitude: -44, longitude: -176.5),
            LocationCoordinate2D(latitude: -40, longitude: 179.9)
        ]
        let projection = PlaneProjection.fitted(.equalArea, to: coords)
        let bins = coords.map { c -> BinTile in
            let p = projection.project(c)
            return BinTile(corners: RenderFixtures.hexagon(p.x, p.y, 40_000), count: 1, value: 1)
        }
        return (HeatMapBinLayer(bins: bins, projection: projection), coords)
    }

    @Test func readsLinesAndPolygonsFromGeoJSON() throws {
        let json = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.3,0.2],[0.3,0.3],[0.2,0.2]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[5,5],[6,6]],[[7,7],[8,8,12]]]}},
              {"type":"Feature","properties":{},"geometry":null},
              {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3,3]}},
              {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[10,10],[11,10],[11,11],[10,10]]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[20,20],[21,21]]}]}}
            ]}
            """
        let map = try HeatMapBasemap(geoJSON: Data(json.utf8))
        #expect(map.lines.count == 6)
        #expect(map.lines.map(\.count) == [4, 4, 2, 2, 4, 2])
        #expect(map.lines[3][1].latitude == 8 && map.lines[3][1].longitude == 8)
    }

    @Test func badGeoJSONNamesTheFault() {
        func message(_ json: String) -> String {
            do { _ = try HeatMapBasemap(geoJSON: Data(json.utf8)); return "no error" } catch { return "\(error)" }
        }
        #expect(message("not json").contains("not JSON"))
        #expect(message("{\"type\": \"FeatureCollection\",\n\"features\": [}").contains("line 2, column 14"))
        #expect(
            message(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,"x"]]}}]}"#
            )
            .contains("feature 0, position 1"))
        #expect(message(#"{"type":"LineString","coordinates":[[0,0],[1,95]]}"#).contains("latitude 95"))
        #expect(message(#"{"type":"Blob"}"#).contains("Blob"))
        #expect(message(#"[1,2]"#).contains("not a GeoJSON object"))
        let missing = URL(fileURLWithPath: "/nonexistent/coast.geojson")
        #expect(throws: HeatMapRenderError.self) { try HeatMapBasemap(contentsOf: missing) }
    }

    @Test func basemapIsClippedToThePlotAndUnfilled() throws {
        let (layer, _) = antimeridianData()
        // One line through the data, one far away (Europe).
        let map = HeatMapBasemap(lines: [
            [LocationCoordinate2D(latitude: -50, longitude: 178), LocationCoordinate2D(latitude: -35, longitude: -178)],
            [LocationCoordinate2D(latitude: 50, longitude: 0), LocationCoordinate2D(latitude: 51, longitude: 1)]
        ])
        var options = HeatMapRenderOptions(width: 600, height: 600, legend: nil, basemap: map)
        options.margin = 20
        let svg = try ParsedSVG(HeatMapRenderer.svg(layer, options: options))
        let base = svg.elements("path", class: "basemap")
        #expect(base.count == 1)
        #expect(base[0].attr("fill") == "none")
        let lines = subpaths(base[0].attr("d")!)
        #expect(lines.count == 1)  // Europe is beyond the horizon: dropped
        for p in lines[0] {
            #expect(p.x >= 20 - 2.01 && p.x <= 580 + 2.01 && p.y >= 20 - 2.01 && p.y <= 580 + 2.01)
        }
        // Lines are drawn over the data by default, under it on request.
        func order(_ svg: ParsedSVG) -> [String] {
            svg.elements("path").compactMap { $0.attr("class") }.filter { $0 == "basemap" || $0 == "bin" }
        }
        #expect(order(svg).last == "basemap")
        options.basemapPlacement = .under
        #expect(order(try ParsedSVG(HeatMapRenderer.svg(layer, options: options))).first == "basemap")
    }

    @Test func dataAcrossTheAntimeridianIsOneCompactMap() throws {
        let (layer, coords) = antimeridianData()
        // The Chatham-like point (-176.5°) lies east of the 178.5° point, about 400 km away,
        // not 35,000 km across the world.
        let a = layer.projection.project(coords[0]), b = layer.projection.project(coords[1])
        #expect(b.x > a.x && b.x - a.x < 500_000)
        // A coastline segment crossing ±180° is one short stroke, not a line across the picture.
        let crossing = HeatMapBasemap(lines: [
            [
                LocationCoordinate2D(latitude: -44, longitude: 179.8),
                LocationCoordinate2D(latitude: -44, longitude: -179.8)
            ]
        ])
        let svg = try ParsedSVG(
            HeatMapRenderer.svg(layer, options: HeatMapRenderOptions(legend: nil, basemap: crossing)))
        let line = subpaths(svg.elements("path", class: "basemap")[0].attr("d")!)[0]
        #expect(line.count == 2 && abs(line[1].x - line[0].x) < 100 && line[1].x > line[0].x)
    }

    @Test func equirectangularBasemapsTearAtTheSeam() {
        let projection = PlaneProjection(kind: .equirectangular, centreLatitude: 0, centreLongitude: 0)
        let map = HeatMapBasemap(lines: [
            [
                LocationCoordinate2D(latitude: 0, longitude: 179),
                LocationCoordinate2D(latitude: 0, longitude: -179),
                LocationCoordinate2D(latitude: 0, longitude: -178)
            ]
        ])
        let lines = BasemapProjection.lines(map.lines, projection)
        #expect(lines.count == 1 && lines[0].count == 2)  // the seam-crossing segment is dropped
    }

    @Test func frameCanHoldTheBasemap() throws {
        let (layer, _) = antimeridianData()
        let far = HeatMapBasemap(lines: [
            [
                LocationCoordinate2D(latitude: -30, longitude: 170),
                LocationCoordinate2D(latitude: -31, longitude: 171)
            ]
        ])
        var options = HeatMapRenderOptions(legend: nil, basemap: far)
        let dataOnly = try ParsedSVG(HeatMapRenderer.svg(layer, options: options))
        #expect(dataOnly.elements("path", class: "basemap").isEmpty)  // outside the data's frame
        options.frame = .dataAndBasemap
        let both = try ParsedSVG(HeatMapRenderer.svg(layer, options: options))
        #expect(both.elements("path", class: "basemap").count == 1)
    }

    /// Islands on both sides of ±180° (Tests/Fixtures/Basemaps, see its
    /// README) project as one map: from Auckland Island to the Chathams is
    /// about 1,400 km, from Raoul to Campbell Island 2,600 km, not the globe.
    @Test func islandsAcrossTheAntimeridianProjectAsOneMap() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Basemaps/nz_islands.geojson")
        let coast = try HeatMapBasemap(contentsOf: url)
        #expect(coast.lines.count == 7)
        let projection = PlaneProjection.fitted(.equalArea, to: coast.lines.flatMap { $0 })
        var box = PlaneBox.empty
        for line in BasemapProjection.lines(coast.lines, projection) { for p in line { box.formUnion(p) } }
        #expect(box.width > 1_000_000 && box.width < 2_000_000, "width \(box.width) m")
        #expect(box.height > 2_300_000 && box.height < 2_900_000, "height \(box.height) m")
    }
}
