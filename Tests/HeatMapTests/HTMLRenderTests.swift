import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct HTMLRenderTests {
    /// The text between `<script type="application/json" id="hm-data">` and `</script>`.
    func dataBlock(_ html: String) -> String? {
        guard let start = html.range(of: "<script type=\"application/json\" id=\"hm-data\">"),
            let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    func svgBlock(_ html: String) -> String? {
        guard let start = html.range(of: "<svg "), let end = html.range(of: "</svg>") else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func pageIsSelfContained() {
        let html = HeatMapRenderer.html(RenderFixtures.contours())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // No URL of any kind: nothing to fetch, works offline.
        #expect(!html.contains("http:") && !html.contains("https:") && !html.contains("//cdn"))
        #expect(
            !html.contains(" src=") && !html.contains("<link") && !html.contains("@import")
                && !html.contains("url(http"))
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(html.contains("pointermove") && html.contains("pointerdown"))
    }

    @Test func tooltipDataDescribesEachBand() throws {
        let html = HeatMapRenderer.html(RenderFixtures.contours(RenderFixtures.twoLevelSet(thresholds: [0.5, 1.5])))
        let json = try #require(dataBlock(html))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let levels = try #require(object?["levels"] as? [[String]])
        #expect(levels == [["Level 1 of 2", "0.5 – 1.5 per square unit"], ["Level 2 of 2", "≥ 1.5 per square unit"]])
        // The SVG in the page is the same picture, its shapes keyed by data-level.
        let svg = try ParsedSVG(try #require(svgBlock(html)))
        #expect(svg.elements("path", class: "band").map { $0.attr("data-level") } == ["0", "1"])
    }

    @Test func tooltipDataDescribesEachBin() throws {
        let bins = [
            BinTile(
                corners: RenderFixtures.hexagon(0, 0, 1), count: 4, value: 215_000.5, id: "q 0, r 0",
                aggregates: [BinTile.Aggregate(name: "max", value: 390_000)])
        ]
        let layer = HeatMapBinLayer(
            bins: bins, projection: PlaneProjection(kind: .planar),
            valueName: "mean Sale_Price", units: "USD")
        let html = HeatMapRenderer.html(layer)
        let object = try JSONSerialization.jsonObject(with: Data(try #require(dataBlock(html)).utf8)) as? [String: Any]
        let tips = try #require(object?["bins"] as? [[String]])
        #expect(tips == [["q 0, r 0", "centre x 0, y 0", "count: 4", "mean Sale_Price: 215,000 USD", "max: 390,000"]])
        let svg = try ParsedSVG(try #require(svgBlock(html)))
        let shape = try #require(svg.elements("path", class: "bin").first)
        #expect(
            shape.attr("data-count") == "4" && shape.attr("data-value") == "215000.5" && shape.attr("data-i") == "0")
    }

    @Test func userTextCannotBreakOutOfTheScript() throws {
        let hostile = "</script><script>alert(1)</script><!--"
        var options = HeatMapRenderOptions(title: hostile)
        options.attribution = hostile
        let bins = [BinTile(corners: RenderFixtures.hexagon(0, 0, 1), count: 1, value: 1, id: hostile)]
        let layer = HeatMapBinLayer(
            bins: bins, projection: PlaneProjection(kind: .planar), valueName: hostile,
            units: hostile)
        for html in [
            HeatMapRenderer.html(layer, options: options),
            HeatMapRenderer.html(RenderFixtures.contours(units: hostile), options: options)
        ] {
            #expect(!html.contains("<script>alert"))
            #expect(html.components(separatedBy: "<script").count - 1 == 2)
            #expect(html.components(separatedBy: "</script>").count - 1 == 2)
            #expect(html.contains("<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--</title>"))
            // The data still round-trips to the original text.
            let object =
                try JSONSerialization.jsonObject(with: Data(try #require(dataBlock(html)).utf8)) as? [String: Any]
            let all = ((object?["bins"] as? [[String]]) ?? []) + ((object?["levels"] as? [[String]]) ?? [])
            #expect(all.flatMap { $0 }.contains { $0.contains(hostile) })
        }
    }

    @Test func pageIsDeterministic() {
        let a = HeatMapRenderer.html(RenderFixtures.contours(), options: HeatMapRenderOptions(title: "t"))
        let b = HeatMapRenderer.html(RenderFixtures.contours(), options: HeatMapRenderOptions(title: "t"))
        #expect(a == b)
    }
}
