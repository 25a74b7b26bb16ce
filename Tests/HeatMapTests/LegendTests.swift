import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct LegendTests {
    @Test func contoursLegendLabelsTheThresholdsWithUnits() throws {
        let legend = HeatMapLegend(
            contours: RenderFixtures.contours(RenderFixtures.twoLevelSet(thresholds: [0.5, 1.5])))
        #expect(legend.labelTexts == ["0.5 per square unit", "1.5 per square unit"])
        let svg = try ParsedSVG(legend.svg())
        #expect(svg.root?.name == "svg")
        #expect(svg.texts == ["0.5 per square unit", "1.5 per square unit"])
        // One swatch per level, in the renderer's level colours.
        let swatches = svg.elements("rect").filter { $0.attr("stroke") == nil }
        #expect(
            swatches.map { $0.attr("fill") } == [
                HeatMapGradient.thermal.color(forLevel: 0, of: 2).hex,
                HeatMapGradient.thermal.color(forLevel: 1, of: 2).hex
            ])
        // Low at the bottom: the level-0 swatch lies below the level-1 swatch.
        let y0 = Double(swatches[0].attr("y")!)!, y1 = Double(swatches[1].attr("y")!)!
        #expect(y0 > y1)
    }

    @Test func numbersReadWellInLabels() {
        let legend = HeatMapLegend(thresholds: [0.1, 0.2, 0.1 + 0.2], units: "per km²")
        #expect(legend.labelTexts == ["0.1 per km²", "0.2 per km²", "0.3 per km²"])
    }

    @Test func horizontalLegendPutsUnitsInTheCaption() throws {
        let legend = HeatMapLegend(thresholds: [0.5, 1, 1.5, 2], units: "quakes per km²").axis(.horizontal)
        #expect(legend.labelTexts == ["0.5", "1", "1.5", "2"])
        let svg = try ParsedSVG(legend.svg())
        #expect(svg.texts.first == "quakes per km²")
        let titled = try ParsedSVG(legend.title("Density").svg())
        #expect(titled.texts.first == "Density (quakes per km²)")
        // Labels run left to right.
        let xs = svg.elements("text").dropFirst().map { Double($0.attr("x")!)! }
        #expect(xs == xs.sorted() && Set(xs).count == xs.count)
        #expect(legend.size.width > legend.size.height)
    }

    @Test func labelModesMirrorTheApplePackage() {
        let base = HeatMapLegend(gradient: .warm, levelCount: 5)
        #expect(base.labelTexts == ["Low", "High"])  // thresholds fall back to low/high
        #expect(base.labels(.lowHigh).labelTexts == ["Low", "High"])
        #expect(base.labels(.customLowHigh(low: "Cold", high: "Hot")).labelTexts == ["Cold", "Hot"])
        #expect(base.labels(.hidden).labelTexts.isEmpty)
        #expect(HeatMapLegend(gradient: .warm, levelCount: 0).svg().contains("<rect"))  // clamps to one level
        #expect(HeatMapLegend.Axis.allCases.map(\.rawValue) == ["vertical", "horizontal"])
    }

    @Test func crowdedLabelsAreThinnedWithoutOverlap() {
        let thresholds = (1...50).map { Double($0) / 10 }
        let legend = HeatMapLegend(thresholds: thresholds, units: "per km²").length(200)
        let texts = legend.labelTexts
        #expect(texts.count < 50 && texts.count >= 10)
        #expect(texts.first == "0.1 per km²")
        let layout = legend.layout()
        for (a, b) in zip(layout.labels, layout.labels.dropFirst()) {
            #expect((b.position - a.position) * 200 >= LegendMetrics.fontSize)
        }
        let wide = HeatMapLegend(thresholds: thresholds, units: "").axis(.horizontal).length(260).layout()
        for (a, b) in zip(wide.labels, wide.labels.dropFirst()) {
            let gap = (b.position - a.position) * 260
            #expect(gap >= (LegendMetrics.textWidth(a.text) + LegendMetrics.textWidth(b.text)) / 2)
        }
    }

    @Test func userTextIsEscaped() throws {
        let legend = HeatMapLegend(gradient: .cool, levelCount: 3)
            .labels(.customLowHigh(low: "<b>low</b>", high: "R&D \"hot\""))
            .title("</text><script>alert(1)</script>")
        let text = legend.svg()
        #expect(!text.contains("<script"))
        let svg = try ParsedSVG(text)
        #expect(svg.texts == ["</text><script>alert(1)</script>", "<b>low</b>", "R&D \"hot\""])
        #expect(svg.elements("script").isEmpty)
    }

    @Test func binLegendShowsScaleTicksAndTheZeroSwatch() throws {
        let scale = HeatMapColorScale(type: .log, domain: 1...1000)
        let legend = HeatMapLegend(colorScale: scale, units: "", showsZero: true).title("count")
        #expect(legend.labelTexts == ["1", "10", "100", "1000"])
        let svg = try ParsedSVG(legend.svg())
        #expect(svg.texts == ["count", "1", "10", "100", "1000", "0"])
        #expect(svg.elements("linearGradient").count == 1)
        #expect(svg.elements("stop").count == 17)
        // The zero swatch wears the faint zero colour.
        #expect(svg.elements("rect").contains { $0.attr("fill-opacity") == "0.08" })
        // Ticks sit where the scale places them: 10 is a third of the way up a log bar.
        let layout = legend.layout()
        #expect(abs(layout.labels[1].position - 1.0 / 3) < 1e-12)
    }

    @Test func swatchesFollowTheStyleOpacity() throws {
        let svg = try ParsedSVG(HeatMapLegend(thresholds: [1, 2], units: "").opacity(0.5).svg())
        let swatch = svg.elements("rect").first { $0.attr("stroke") == nil }!
        let alpha = HeatMapGradient.thermal.color(forLevel: 0, of: 2).alpha * 0.5
        #expect(swatch.attr("fill-opacity") == NumberText.fixed(alpha, decimals: 3))
    }
}
