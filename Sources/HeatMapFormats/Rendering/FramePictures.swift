import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Pictures of the frames of a time series, all on one view, one legend
/// and one set of thresholds (docs/time.md): SVG small multiples, and an
/// offline HTML page with a time slider. Frames are added one at a time;
/// only their drawn text is kept.
package struct FramePictures {
    /// One frame as drawn: its label and, for the page, its bands and values.
    private struct Drawn {
        var label: String
        var start: String
        var end: String
        var svg: String
        var field: (columns: Int, rows: Int, x0: Double, y0: Double, dx: Double, dy: Double, values: [Double])
    }

    private let options: HeatMapRenderOptions
    private let thresholds: [Double]
    private let units: String
    private let style: HeatMapStyle
    private var drawn: [Drawn] = []
    private var view: PlaneBox?
    private var projection: PlaneProjection?

    /// Pictures at `thresholds` (in `units`), styled by `style`.
    package init(options: HeatMapRenderOptions, thresholds: [Double], units: String, style: HeatMapStyle) {
        self.options = options
        self.thresholds = thresholds
        self.units = units
        self.style = style
    }

    /// The scene of a frame on the shared view (the whole grid), without a legend.
    private func scene(_ contours: HeatMapContours, options: HeatMapRenderOptions) -> PictureScene {
        var scene = ContourScene.make(
            set: contours.contourSet, fallbackBox: contours.grid.geometry.cellBox,
            projection: contours.projection, units: units, style: style, options: options,
            grid: nil)
        scene.dataBox = contours.grid.geometry.cellBox
        return scene
    }

    /// Cell size of the small multiples.
    static let cell = (width: 320.0, height: 250.0)
    /// Room above each cell's map for its dates.
    static let labelHeight = 24.0
    /// Most field nodes per side the page keeps for taps.
    static let fieldSide = 160

    /// Adds the next frame, labelled from `start` to `end` (ISO 8601).
    package mutating func add(_ contours: HeatMapContours, start: String, end: String, forPage: Bool) {
        let label = FramePictures.label(start: start, end: end)
        var o = options
        o.legend = nil
        o.title = label
        let svg: String
        if forPage {
            o.basemap = HeatMapBasemap(lines: [])
            o.graticule = false
            svg = FramePictures.dataGroup(
                PictureComposer.svg(
                    scene(contours, options: o), o, standalone: false,
                    mapOnly: true))
        } else {
            // The map alone: the label goes above it and the credit once below all.
            o.width = FramePictures.cell.width - 8
            o.height = FramePictures.cell.height - FramePictures.labelHeight
            o.graticule = false
            svg = PictureComposer.svg(scene(contours, options: o), o, standalone: false, mapOnly: true)
        }
        if view == nil {
            view = contours.grid.geometry.cellBox
            projection = contours.projection
        }
        var field = (columns: 0, rows: 0, x0: 0.0, y0: 0.0, dx: 0.0, dy: 0.0, values: [Double]())
        if forPage {
            let g = contours.grid.geometry
            let step = max(1, (max(g.columns, g.rows) + FramePictures.fieldSide - 1) / FramePictures.fieldSide)
            let columns = (g.columns + step - 1) / step, rows = (g.rows + step - 1) / step
            var values: [Double] = []
            values.reserveCapacity(columns * rows)
            for r in 0..<rows {
                for c in 0..<columns { values.append(contours.grid.values[(r * step) * g.columns + c * step]) }
            }
            field = (columns, rows, g.x0, g.y0, g.dx * Double(step), g.dy * Double(step), values)
        }
        drawn.append(Drawn(label: label, start: start, end: end, svg: svg, field: field))
    }

    /// "2021-01-01 – 2021-01-08" (times shown only when a bound has one).
    static func label(start: String, end: String) -> String {
        func short(_ s: String) -> String {
            s.hasSuffix("T00:00:00Z")
                ? String(s.dropLast(10))
                : s.replacingOccurrences(of: "T", with: " ")
                    .replacingOccurrences(of: ":00Z", with: " UTC")
        }
        return "\(short(start)) – \(short(end))"
    }

    /// The inside of the data group of a map-only SVG (the frame's bands).
    static func dataGroup(_ svg: String) -> String {
        guard let open = svg.range(of: "<g class=\"data\""), let tagEnd = svg[open.upperBound...].range(of: ">"),
            let close = svg[tagEnd.upperBound...].range(of: "</g>")
        else { return "" }
        return String(svg[tagEnd.upperBound..<close.lowerBound])
    }

    /// The legend, once.
    private var legend: HeatMapLegend? {
        guard !thresholds.isEmpty else { return nil }
        return HeatMapLegend(thresholds: thresholds, units: units, gradient: style.gradient)
            .labels(options.legendLabels).title(options.legendTitle).opacity(style.fillOpacity)
    }

    /// Small multiples: the frames in rows, each labelled with its dates, one legend below.
    package func smallMultiples() -> String {
        let n = drawn.count
        let columns = max(1, min(n, Int(Double(n).squareRoot().rounded(.up)), 8))
        let rows = (n + columns - 1) / columns
        let cell = FramePictures.cell
        let margin = 12.0
        let legend = self.legend?.axis(.horizontal).length(min(420, Double(columns) * cell.width - 2 * margin))
        let legendHeight = legend.map { $0.size.height + 2 * margin } ?? 0
        let titleHeight = (options.title?.isEmpty ?? true) ? 0 : 30.0
        let width = Double(columns) * cell.width + 2 * margin
        let height = titleHeight + Double(rows) * cell.height + legendHeight + 2 * margin
        var w = SVGWriter()
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        w.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("class", "heatmap-frames"),
                ("width", SVGWriter.px(width)), ("height", SVGWriter.px(height)),
                ("viewBox", "0 0 \(SVGWriter.px(width)) \(SVGWriter.px(height))"),
                ("font-family", LegendMetrics.fontFamily)
            ])
        w.raw("\n")
        if let title = options.title, !title.isEmpty {
            w.textElementNamed("title", title)
            w.textElement(
                title,
                [
                    ("x", SVGWriter.px(margin)), ("y", SVGWriter.px(margin + 16)),
                    ("font-size", "16"), ("font-weight", "600"), ("fill", "#222222")
                ])
        }
        w.textElementNamed(
            "desc",
            "\(n) frames from \(drawn.first?.start ?? "") to \(drawn.last?.end ?? ""), "
                + "one grid, radius and set of thresholds")
        for (k, frame) in drawn.enumerated() {
            let x = margin + Double(k % columns) * cell.width
            let y = margin + titleHeight + Double(k / columns) * cell.height
            // Each cell's SVG is nested at its place; ids are made unique per frame.
            var inner = frame.svg.replacingOccurrences(of: "hm-plot", with: "hm-plot-\(k)")
                .replacingOccurrences(of: "id=\"hm-view\"", with: "id=\"hm-view-\(k)\"")
            if let open = inner.range(of: "<svg ") {
                inner.replaceSubrange(
                    open,
                    with:
                        "<svg x=\"\(SVGWriter.px(x))\" y=\"\(SVGWriter.px(y + FramePictures.labelHeight))\" data-frame=\"\(k)\" "
                )
            }
            w.textElement(
                frame.label,
                [
                    ("class", "frame-label"), ("x", SVGWriter.px(x + 4)), ("y", SVGWriter.px(y + 16)),
                    ("font-size", "13"), ("font-weight", "600"), ("fill", "#222222")
                ])
            w.raw(inner)
            w.raw("\n")
        }
        if let legend {
            legend.write(into: &w, x: margin, y: height - legendHeight + margin / 2)
        }
        if let credit = PictureComposer.credit(options, showsWorld: options.basemap?.includesWorld ?? false) {
            w.textElement(
                credit,
                [
                    ("class", "attribution"), ("x", SVGWriter.px(width - margin)),
                    ("y", SVGWriter.px(height - margin)), ("text-anchor", "end"),
                    ("font-size", "10"), ("fill", "#666666")
                ])
        }
        w.close("svg")
        return w.text
    }

    /// One frame alone, full size with its legend and its dates as the title.
    package static func single(
        _ contours: HeatMapContours, start: String, end: String, thresholds: [Double],
        units: String, style: HeatMapStyle, options: HeatMapRenderOptions
    ) -> String {
        var o = options
        let label = FramePictures.label(start: start, end: end)
        o.title = (options.title.map { $0 + " · " } ?? "") + label
        var pictures = FramePictures(options: o, thresholds: thresholds, units: units, style: style)
        var scene = pictures.scene(contours, options: o)
        scene.legend = pictures.legend
        pictures.drawn = []
        return PictureComposer.svg(scene, o)
    }

    /// The page: the shared basemap drawn once, each frame's bands in a
    /// group shown by the slider, one legend, the dates, play/pause,
    /// arrow keys, and a tap that answers the shown frame's value and band.
    package func page() -> String {
        guard let view, let projection, let first = drawn.first else { return "" }
        var o = options
        o.legend = nil
        o.title = nil
        // The base: the basemap and graticule on the shared view, no data.
        let empty = PictureScene(
            dataBox: view, projection: projection, legend: nil, opacity: style.fillOpacity,
            drawData: { _, _ in }, tooltips: TooltipData(), summary: "Map over time")
        let (_, transform) = PictureComposer.placement(empty, o, mapOnly: true)
        var map = PictureComposer.svg(empty, o, standalone: false, mapOnly: true)
        var frames = ""
        for (k, frame) in drawn.enumerated() {
            frames +=
                "<g class=\"hm-frame\" data-frame=\"\(k)\"\(k == 0 ? "" : " display=\"none\"")>"
                + frame.svg + "</g>\n"
        }
        if let open = map.range(of: "<g class=\"data\""), let tagEnd = map[open.upperBound...].range(of: ">") {
            map.insert(contentsOf: "\n" + frames, at: tagEnd.upperBound)
        }
        let box = transform.planeBox
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        func short(_ v: Double) -> String {
            guard v.isFinite else { return "null" }
            if v == 0 { return "0" }
            return String(format: "%.6g", v)
        }
        var data = "{\"thresholds\":[" + thresholds.map(number).joined(separator: ",") + "]"
        data += ",\"units\":" + JSONEscaping.quoted(units, for: .script)
        data +=
            ",\"view\":{\"left\":\(number(box.minX)),\"top\":\(number(box.maxY)),\"scale\":\(number(transform.scale))"
        data += ",\"x\":\(number(transform.rect.x)),\"y\":\(number(transform.rect.y))}"
        data += ",\"frames\":[\n"
        for (k, frame) in drawn.enumerated() {
            let f = frame.field
            if k > 0 { data += ",\n" }
            data +=
                "{\"start\":\"\(frame.start)\",\"end\":\"\(frame.end)\",\"label\":"
                + JSONEscaping.quoted(frame.label, for: .script)
            data +=
                ",\"field\":{\"columns\":\(f.columns),\"rows\":\(f.rows),\"x0\":\(number(f.x0)),\"y0\":\(number(f.y0))"
            data +=
                ",\"dx\":\(number(f.dx)),\"dy\":\(number(f.dy)),\"values\":["
                + f.values.map(short).joined(separator: ",") + "]}}"
        }
        data += "]}"
        let colors = (0..<thresholds.count).map { style.gradient.color(forLevel: $0, of: thresholds.count).hex }
        data = data.dropLast() + ",\"colors\":[" + colors.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        let title = options.title ?? "Heat map over time"
        var legendHTML = ""
        if let legend = legend {
            legendHTML = HTMLPage.legendSVG(
                legend.axis(.vertical).length(260), class: "hm-legend-v", id: "hm-legend-bar")
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(MarkupEscaping.text(title))</title>
            <style>
            body{margin:0;font:14px/1.4 \(LegendMetrics.fontFamily);color:#222;background:#fff}
            .hm-page{max-width:\(Int(options.width) + 320)px;margin:0 auto;padding:12px}
            .hm-body{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
            .hm-map{position:relative;flex:1 1 auto;min-width:0}
            .hm-map svg{width:100%;height:auto;display:block}
            .hm-time{display:flex;gap:10px;align-items:center;margin:8px 0}
            .hm-time input{flex:1}
            .hm-time button{min-width:5em;padding:4px 10px}
            #hm-date{font-weight:600;font-variant-numeric:tabular-nums;min-width:15em}
            #hm-tip{position:absolute;display:none;background:rgba(255,255,255,.95);border:1px solid #999;border-radius:4px;padding:4px 8px;pointer-events:none;font-size:13px;white-space:nowrap}
            h1{font-size:18px;margin:4px 0 8px}
            </style>
            </head>
            <body>
            <main class="hm-page">
            <h1>\(MarkupEscaping.text(title))</h1>
            <div class="hm-time" role="group" aria-label="Time">
            <button type="button" id="hm-play" aria-label="Play">Play</button>
            <input type="range" id="hm-slider" min="0" max="\(drawn.count - 1)" value="0" step="1" aria-label="Frame" aria-valuetext="\(MarkupEscaping.attribute(first.label))">
            <output id="hm-date" for="hm-slider" aria-live="polite">\(MarkupEscaping.text(first.label))</output>
            </div>
            <div class="hm-body">
            <div class="hm-map" id="hm-map" tabindex="0" aria-label="Map; left and right arrow keys step through time, space plays or pauses; tap for the value">
            \(map)
            <div id="hm-tip" role="status" aria-live="polite"></div>
            </div>
            <aside class="hm-legend" aria-label="Legend">\(legendHTML)</aside>
            </div>
            </main>
            <script type="application/json" id="hm-data">\(data)</script>
            <script>
            \(FramePictures.script)
            </script>
            </body>
            </html>

            """
    }

    /// The page's script: the slider, play/pause, keys, and taps.
    static let script = """
        (function(){
        "use strict";
        var data=JSON.parse(document.getElementById("hm-data").textContent);
        var frames=document.querySelectorAll("g.hm-frame"),slider=document.getElementById("hm-slider");
        var date=document.getElementById("hm-date"),play=document.getElementById("hm-play");
        var map=document.getElementById("hm-map"),tip=document.getElementById("hm-tip"),svg=map.querySelector("svg");
        var current=0,timer=null,last=null;
        function show(k){
          k=Math.max(0,Math.min(frames.length-1,k));
          frames[current].setAttribute("display","none");frames[k].removeAttribute("display");
          current=k;slider.value=String(k);date.textContent=data.frames[k].label;
          slider.setAttribute("aria-valuetext",data.frames[k].label);
          if(last){answer(last.x,last.y,last.cx,last.cy);}
        }
        function stop(){if(timer){clearInterval(timer);timer=null;}play.textContent="Play";play.setAttribute("aria-label","Play");}
        function start(){if(current>=frames.length-1){show(0);}timer=setInterval(function(){if(current>=frames.length-1){stop();}else{show(current+1);}},600);play.textContent="Pause";play.setAttribute("aria-label","Pause");}
        play.addEventListener("click",function(){if(timer){stop();}else{start();}});
        slider.addEventListener("input",function(){stop();show(+slider.value);});
        document.addEventListener("keydown",function(e){
          if(e.target===slider){if(e.key===" "){e.preventDefault();timer?stop():start();}return;}
          if(e.key==="ArrowRight"){stop();show(current+1);e.preventDefault();}
          else if(e.key==="ArrowLeft"){stop();show(current-1);e.preventDefault();}
          else if(e.key===" "){e.preventDefault();timer?stop():start();}
          else if(e.key==="Escape"){tip.style.display="none";last=null;}
        });
        function format(v){if(v===0){return "0";}var a=Math.abs(v);return a>=1e4||a<1e-3?v.toPrecision(3):(+v.toPrecision(3)).toString();}
        function valueAt(f,x,y){
          var c=Math.round((x-f.x0)/f.dx),r=Math.round((y-f.y0)/f.dy);
          if(c<0||r<0||c>=f.columns||r>=f.rows){return null;}
          return f.values[r*f.columns+c];
        }
        function answer(x,y,cx,cy){
          var f=data.frames[current].field,v=valueAt(f,x,y),t=data.thresholds,u=data.units?" "+data.units:"";
          var band=-1;if(v!==null){for(var i=0;i<t.length;i++){if(v>=t[i]){band=i;}}}
          var lines=[data.frames[current].label];
          if(v===null){lines.push("outside the grid");}
          else{lines.push("value "+format(v)+u);
            lines.push(band<0?"below the lowest level":"level "+(band+1)+" of "+t.length+": "+format(t[band])+(band+1<t.length?" – "+format(t[band+1]):" and above")+u);}
          tip.textContent="";lines.forEach(function(s,i){if(i){tip.appendChild(document.createElement("br"));}tip.appendChild(document.createTextNode(s));});
          tip.style.display="block";tip.style.left=(cx+12)+"px";tip.style.top=(cy+12)+"px";
          tip.dataset.value=v===null?"":String(v);tip.dataset.band=String(band);tip.dataset.frame=String(current);tip.dataset.x=String(x);tip.dataset.y=String(y);
        }
        svg.addEventListener("click",function(e){
          var pt=svg.createSVGPoint();pt.x=e.clientX;pt.y=e.clientY;
          var p=pt.matrixTransform(svg.getScreenCTM().inverse());
          var v=data.view,x=v.left+(p.x-v.x)/v.scale,y=v.top-(p.y-v.y)/v.scale;
          var rect=map.getBoundingClientRect();
          last={x:x,y:y,cx:e.clientX-rect.left,cy:e.clientY-rect.top};
          answer(x,y,last.cx,last.cy);
        });
        window.hmFrames={show:show,count:frames.length,current:function(){return current;}};
        })();
        """
}
