import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct StyleTests {
    @Test func defaultsAndClamping() {
        let s = HeatMapStyle()
        #expect(s.gradient == .thermal && s.fillOpacity == 1 && s.renderMode == .filled)
        #expect(HeatMapStyle(fillOpacity: 3).fillOpacity == 1)
        #expect(HeatMapStyle(fillOpacity: -1).fillOpacity == 0)
        #expect(HeatMapStyle(fillOpacity: .nan).fillOpacity == 1)
        let config = HeatMapConfiguration(gradient: .warm, fillOpacity: 0.6, renderMode: .isolines(lineWidth: 2))
        #expect(
            HeatMapStyle(config) == HeatMapStyle(gradient: .warm, fillOpacity: 0.6, renderMode: .isolines(lineWidth: 2))
        )
    }

    @Test func renderModeDetails() {
        #expect(HeatMapRenderMode.filled.fills && HeatMapRenderMode.filled.isolineStroke == nil)
        #expect(!HeatMapRenderMode.isolines().fills)
        #expect(HeatMapRenderMode.isolines().isolineStroke?.lineWidth == 1)
        #expect(HeatMapRenderMode.filledWithIsolines(lineWidth: -3).isolineStroke?.lineWidth == 0)
        #expect(HeatMapRenderMode(name: "both") == .filledWithIsolines())
        #expect(HeatMapRenderMode(name: "ISOLINES") == .isolines())
        #expect(HeatMapRenderMode(name: "filled") == .filled)
        #expect(HeatMapRenderMode(name: "dots") == nil)
        #expect(HeatMapRenderMode.isolines(lineWidth: 2, color: .white).description == "isolines(2pt, #ffffff)")
    }

    @Test func restylingKeepsTheGeometryAndChangesOnlyTheLook() throws {
        // One computation, two styles: the shapes are identical, the colours differ.
        let contours = RenderFixtures.contours()
        let thermal = try ParsedSVG(HeatMapRenderer.svg(contours, style: HeatMapStyle(gradient: .thermal)))
        let warm = try ParsedSVG(HeatMapRenderer.svg(contours, style: HeatMapStyle(gradient: .warm, fillOpacity: 0.5)))
        let a = thermal.elements("path", class: "band"), b = warm.elements("path", class: "band")
        #expect(a.map { $0.attr("d") } == b.map { $0.attr("d") })
        #expect(a.map { $0.attr("fill") } != b.map { $0.attr("fill") })
        #expect(
            b.map { $0.attr("fill") } == [
                HeatMapGradient.warm.color(forLevel: 0, of: 2).hex,
                HeatMapGradient.warm.color(forLevel: 1, of: 2).hex
            ])
    }

    @Test func withoutAStyleTheConfigurationsLookIsUsed() throws {
        let config = HeatMapConfiguration(gradient: .cool, projection: .planar)
        let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours(configuration: config)))
        #expect(svg.elements("path", class: "band").last?.attr("fill") == HeatMapGradient.cool.colors.last?.hex)
    }
}
