import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What one picture shows, before layout: the data's plane extent, how
/// to draw it, its legend, and the tooltip texts for the HTML page.
struct PictureScene {
    /// The plane extent of the data (empty when there is none).
    var dataBox: PlaneBox
    /// The plane of the data, used to project the basemap.
    package var projection: PlaneProjection
    /// The legend, before the options' axis is applied; nil for none.
    package var legend: HeatMapLegend?
    /// Opacity of the data layer (the style's fill opacity).
    package var opacity: Double
    /// Draws the data shapes with the given transform.
    var drawData: (inout SVGWriter, ViewTransform) -> Void
    /// Tooltip lines per level (contours) or per bin, as JSON-ready arrays.
    var tooltips: TooltipData
    /// A short description for the SVG's `<desc>`.
    package var summary: String
    /// The values under the shapes, for the page's tooltip (contours of a grid).
    var field: ValueField? = nil
    /// The units of the field's values.
    var valueUnits: String = ""
}

/// Tooltip texts that the HTML page looks up by a shape's data attributes.
struct TooltipData {
    /// Lines for each level, by `data-level`.
    package var levels: [[String]] = []
    /// Lines for each bin, by `data-i`.
    package var bins: [[String]] = []
}

/// Lays a scene out in the picture (title, plot, legend, credit line)
/// and writes the SVG document.
enum PictureComposer {
    /// Where everything goes.
    struct Layout {
        package var width: Double
        package var height: Double
        var margin: Double
        var plot: PixelRect
        package var legend: HeatMapLegend?
        var legendOrigin: (x: Double, y: Double)
        var titleBaseline: Double
        var attributionBaseline: Double
    }

    /// Data shapes snap to a quarter pixel: finer than the eye sees at
    /// 1×, still smooth at the page's first few zoom steps.
    static let dataReducer = PixelPathReducer(step: 0.25)

    static let titleSize = 16.0
    static let attributionSize = 10.0

    /// A font size at most `size` (and at least 8) at which `text` fits in `room` pixels.
    static func fittedSize(_ text: String, _ size: Double, _ room: Double, bold: Bool) -> Double {
        let width = LegendMetrics.textWidth(text, size: size) * (bold ? 1.08 : 1)
        guard width > room, width > 0 else { return size }
        return max(8, (size * room / width * 10).rounded(.down) / 10)
    }

    /// The layout; `mapOnly` gives the whole picture to the plot (a page
    /// sets the title, legend and credits beside it).
    static func layout(_ scene: PictureScene, _ options: HeatMapRenderOptions, mapOnly: Bool = false) -> Layout {
        if mapOnly {
            let (width, height) = options.size
            return Layout(
                width: width, height: height, margin: 0,
                plot: PixelRect(x: 0, y: 0, width: width, height: height), legend: nil,
                legendOrigin: (0, 0), titleBaseline: 0, attributionBaseline: height)
        }
        let (width, height) = options.size
        let m = options.margin.isFinite ? min(max(options.margin, 0), min(width, height) / 4) : 16
        var top = m, bottom = height - m
        let titleBaseline = m + titleSize
        if options.title?.isEmpty == false { top += titleSize + 10 }
        let attributionBaseline = height - m
        if options.attribution?.isEmpty == false || drawsWorld(scene, options) { bottom -= attributionSize + 8 }
        var plot = PixelRect(x: m, y: top, width: max(width - 2 * m, 1), height: max(bottom - top, 1))
        var legend: HeatMapLegend?
        var origin = (x: 0.0, y: 0.0)
        if let axis = options.legend, let base = scene.legend {
            let gap = 16.0
            switch axis {
            case .vertical:
                let length = min(max(plot.height - 40, 60), 320)
                let l = base.axis(.vertical).length(length)
                let size = l.size
                // Give the legend its room only when the map keeps most of the width.
                if size.width + gap < plot.width * 0.5 {
                    plot.width -= size.width + gap
                    origin = (plot.maxX + gap, plot.y + max((plot.height - size.height) / 2, 0))
                    legend = l
                }
            case .horizontal:
                let length = min(max(plot.width * 0.6, 80), 420)
                let l = base.axis(.horizontal).length(length)
                let size = l.size
                if size.height + gap < plot.height * 0.5 {
                    plot.height -= size.height + gap
                    origin = (plot.x + max((plot.width - size.width) / 2, 0), plot.maxY + gap)
                    legend = l
                }
            }
        }
        return Layout(
            width: width, height: height, margin: m, plot: plot, legend: legend, legendOrigin: origin,
            titleBaseline: titleBaseline, attributionBaseline: attributionBaseline)
    }

    /// The plane box the plot shows before fitting (frame option applied).
    static func frameBox(
        _ scene: PictureScene, _ options: HeatMapRenderOptions,
        basemapLines: [[PlanePoint]]
    ) -> PlaneBox {
        switch options.frame {
        case .plane(let box) where !box.isEmpty:
            return box
        case .dataAndBasemap:
            var box = scene.dataBox
            for line in basemapLines { for p in line { box.formUnion(p) } }
            return box
        default:
            return scene.dataBox
        }
    }

    /// The layout and the plane-to-pixel transform of the plot.
    static func placement(
        _ scene: PictureScene, _ options: HeatMapRenderOptions,
        mapOnly: Bool = false
    ) -> (Layout, ViewTransform) {
        let layout = layout(scene, options, mapOnly: mapOnly)
        var framing: [[PlanePoint]] = []
        if case .dataAndBasemap = options.frame {
            framing = BasemapLayer.ownLines(options.basemap, projection: scene.projection)
        }
        return (
            layout,
            ViewTransform(
                fitting: frameBox(scene, options, basemapLines: framing), into: layout.plot,
                warp: warp(scene, options))
        )
    }

    /// A picture over map tiles is drawn in their plane, Web Mercator.
    static func warp(_ scene: PictureScene, _ options: HeatMapRenderOptions) -> PlaneWarp? {
        guard options.basemapTiles != nil, scene.projection.isGeographic else { return nil }
        let warp = PlaneWarp.webMercator(from: scene.projection)
        return warp.source == warp.target ? nil : warp
    }

    /// Whether the picture gets a graticule: on request, else when the view
    /// spans a degree or more, where lines of latitude and longitude help.
    static func showsGraticule(_ scene: PictureScene, _ options: HeatMapRenderOptions, _ t: ViewTransform) -> Bool {
        guard scene.projection.isGeographic else { return false }
        if let asked = options.graticule { return asked }
        return min(t.planeBox.width, t.planeBox.height) >= 111_000
    }

    /// The whole SVG document. `reach` grows the region the basemap is
    /// drawn in, in views on each side, for a page that can be panned;
    /// `mapOnly` leaves out the title, legend, scale bar and credits.
    package static func svg(
        _ scene: PictureScene, _ options: HeatMapRenderOptions, standalone: Bool = true,
        reach: Double = 0, mapOnly: Bool = false
    ) -> String {
        let (layout, transform) = placement(scene, options, mapOnly: mapOnly)
        let basemap = BasemapLayer(options.basemap, projection: scene.projection)
        var w = SVGWriter()
        if standalone { w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") }
        let size = "0 0 \(SVGWriter.px(layout.width)) \(SVGWriter.px(layout.height))"
        // Inline SVG in HTML needs no namespace, so a page holds no URL at all.
        let namespace: [(String, String)] = standalone ? [("xmlns", "http://www.w3.org/2000/svg")] : []
        w.open(
            "svg",
            namespace + [
                ("class", "heatmap"),
                ("width", SVGWriter.px(layout.width)), ("height", SVGWriter.px(layout.height)),
                ("viewBox", size), ("font-family", LegendMetrics.fontFamily)
            ])
        w.raw("\n")
        if let title = options.title, !title.isEmpty { w.textElementNamed("title", title) }
        w.textElementNamed("desc", scene.summary)
        let plot = layout.plot
        w.open("defs", [])
        w.open("clipPath", [("id", "hm-plot")])
        w.element(
            "rect",
            [
                ("x", SVGWriter.px(plot.x)), ("y", SVGWriter.px(plot.y)),
                ("width", SVGWriter.px(plot.width)), ("height", SVGWriter.px(plot.height))
            ])
        w.close("clipPath")
        w.close("defs")
        if let bg = options.background {
            w.element(
                "rect",
                [("class", "background"), ("x", "0"), ("y", "0"), ("width", "100%"), ("height", "100%")]
                    + SVGWriter.fill(bg))
        }
        // Clip the basemap a little outside the plot so line ends are not visibly cut short.
        let view = transform.planeBox
        let slackX = 2 / transform.scale + view.width * reach, slackY = 2 / transform.scale + view.height * reach
        let clip = PlaneBox(
            minX: view.minX - slackX, minY: view.minY - slackY,
            maxX: view.maxX + slackX, maxY: view.maxY + slackY)
        let lineWidth = options.basemapLineWidth.isFinite ? max(options.basemapLineWidth, 0) : 0.75
        let graticule =
            showsGraticule(scene, options, transform)
            ? Graticule(projection: scene.projection, view: transform) : Graticule()

        w.open("g", [("class", "plot"), ("clip-path", "url(#hm-plot)")])
        w.raw("\n")
        w.open("g", [("class", "view"), ("id", "hm-view")])
        w.raw("\n")
        // The page puts the map tiles here, under everything.
        if options.basemapTiles != nil, scene.projection.isGeographic {
            w.element("g", [("class", "tiles"), ("id", "hm-tiles")])
        }
        basemap.writeLand(into: &w, transform, clip: clip, color: options.landColor)
        writeGraticuleLines(&w, graticule, transform, clip)
        if options.basemapPlacement == .under {
            basemap.writeLines(into: &w, transform, clip: clip, color: options.basemapColor, width: lineWidth)
        }
        var dataAttributes: [(String, String)] = [("class", "data")]
        if scene.opacity < 1 { dataAttributes.append(("opacity", NumberText.fixed(scene.opacity, decimals: 3))) }
        w.open("g", dataAttributes)
        w.raw("\n")
        scene.drawData(&w, transform)
        w.close("g")
        if options.basemapPlacement == .over {
            basemap.writeLines(into: &w, transform, clip: clip, color: options.basemapColor, width: lineWidth)
        }
        w.close("g")
        w.close("g")
        writeGraticuleLabels(&w, graticule)
        let showsScaleBar = !mapOnly && (options.scaleBar ?? scene.projection.isGeographic)
        if showsScaleBar, let bar = ScaleBar(projection: scene.projection, view: transform) {
            writeScaleBar(&w, bar, plot)
        }
        if let legend = layout.legend {
            legend.write(into: &w, x: layout.legendOrigin.x, y: layout.legendOrigin.y)
        }
        let room = layout.width - 2 * layout.margin
        if !mapOnly, let title = options.title, !title.isEmpty {
            w.textElement(
                title,
                [
                    ("class", "title"), ("x", SVGWriter.px(layout.margin)),
                    ("y", SVGWriter.px(layout.titleBaseline)),
                    ("font-size", SVGWriter.px(fittedSize(title, titleSize, room, bold: true))),
                    ("font-weight", "600"), ("fill", "#222222")
                ])
        }
        if !mapOnly, let credit = credit(options, showsWorld: basemap.showsWorld) {
            w.textElement(
                credit,
                [
                    ("class", "attribution"), ("x", SVGWriter.px(layout.width - layout.margin)),
                    ("y", SVGWriter.px(layout.attributionBaseline)), ("text-anchor", "end"),
                    ("font-size", SVGWriter.px(fittedSize(credit, attributionSize, room, bold: false))),
                    ("fill", "#666666")
                ])
        }
        w.close("svg")
        return w.text
    }

    /// Whether the built-in world map is drawn (it credits Natural Earth).
    static func drawsWorld(_ scene: PictureScene, _ options: HeatMapRenderOptions) -> Bool {
        scene.projection.isGeographic && options.basemap?.includesWorld == true
    }

    /// The credit line: the caller's, and Natural Earth's when the world map is drawn.
    static func credit(_ options: HeatMapRenderOptions, showsWorld: Bool) -> String? {
        var parts: [String] = []
        if let a = options.attribution, !a.isEmpty { parts.append(a) }
        if showsWorld { parts.append("Basemap: Natural Earth") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    private static func writeGraticuleLines(
        _ w: inout SVGWriter, _ g: Graticule, _ t: ViewTransform,
        _ clip: PlaneBox
    ) {
        var path = SVGPathData()
        for line in g.lines {
            for piece in LineClipper.clip(line, to: clip) {
                path.add(BasemapLayer.reducer.reduce(piece.map(t.pixel), closed: false), closed: false)
            }
        }
        guard !path.isEmpty else { return }
        w.path(
            path,
            [
                ("class", "graticule"), ("fill", "none"), ("vector-effect", "non-scaling-stroke"),
                ("pointer-events", "none"), ("stroke", "#8c96a0"), ("stroke-opacity", "0.35"),
                ("stroke-width", "0.5")
            ])
    }

    private static func writeGraticuleLabels(_ w: inout SVGWriter, _ g: Graticule) {
        guard !g.labels.isEmpty else { return }
        w.open(
            "g",
            [
                ("class", "graticule-labels"), ("id", "hm-graticule-labels"), ("font-size", "9"),
                ("fill", "#5f6870"), ("stroke", "#ffffff"), ("stroke-width", "2.5"),
                ("stroke-opacity", "0.8"), ("paint-order", "stroke"), ("pointer-events", "none")
            ])
        for label in g.labels {
            var a: [(String, String)] = [("x", SVGWriter.px(label.x)), ("y", SVGWriter.px(label.y))]
            if !label.parallel { a.append(("text-anchor", "middle")) }
            // Labels along the top edge: the page moves them down when it enlarges the text.
            if !label.parallel, label.y < g.topEdge + 20 { a.append(("data-edge", "top")) }
            w.textElement(label.text, a)
        }
        w.close("g")
    }

    /// The bar sits at the plot's bottom left, above the meridian labels.
    private static func writeScaleBar(_ w: inout SVGWriter, _ bar: ScaleBar, _ plot: PixelRect) {
        let x = plot.x + 10, y = plot.maxY - 18
        w.open(
            "g",
            [
                ("class", "scalebar"), ("id", "hm-scale"), ("pointer-events", "none"),
                ("data-metres-per-pixel", NumberText.data(bar.metresPerPixel)),
                ("data-x", SVGWriter.px(x)), ("data-y", SVGWriter.px(y)),
                ("data-max", SVGWriter.px(plot.width / 5))
            ])
        let d =
            "M\(SVGWriter.px(x)) \(SVGWriter.px(y - 4))V\(SVGWriter.px(y))H\(SVGWriter.px(x + bar.pixels))"
            + "V\(SVGWriter.px(y - 4))"
        w.element(
            "path",
            [
                ("d", d), ("fill", "none"), ("stroke", "#ffffff"), ("stroke-width", "3"),
                ("stroke-opacity", "0.8")
            ])
        w.element("path", [("d", d), ("fill", "none"), ("stroke", "#333333"), ("stroke-width", "1.2")])
        w.textElement(
            bar.label,
            [
                ("x", SVGWriter.px(x + bar.pixels + 5)), ("y", SVGWriter.px(y + 1)),
                ("font-size", "10"), ("fill", "#333333"), ("stroke", "#ffffff"),
                ("stroke-width", "2.5"), ("stroke-opacity", "0.8"), ("paint-order", "stroke")
            ])
        w.close("g")
    }
}

extension SVGWriter {
    /// `<name>escaped</name>` for title/desc.
    mutating func textElementNamed(_ name: String, _ content: String) {
        open(name, [])
        raw(MarkupEscaping.text(content))
        close(name)
    }
}
