import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct SVGRenderTests {
    func pixelBox(_ d: String) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let pts = subpaths(d).flatMap { $0 }
        return (pts.map(\.x).min()!, pts.map(\.y).min()!, pts.map(\.x).max()!, pts.map(\.y).max()!)
    }

    @Test func bandsAreOnePathPerLevelWithHolesAsSubpaths() throws {
        let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours()))
        #expect(svg.root?.name == "svg")
        #expect(svg.root?.attr("width") == "800" && svg.root?.attr("height") == "600")
        #expect(svg.root?.attr("viewBox") == "0 0 800 600")
        let bands = svg.elements("path", class: "band")
        #expect(bands.map { $0.attr("data-level") } == ["0", "1"])
        #expect(bands.map { $0.attr("data-threshold") } == ["0.5", "1"])
        #expect(bands.map { $0.attr("data-upper") } == ["1", nil])
        #expect(bands.allSatisfy { $0.attr("fill-rule") == "evenodd" })
        #expect(subpaths(bands[0].attr("d")!).count == 2)  // exterior + hole
        #expect(subpaths(bands[1].attr("d")!).count == 1)
        let g = HeatMapGradient.thermal
        #expect(bands.map { $0.attr("fill") } == [g.color(forLevel: 0, of: 2).hex, g.color(forLevel: 1, of: 2).hex])
        #expect(bands[0].attr("fill-opacity") == NumberText.fixed(g.color(forLevel: 0, of: 2).alpha, decimals: 3))
        #expect(svg.elements("path", class: "isoline").isEmpty)
    }

    @Test func theHoleLinesUpWithTheInnerBand() throws {
        let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours()))
        let bands = svg.elements("path", class: "band")
        let hole = subpaths(bands[0].attr("d")!)[1], inner = subpaths(bands[1].attr("d")!)[0]
        #expect(Set(hole.map { "\($0.x),\($0.y)" }) == Set(inner.map { "\($0.x),\($0.y)" }))
    }

    @Test func aSquareStaysSquareWhateverThePictureShape() throws {
        for (w, h) in [(800.0, 600.0), (300.0, 900.0), (1200.0, 200.0)] {
            var options = HeatMapRenderOptions(width: w, height: h, legend: nil)
            options.margin = 10
            let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours(), options: options))
            let box = pixelBox(svg.elements("path", class: "band")[0].attr("d")!)
            let (bw, bh) = (box.maxX - box.minX, box.maxY - box.minY)
            #expect(abs(bw - bh) <= 0.02, "\(w)×\(h): \(bw) × \(bh)")
            // Fitted: touches the plot on the limiting axis, centred on the other.
            #expect(abs(min(w - 20 - bw, h - 20 - bh)) <= 0.02)
            #expect(abs((box.minX + box.maxX) / 2 - w / 2) <= 0.02)
        }
    }

    @Test func northIsUp() throws {
        // A triangle pointing north in the plane points up in SVG (smaller y).
        let tri = PlanePolygon(exterior: [PlanePoint(x: 0, y: 0), PlanePoint(x: 2, y: 0), PlanePoint(x: 1, y: 5)])
        let set = ContourSet(thresholds: [1], levels: [[tri]], bands: [[tri]], isolines: [[tri.exterior]])
        let svg = try ParsedSVG(
            HeatMapRenderer.svg(
                contourSet: set, projection: PlaneProjection(kind: .planar),
                units: ""))
        let pts = subpaths(svg.elements("path", class: "band")[0].attr("d")!)[0]
        #expect(pts[2].y < pts[0].y && pts[0].y == pts[1].y)
        #expect(pts[0].x < pts[1].x)
    }

    @Test func hexagonsStayRegular() throws {
        let r = 1000.0
        var bins: [BinTile] = []
        for q in -3...3 {
            for rr in -1...1 {
                let cx = r * 3.0.squareRoot() * (Double(q) + Double(rr) / 2), cy = 1.5 * r * Double(rr)
                bins.append(BinTile(corners: RenderFixtures.hexagon(cx, cy, r), count: q + 4, value: Double(q + 4)))
            }
        }
        // A very wide data set in a tall picture: any stretching would show.
        let layer = HeatMapBinLayer(bins: bins, projection: PlaneProjection(kind: .planar))
        let svg = try ParsedSVG(HeatMapRenderer.svg(layer, options: HeatMapRenderOptions(width: 400, height: 900)))
        let shapes = svg.elements("path", class: "bin")
        #expect(shapes.count == bins.count)
        for shape in shapes {
            let corners = subpaths(shape.attr("d")!)[0]
            #expect(corners.count == 6)
            let cx = corners.map(\.x).reduce(0, +) / 6, cy = corners.map(\.y).reduce(0, +) / 6
            let radii = corners.map { (($0.x - cx) * ($0.x - cx) + ($0.y - cy) * ($0.y - cy)).squareRoot() }
            let sides = (0..<6).map { k -> Double in
                let a = corners[k], b = corners[(k + 1) % 6]
                return ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
            // Regular to the output rounding (0.01 px): sides equal the radius.
            #expect(radii.max()! - radii.min()! < 0.03)
            #expect(sides.max()! - sides.min()! < 0.03)
            #expect(abs(sides[0] - radii[0]) < 0.03)
        }
    }

    @Test func binsCarryCountAndValueAndEmptyCellsAreFaint() throws {
        let bins = [
            BinTile(corners: RenderFixtures.hexagon(0, 0, 1), count: 0, value: 0),
            BinTile(corners: RenderFixtures.hexagon(1.732, 0, 1), count: 3, value: 2.5),
            BinTile(corners: RenderFixtures.hexagon(3.464, 0, 1), count: 10, value: 7.25)
        ]
        let layer = HeatMapBinLayer(bins: bins, projection: PlaneProjection(kind: .planar), valueName: "mean depth")
        let svg = try ParsedSVG(HeatMapRenderer.svg(layer, scale: .log))
        let shapes = svg.elements("path", class: "bin")
        #expect(shapes.map { $0.attr("data-count") } == ["0", "3", "10"])
        #expect(shapes.map { $0.attr("data-value") } == ["0", "2.5", "7.25"])
        #expect(shapes.map { $0.attr("data-i") } == ["0", "1", "2"])
        #expect(shapes[0].attr("fill-opacity") == "0.08")
        let scale = HeatMapColorScale(type: .log, domain: 2.5...7.25)
        #expect(shapes[1].attr("fill") == scale.color(for: 2.5).hex)
        #expect(shapes[2].attr("fill") == scale.color(for: 7.25).hex)
        // The legend is titled by the value's name.
        #expect(svg.elements("g", class: "legend").count == 1)
        #expect(svg.texts.contains("mean depth"))
    }

    @Test func renderModes() throws {
        let c = RenderFixtures.contours()
        func parsed(_ mode: HeatMapRenderMode) throws -> ParsedSVG {
            try ParsedSVG(HeatMapRenderer.svg(c, style: HeatMapStyle(renderMode: mode)))
        }
        let filled = try parsed(.filled)
        #expect(filled.elements("path", class: "band").count == 2 && filled.elements("path", class: "isoline").isEmpty)

        let lines = try parsed(.isolines(lineWidth: 2, color: nil))
        #expect(lines.elements("path", class: "band").isEmpty)
        let iso = lines.elements("path", class: "isoline")
        #expect(iso.map { $0.attr("data-level") } == ["0", "1"])
        #expect(iso.map { $0.attr("data-threshold") } == ["0.5", "1"])
        #expect(iso.allSatisfy { $0.attr("fill") == "none" && $0.attr("stroke-width") == "2" })
        #expect(iso[1].attr("stroke") == HeatMapGradient.thermal.color(forLevel: 1, of: 2).hex)
        #expect(iso[1].attr("stroke-opacity") == nil)  // lines are drawn opaque

        let both = try parsed(.filledWithIsolines(lineWidth: 0.5, color: .white))
        #expect(both.elements("path", class: "band").count == 2)
        #expect(both.elements("path", class: "isoline").allSatisfy { $0.attr("stroke") == "#ffffff" })
        // Lines come after (over) the fills.
        let classes = both.elements("path").compactMap { $0.attr("class") }
        #expect(classes == ["band", "band", "isoline", "isoline"])
    }

    @Test func levelsAndIsolineModes() throws {
        var options = HeatMapRenderOptions(contourMode: .levels)
        let levels = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours(), options: options))
        let shapes = levels.elements("path", class: "level")
        #expect(shapes.map { $0.attr("data-level") } == ["0", "1"])
        #expect(subpaths(shapes[0].attr("d")!).count == 1)  // the whole superlevel set, no hole
        #expect(shapes.allSatisfy { $0.attr("data-upper") == nil })
        options.contourMode = .isolines
        let iso = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours(), options: options))
        #expect(iso.elements("path", class: "band").isEmpty && iso.elements("path", class: "isoline").count == 2)
    }

    @Test func isolinesFallBackToTheLevelRings() throws {
        var set = RenderFixtures.twoLevelSet()
        set.isolines = []
        let svg = try ParsedSVG(
            HeatMapRenderer.svg(
                contourSet: set, projection: PlaneProjection(kind: .planar),
                units: "", style: HeatMapStyle(renderMode: .isolines())))
        #expect(svg.elements("path", class: "isoline").count == 2)
    }

    @Test func opacityAppliesToTheDataLayer() throws {
        let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours(), style: HeatMapStyle(fillOpacity: 0.4)))
        let data = svg.elements("g", class: "data")
        #expect(data.count == 1 && data[0].attr("opacity") == "0.4")
        let opaque = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours()))
        #expect(opaque.elements("g", class: "data")[0].attr("opacity") == nil)
    }

    @Test func legendPlacement() throws {
        let c = RenderFixtures.contours()
        let vertical = try ParsedSVG(HeatMapRenderer.svg(c))
        #expect(vertical.elements("g", class: "legend").count == 1)
        #expect(vertical.texts.contains("0.5 per square unit"))
        let horizontal = try ParsedSVG(HeatMapRenderer.svg(c, options: HeatMapRenderOptions(legend: .horizontal)))
        #expect(horizontal.texts.contains("per square unit") && horizontal.texts.contains("0.5"))
        let none = try ParsedSVG(HeatMapRenderer.svg(c, options: HeatMapRenderOptions(legend: nil)))
        #expect(none.elements("g", class: "legend").isEmpty)
        // The legend does not overlap the map.
        let band = pixelBox(vertical.elements("path", class: "band")[0].attr("d")!)
        let legendX = Double(
            vertical.elements("g", class: "legend")[0].attr("transform")!
                .dropFirst("translate(".count).split(separator: " ")[0])!
        #expect(band.maxX < legendX)
    }

    @Test func titleAndAttributionAreText() throws {
        let options = HeatMapRenderOptions(title: "Quakes & storms <2024>", attribution: "© OpenStreetMap contributors")
        let svg = try ParsedSVG(HeatMapRenderer.svg(RenderFixtures.contours(), options: options))
        #expect(svg.elements("text", class: "title").first?.stringValue == "Quakes & storms <2024>")
        #expect(svg.elements("text", class: "attribution").first?.stringValue == "© OpenStreetMap contributors")
        #expect(svg.elements("title").first?.stringValue == "Quakes & storms <2024>")
    }

    @Test func outputIsDeterministicAndCompact() throws {
        let a = HeatMapRenderer.svg(RenderFixtures.contours(), options: HeatMapRenderOptions(width: 777, height: 555))
        let b = HeatMapRenderer.svg(RenderFixtures.contours(), options: HeatMapRenderOptions(width: 777, height: 555))
        #expect(a == b)
        // Every number in path data has at most two decimals.
        let svg = try ParsedSVG(a)
        for path in svg.elements("path") {
            for token in path.attr("d")!.split(whereSeparator: { "MLZ ".contains($0) }) {
                let parts = token.split(separator: ".")
                #expect(parts.count == 1 || parts[1].count <= 2, "\(token)")
            }
        }
    }

    @Test func emptyInputGivesAValidPicture() throws {
        let empty = ContourSet(thresholds: [], levels: [], bands: [], isolines: [])
        let svg = try ParsedSVG(
            HeatMapRenderer.svg(
                contourSet: empty, projection: PlaneProjection(kind: .planar),
                units: "per km²"))
        #expect(svg.elements("path").isEmpty && svg.elements("g", class: "legend").isEmpty)
        let noBins = try ParsedSVG(
            HeatMapRenderer.svg(HeatMapBinLayer(bins: [], projection: PlaneProjection(kind: .planar))))
        #expect(noBins.root?.name == "svg")
        // Thresholds but no polygons yet (e.g. a flat grid): frame falls back to the grid box.
        let flat = ContourSet(thresholds: [1], levels: [[]], bands: [[]], isolines: [[]])
        let c = RenderFixtures.contours(flat)
        #expect(try ParsedSVG(HeatMapRenderer.svg(c)).elements("path").isEmpty)
        // A single degenerate bin and silly sizes do not trap.
        let point = BinTile(
            corners: [PlanePoint(x: 1, y: 1), PlanePoint(x: 1, y: 1), PlanePoint(x: 1, y: 1)],
            count: 1, value: .nan)
        let weird = HeatMapRenderOptions(width: .nan, height: -5)
        let text = HeatMapRenderer.svg(
            HeatMapBinLayer(bins: [point], projection: PlaneProjection(kind: .planar)),
            options: weird)
        #expect(try ParsedSVG(text).root?.attr("width") == "800")
    }
}
