import Foundation

/// What one picture shows, before layout: the data's plane extent, how
/// to draw it, its legend, and the tooltip texts for the HTML page.
struct PictureScene {
    /// The plane extent of the data (empty when there is none).
    var dataBox: PlaneBox
    /// The plane of the data, used to project the basemap.
    var projection: PlaneProjection
    /// The legend, before the options' axis is applied; nil for none.
    var legend: HeatMapLegend?
    /// Opacity of the data layer (the style's fill opacity).
    var opacity: Double
    /// Draws the data shapes with the given transform.
    var drawData: (inout SVGWriter, ViewTransform) -> Void
    /// Tooltip lines per level (contours) or per bin, as JSON-ready arrays.
    var tooltips: TooltipData
    /// A short description for the SVG's `<desc>`.
    var summary: String
}

/// Tooltip texts that the HTML page looks up by a shape's data attributes.
struct TooltipData {
    /// Lines for each level, by `data-level`.
    var levels: [[String]] = []
    /// Lines for each bin, by `data-i`.
    var bins: [[String]] = []
}

/// Lays a scene out in the picture (title, plot, legend, credit line)
/// and writes the SVG document.
enum PictureComposer {
    /// Where everything goes.
    struct Layout {
        var width: Double
        var height: Double
        var margin: Double
        var plot: PixelRect
        var legend: HeatMapLegend?
        var legendOrigin: (x: Double, y: Double)
        var titleBaseline: Double
        var attributionBaseline: Double
    }

    static let titleSize = 16.0
    static let attributionSize = 10.0

    /// A font size at most `size` (and at least 8) at which `text` fits in `room` pixels.
    static func fittedSize(_ text: String, _ size: Double, _ room: Double, bold: Bool) -> Double {
        let width = LegendMetrics.textWidth(text, size: size) * (bold ? 1.08 : 1)
        guard width > room, width > 0 else { return size }
        return max(8, (size * room / width * 10).rounded(.down) / 10)
    }

    static func layout(_ scene: PictureScene, _ options: HeatMapRenderOptions) -> Layout {
        let (width, height) = options.size
        let m = options.margin.isFinite ? min(max(options.margin, 0), min(width, height) / 4) : 16
        var top = m, bottom = height - m
        let titleBaseline = m + titleSize
        if options.title?.isEmpty == false { top += titleSize + 10 }
        let attributionBaseline = height - m
        if options.attribution?.isEmpty == false { bottom -= attributionSize + 8 }
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
        return Layout(width: width, height: height, margin: m, plot: plot, legend: legend, legendOrigin: origin,
                      titleBaseline: titleBaseline, attributionBaseline: attributionBaseline)
    }

    /// The plane box the plot shows before fitting (frame option applied).
    static func frameBox(_ scene: PictureScene, _ options: HeatMapRenderOptions,
                         basemapLines: [[PlanePoint]]) -> PlaneBox {
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

    /// The whole SVG document.
    static func svg(_ scene: PictureScene, _ options: HeatMapRenderOptions, standalone: Bool = true) -> String {
        let layout = layout(scene, options)
        let projectedBasemap = options.basemap?.planeLines(scene.projection) ?? []
        let transform = ViewTransform(fitting: frameBox(scene, options, basemapLines: projectedBasemap),
                                      into: layout.plot)
        var w = SVGWriter()
        if standalone { w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") }
        let size = "0 0 \(SVGWriter.px(layout.width)) \(SVGWriter.px(layout.height))"
        // Inline SVG in HTML needs no namespace, so a page holds no URL at all.
        let namespace: [(String, String)] = standalone ? [("xmlns", "http://www.w3.org/2000/svg")] : []
        w.open("svg", namespace + [("class", "heatmap"),
                                   ("width", SVGWriter.px(layout.width)), ("height", SVGWriter.px(layout.height)),
                                   ("viewBox", size), ("font-family", LegendMetrics.fontFamily)])
        w.raw("\n")
        if let title = options.title, !title.isEmpty { w.textElementNamed("title", title) }
        w.textElementNamed("desc", scene.summary)
        let plot = layout.plot
        w.open("defs", [])
        w.open("clipPath", [("id", "hm-plot")])
        w.element("rect", [("x", SVGWriter.px(plot.x)), ("y", SVGWriter.px(plot.y)),
                           ("width", SVGWriter.px(plot.width)), ("height", SVGWriter.px(plot.height))])
        w.close("clipPath")
        w.close("defs")
        if let bg = options.background {
            w.element("rect", [("class", "background"), ("x", "0"), ("y", "0"), ("width", "100%"), ("height", "100%")]
                              + SVGWriter.fill(bg))
        }
        if options.basemapPlacement == .under { writeBasemap(&w, projectedBasemap, transform, options) }
        var dataAttributes: [(String, String)] = [("class", "data"), ("clip-path", "url(#hm-plot)")]
        if scene.opacity < 1 { dataAttributes.append(("opacity", NumberText.fixed(scene.opacity, decimals: 3))) }
        w.open("g", dataAttributes)
        w.raw("\n")
        scene.drawData(&w, transform)
        w.close("g")
        if options.basemapPlacement == .over { writeBasemap(&w, projectedBasemap, transform, options) }
        if let legend = layout.legend {
            legend.write(into: &w, x: layout.legendOrigin.x, y: layout.legendOrigin.y)
        }
        let room = layout.width - 2 * layout.margin
        if let title = options.title, !title.isEmpty {
            w.textElement(title, [("class", "title"), ("x", SVGWriter.px(layout.margin)),
                                  ("y", SVGWriter.px(layout.titleBaseline)),
                                  ("font-size", SVGWriter.px(fittedSize(title, titleSize, room, bold: true))),
                                  ("font-weight", "600"), ("fill", "#222222")])
        }
        if let credit = options.attribution, !credit.isEmpty {
            w.textElement(credit, [("class", "attribution"), ("x", SVGWriter.px(layout.width - layout.margin)),
                                   ("y", SVGWriter.px(layout.attributionBaseline)), ("text-anchor", "end"),
                                   ("font-size", SVGWriter.px(fittedSize(credit, attributionSize, room, bold: false))),
                                   ("fill", "#666666")])
        }
        w.close("svg")
        return w.text
    }

    /// Basemap lines clipped to the plot, unfilled, ignoring the pointer.
    private static func writeBasemap(_ w: inout SVGWriter, _ lines: [[PlanePoint]], _ t: ViewTransform,
                                     _ options: HeatMapRenderOptions) {
        guard !lines.isEmpty else { return }
        // Clip a little outside the plot so line ends are not visibly cut short.
        var box = t.planeBox
        let slack = 2 / t.scale
        box = PlaneBox(minX: box.minX - slack, minY: box.minY - slack, maxX: box.maxX + slack, maxY: box.maxY + slack)
        var path = SVGPathData()
        for line in lines {
            for piece in LineClipper.clip(line, to: box) {
                path.add(piece.map(t.pixel), closed: false)
            }
        }
        guard !path.isEmpty else { return }
        let width = options.basemapLineWidth.isFinite ? max(options.basemapLineWidth, 0) : 0.75
        w.path(path, [("class", "basemap"), ("fill", "none"),
                           ("stroke-linejoin", "round"), ("stroke-linecap", "round"), ("pointer-events", "none"),
                           ("clip-path", "url(#hm-plot)")]
                          + SVGWriter.stroke(options.basemapColor, width: width))
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
