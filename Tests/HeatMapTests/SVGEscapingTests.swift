import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct SVGEscapingTests {
    static let hostile = "<script>alert(1)</script>"

    @Test func titleIsShownAsTextAndRunsNothing() throws {
        let options = HeatMapRenderOptions(title: Self.hostile, attribution: "a\"b' & <c>")
        let text = HeatMapRenderer.svg(RenderFixtures.contours(units: "per <km>²"), options: options)
        #expect(!text.contains("<script"))
        let svg = try ParsedSVG(text)
        #expect(svg.elements("script").isEmpty)
        #expect(svg.elements("text", class: "title").first?.stringValue == Self.hostile)
        #expect(svg.elements("text", class: "attribution").first?.stringValue == "a\"b' & <c>")
        #expect(svg.texts.contains("0.5 per <km>²"))
    }

    @Test func valueNamesAndIdsAreEscaped() throws {
        let bin = BinTile(
            corners: RenderFixtures.hexagon(0, 0, 1), count: 1, value: 1, id: "<img src=x>",
            aggregates: [BinTile.Aggregate(name: "</script>", value: 2)])
        var options = HeatMapRenderOptions()
        options.legendTitle = "x\"><script>alert(2)</script>"
        let layer = HeatMapBinLayer(
            bins: [bin], projection: PlaneProjection(kind: .planar),
            valueName: "<b>price</b>", units: "&euro;")
        let text = HeatMapRenderer.svg(layer, options: options)
        #expect(!text.contains("<script") && !text.contains("<b>") && !text.contains("&euro;"))
        let svg = try ParsedSVG(text)
        #expect(svg.texts.contains("x\"><script>alert(2)</script>"))
    }

    @Test func escapingFunctions() {
        #expect(MarkupEscaping.text("a<b>&c") == "a&lt;b&gt;&amp;c")
        #expect(MarkupEscaping.attribute("\"'\n") == "&quot;&#39;&#10;")
        // Characters XML forbids become U+FFFD rather than breaking the document.
        #expect(MarkupEscaping.text("a\u{0}b\u{1B}c") == "a\u{FFFD}b\u{FFFD}c")
        #expect(
            JSONEscaping.quoted("</script><!--\u{2028}\"\\", for: .script)
                == #""\u003c/script\u003e\u003c!--\u2028\"\\""#)
        #expect(JSONEscaping.quoted("tab\there\u{1}", for: .script) == #""tab\there\u0001""#)
    }

    @Test func controlCharactersStillParse() throws {
        let text = HeatMapRenderer.svg(
            RenderFixtures.contours(),
            options: HeatMapRenderOptions(title: "bell\u{7} null\u{0} ok"))
        let svg = try ParsedSVG(text)
        #expect(svg.elements("text", class: "title").first?.stringValue == "bell\u{FFFD} null\u{FFFD} ok")
    }
}
