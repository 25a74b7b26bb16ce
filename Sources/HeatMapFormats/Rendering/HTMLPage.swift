import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A self-contained HTML page: a map you can pan and zoom (drag, wheel,
/// pinch, buttons, double-click or double-tap, arrow and +/− keys), the
/// legend beside it (below it on a phone), the title and credits as page
/// text, and a tooltip that answers a tap with the place, the value under
/// it and the band or bin. The tooltip texts and a small copy of the grid
/// travel as JSON in the page; no external URL of any kind, so it works
/// offline, unless the options ask for map tiles: the reader's browser
/// then fetches them from their server.
enum HTMLPage {
    /// How far the basemap reaches beyond the first view, in views on each
    /// side: the page lets you pan that far.
    package static let reach = 1.0

    package static func make(_ scene: PictureScene, _ options: HeatMapRenderOptions) -> String {
        let (_, transform) = PictureComposer.placement(scene, options, mapOnly: true)
        let map = PictureComposer.svg(scene, options, standalone: false, reach: reach, mapOnly: true)
        var title = "Heat map"
        if let t = options.title, !t.isEmpty { title = t }
        let size = options.size
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(MarkupEscaping.text(title))</title>
            <style>
            \(style(maxWidth: size.width))
            </style>
            </head>
            <body>
            <main class="hm-page">

            """
        if let t = options.title, !t.isEmpty { page += "<h1 class=\"hm-title\">" + MarkupEscaping.text(t) + "</h1>\n" }
        page += "<div class=\"hm-body\">\n"
        let label =
            "Map. Drag or use the arrow keys to pan; wheel, pinch, double-click or the plus and minus keys "
            + "to zoom; 0 resets; tap a shape for its details, Escape closes them."
        page +=
            "<div class=\"hm-map\" id=\"hm-map\" tabindex=\"0\" role=\"group\" aria-roledescription=\"map\" "
            + "aria-label=\"" + MarkupEscaping.attribute(label) + "\" aria-describedby=\"hm-alt\">\n"
        page += map
        page += """
            <div class="hm-controls"><button type="button" id="hm-zoom-in" aria-label="Zoom in" title="Zoom in">+</button><button type="button" id="hm-zoom-out" aria-label="Zoom out" title="Zoom out">&#8722;</button><button type="button" id="hm-reset" aria-label="Reset the view" title="Reset the view">&#8634;</button></div>

            """
        if scene.projection.isGeographic, options.scaleBar != false {
            page +=
                "<div class=\"hm-scale\" id=\"hm-scale\" aria-hidden=\"true\"><div class=\"hm-scale-bar\"></div>"
                + "<span class=\"hm-scale-text\"></span></div>\n"
        }
        if options.basemapTiles != nil, scene.projection.isGeographic, let a = options.attribution, !a.isEmpty {
            page += "<div class=\"hm-attribution\">" + MarkupEscaping.text(a) + "</div>\n"
        }
        page += "<div id=\"hm-tip\" role=\"status\" aria-live=\"polite\"></div>\n</div>\n"
        if let legend = scene.legend, let axis = options.legend {
            page += "<aside class=\"hm-legend\" aria-label=\"Legend\">\n"
            let wide = legendSVG(legend.axis(.vertical).length(260), class: "hm-legend-v", id: "hm-legend-bar")
            let narrow = legendSVG(legend.axis(.horizontal).length(300), class: "hm-legend-h", id: "hm-legend-bar-h")
            page +=
                axis == .vertical
                ? wide + narrow : narrow.replacingOccurrences(of: "hm-legend-h", with: "hm-legend-only")
            page += "</aside>\n"
        }
        page += "</div>\n"
        // Over map tiles the attribution is on the map; the line below keeps the rest.
        var credited = options
        if options.basemapTiles != nil, scene.projection.isGeographic { credited.attribution = nil }
        if let credit = PictureComposer.credit(credited, showsWorld: PictureComposer.drawsWorld(scene, options)) {
            page += "<p class=\"hm-credit\">" + MarkupEscaping.text(credit) + "</p>\n"
        }
        page += "<div id=\"hm-alt\" class=\"hm-sr\">" + MarkupEscaping.text(alternative(scene)) + "</div>\n"
        page += "</main>\n"
        page +=
            "<script type=\"application/json\" id=\"hm-data\">"
            + json(scene, transform, options) + "</script>\n"
        page += "<script>\n" + HTMLPageScript.source + "</script>\n</body>\n</html>\n"
        return page
    }

    /// A legend as its own small SVG, drawn at its true size in CSS pixels.
    static func legendSVG(_ legend: HeatMapLegend, class name: String, id: String) -> String {
        let size = legend.size
        var w = SVGWriter()
        let pad = 4.0
        let width = size.width + 2 * pad, height = size.height + 2 * pad
        w.open(
            "svg",
            [
                ("class", name), ("width", SVGWriter.px(width)), ("height", SVGWriter.px(height)),
                ("viewBox", "0 0 \(SVGWriter.px(width)) \(SVGWriter.px(height))"),
                ("font-family", LegendMetrics.fontFamily), ("role", "img"), ("aria-hidden", "true")
            ])
        legend.write(into: &w, x: pad, y: pad)
        w.close("svg")
        // Each legend on the page needs its own gradient id.
        return id == "hm-legend-bar"
            ? w.text
            : w.text.replacingOccurrences(of: "\"hm-legend-bar\"", with: "\"\(id)\"")
                .replacingOccurrences(of: "url(#hm-legend-bar)", with: "url(#\(id))")
    }

    /// The text alternative: what the map shows, in words.
    static func alternative(_ scene: PictureScene) -> String {
        var parts = [scene.summary + "."]
        if !scene.tooltips.levels.isEmpty {
            parts.append(scene.tooltips.levels.map { $0.joined(separator: ": ") }.joined(separator: "; ") + ".")
        }
        if !scene.tooltips.bins.isEmpty {
            let occupied = scene.tooltips.bins.count
            parts.append("\(occupied) cells; tap one for its centre, count and values.")
        }
        return parts.joined(separator: " ")
    }

    /// {"levels": [[line, …], …], "bins": [[line, …], …], "view": …,
    /// "projection": …, "field": …, "units": …} with every string escaped
    /// for JSON inside a script element.
    package static func json(_ scene: PictureScene, _ t: ViewTransform, _ options: HeatMapRenderOptions) -> String {
        func list(_ rows: [[String]]) -> String {
            "["
                + rows.map { "[" + $0.map { JSONEscaping.quoted($0, for: .script) }.joined(separator: ",") + "]" }
                .joined(separator: ",\n") + "]"
        }
        let box = t.drawnBox
        let n = NumberText.data
        var text = "{\"levels\":" + list(scene.tooltips.levels) + ",\n\"bins\":" + list(scene.tooltips.bins)
        text +=
            ",\n\"view\":{\"width\":\(n(t.rect.width)),\"height\":\(n(t.rect.height)),\"scale\":\(n(t.scale)),"
            + "\"left\":\(n(box.minX)),\"top\":\(n(box.maxY)),\"reach\":\(n(reach))}"
        func projection(_ p: PlaneProjection) -> String {
            let kind: String
            switch p.kind {
            case .planar: kind = "planar"
            case .equalArea: kind = "equalArea"
            case .equirectangular: kind = "equirectangular"
            case .webMercator: kind = "webMercator"
            }
            return "{\"kind\":\"" + kind + "\",\"lat0\":\(n(p.centreLatitude)),\"lon0\":\(n(p.centreLongitude))}"
        }
        // The view is in the plane drawn in; the field stays in the data's.
        text += ",\n\"projection\":" + projection(t.warp?.target ?? scene.projection)
        if let warp = t.warp { text += ",\n\"fieldProjection\":" + projection(warp.source) }
        if let tiles = options.basemapTiles, scene.projection.isGeographic {
            text +=
                ",\n\"tiles\":{\"url\":" + JSONEscaping.quoted(tiles.urlTemplate, for: .script)
                + ",\"maxZoom\":\(tiles.maximumZoom)}"
        }
        text += ",\n\"units\":" + JSONEscaping.quoted(scene.valueUnits, for: .script)
        if let f = scene.field {
            let g = f.geometry
            text +=
                ",\n\"field\":{\"columns\":\(g.columns),\"rows\":\(g.rows),\"x0\":\(n(g.x0)),\"y0\":\(n(g.y0)),"
                + "\"dx\":\(n(g.dx)),\"dy\":\(n(g.dy)),\"max\":\(n(f.maximum)),\"data\":\"" + f.encoded + "\"}"
        }
        return text + "}"
    }

    package static func style(maxWidth: Double) -> String {
        """
        html, body { margin: 0; padding: 0; background: #ffffff; color: #222222; }
        body { font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Arial, sans-serif; }
        .hm-page { max-width: \(SVGWriter.px(maxWidth + 200))px; margin: 0 auto; padding: 8px; box-sizing: border-box; }
        .hm-title { font-size: 18px; font-weight: 600; margin: 2px 0 8px; overflow-wrap: anywhere; }
        .hm-body { display: flex; flex-direction: row; align-items: flex-start; gap: 12px; }
        .hm-map { position: relative; flex: 1 1 auto; min-width: 0; max-width: \(SVGWriter.px(maxWidth))px;
          border: 1px solid #d8d8d8; border-radius: 4px; overflow: hidden; touch-action: none; outline: none;
          user-select: none; -webkit-user-select: none; cursor: grab; background: #ffffff; }
        .hm-map:focus-visible { box-shadow: 0 0 0 3px #3b82f6; }
        .hm-map.hm-dragging { cursor: grabbing; }
        svg.heatmap { display: block; width: 100%; height: auto; max-height: calc(100vh - 140px); }
        svg.heatmap path { vector-effect: non-scaling-stroke; }
        svg.heatmap [data-level], svg.heatmap [data-count] { cursor: crosshair; }
        svg.heatmap .hm-active { stroke: #111111; stroke-width: 1.5px; stroke-opacity: 1; }
        .hm-controls { position: absolute; top: 8px; right: 8px; display: flex; flex-direction: column; gap: 4px; }
        .hm-controls button { width: 34px; height: 34px; padding: 0; font: 20px/1 system-ui, sans-serif;
          border: 1px solid #bbbbbb; border-radius: 4px; background: rgba(255, 255, 255, 0.92); color: #222222;
          cursor: pointer; }
        .hm-controls button:focus-visible { outline: 3px solid #3b82f6; }
        .hm-scale { position: absolute; left: 8px; bottom: 8px; display: flex; align-items: flex-end; gap: 6px;
          font-size: 12px; color: #222222; pointer-events: none; text-shadow: 0 0 3px #ffffff, 0 0 3px #ffffff; }
        .hm-scale-bar { height: 5px; border: 2px solid #333333; border-top: none; background: rgba(255, 255, 255, 0.5); }
        .hm-legend { flex: 0 0 auto; padding-top: 8px; }
        .hm-legend svg { display: block; }
        .hm-legend .hm-legend-h { display: none; }
        .hm-attribution { position: absolute; right: 0; bottom: 0; padding: 1px 5px; font-size: 11px;
          color: #333333; background: rgba(255, 255, 255, 0.8); pointer-events: none; }
        .hm-credit { margin: 6px 0 0; font-size: 12px; color: #555555; text-align: right; }
        .hm-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        #hm-tip { position: absolute; display: none; pointer-events: none; z-index: 10; max-width: min(300px, 75%);
          padding: 6px 9px; border-radius: 5px; background: rgba(24, 24, 28, 0.92); color: #ffffff;
          font-size: 13px; line-height: 1.4; white-space: pre-line; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.25); }
        @media (max-width: 640px) {
          .hm-page { padding: 4px; }
          .hm-title { font-size: 16px; }
          .hm-body { flex-direction: column; gap: 4px; }
          .hm-map { width: 100%; }
          .hm-legend { padding-top: 0; max-width: 100%; overflow-x: auto; }
          .hm-legend .hm-legend-v { display: none; }
          .hm-legend .hm-legend-h { display: block; }
          #hm-tip { font-size: 13px; max-width: 70%; }
        }
        """
    }
}
