import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct HTMLMapTests {
    func dataObject(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"hm-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func pageIsAMapYouCanDriveWithoutAMouse() throws {
        let html = HeatMapRenderer.html(RenderFixtures.contours(), options: HeatMapRenderOptions(title: "T"))
        // A focusable map with a name, buttons to zoom and reset, and a text alternative.
        #expect(html.contains("id=\"hm-map\" tabindex=\"0\" role=\"group\" aria-roledescription=\"map\""))
        #expect(html.contains("aria-describedby=\"hm-alt\""))
        #expect(html.contains("<div id=\"hm-alt\" class=\"hm-sr\">Contours: 2 levels"))
        for id in ["hm-zoom-in", "hm-zoom-out", "hm-reset"] {
            #expect(html.contains("<button type=\"button\" id=\"\(id)\" aria-label="))
        }
        // Pan and zoom move one group; the legend and title stay outside the map.
        #expect(html.contains("<g class=\"view\" id=\"hm-view\">"))
        #expect(html.contains("<h1 class=\"hm-title\">T</h1>"))
        #expect(html.contains("<aside class=\"hm-legend\""))
        for handler in [
            "\"wheel\"", "\"pointerdown\"", "\"pointermove\"", "\"pointerup\"", "\"dblclick\"", "\"keydown\"",
            "ArrowLeft", "Escape"
        ] {
            #expect(html.contains(handler))
        }
        // Strokes keep their width when zoomed; phones get their own layout.
        #expect(html.contains("vector-effect: non-scaling-stroke"))
        #expect(html.contains("@media (max-width: 640px)"))
        #expect(!html.contains("innerHTML"))
    }

    @Test func pageCarriesTheGridForTheValueUnderATap() throws {
        var grid = RenderFixtures.planarGrid()
        grid.values = (0..<grid.values.count).map { (k: Int) -> Double in Double(k % 10 * (k / 10)) / 81 }
        let contours = HeatMapContours(
            grid: grid, contourSet: RenderFixtures.twoLevelSet(),
            configuration: HeatMapConfiguration(projection: .planar), summary: InputSummary())
        let html = HeatMapRenderer.html(contours)
        let object = try dataObject(html)
        let field = try #require(object["field"] as? [String: Any])
        let columns = try #require(field["columns"] as? Int), rows = try #require(field["rows"] as? Int)
        let top = try #require(field["max"] as? Double)
        let text = try #require(field["data"] as? String)
        let bytes = [UInt8](try #require(Data(base64Encoded: text)))
        #expect(bytes.count == 2 * columns * rows)
        let g = contours.grid.geometry
        #expect(columns == g.columns && rows == g.rows)  // small grids travel whole
        // Each node decodes to the grid's value within a 16-bit step of its square root.
        for k in 0..<(columns * rows) {
            let q = Double(Int(bytes[2 * k]) | Int(bytes[2 * k + 1]) << 8)
            let v = (q / 65534) * (q / 65534) * top
            let exact = contours.grid.values[k]
            #expect(abs(v.squareRoot() - exact.squareRoot()) <= top.squareRoot() / 65534 + 1e-12)
        }
        #expect(object["units"] as? String == "per square unit")
        let projection = try #require(object["projection"] as? [String: Any])
        #expect(projection["kind"] as? String == "planar")
        let view = try #require(object["view"] as? [String: Any])
        #expect(view["width"] as? Double == 800 && view["height"] as? Double == 600)
    }

    @Test func fieldsOfLargeGridsAreResampled() throws {
        let g = GridGeometry(columns: 1000, rows: 500, x0: 0, y0: 0, dx: 1, dy: 1)
        let values = (0..<g.count).map { Double($0 % 1000) + Double($0 / 1000) }
        let grid = DensityGrid(
            geometry: g, values: values, projection: PlaneProjection(kind: .planar), radius: 3,
            estimator: .density, units: "u")
        let field = try #require(ValueField(grid))
        #expect(field.geometry.columns <= ValueField.maxSide && field.geometry.rows <= ValueField.maxSide)
        // The resampled grid spans the same nodes.
        let last = field.geometry.node(column: field.geometry.columns - 1, row: field.geometry.rows - 1)
        #expect(abs(last.x - 999) < 1e-6 && abs(last.y - 499) < 1e-6)
    }
}
