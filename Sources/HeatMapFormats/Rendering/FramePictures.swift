import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Pictures of the frames of a time series, all on one view, one legend
/// and one set of thresholds (docs/time.md): SVG small multiples, and an
/// offline HTML page with a time slider. Small multiples are added one
/// frame at a time (only their drawn text is kept); the page is written
/// a frame at a time.
package struct FramePictures {
    /// One small multiple as drawn: its label, dates and bands.
    private struct Drawn {
        var label: String
        var start: String
        var end: String
        var svg: String
    }

    private let options: HeatMapRenderOptions
    private let thresholds: [Double]
    private let units: String
    private let style: HeatMapStyle
    private var drawn: [Drawn] = []

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

    /// Adds the next frame of the small multiples, labelled from `start`
    /// to `end` (ISO 8601).
    package mutating func add(_ contours: HeatMapContours, start: String, end: String) {
        let label = FramePictures.label(start: start, end: end)
        var o = options
        o.legend = nil
        o.title = label
        // The map alone: the label goes above it and the credit once below all.
        o.width = FramePictures.cell.width - 8
        o.height = FramePictures.cell.height - FramePictures.labelHeight
        o.graticule = false
        let svg = PictureComposer.svg(scene(contours, options: o), o, standalone: false, mapOnly: true)
        drawn.append(Drawn(label: label, start: start, end: end, svg: svg))
    }

    /// A frame's dates as a reader counts them, from its bounds `start`
    /// (inclusive) and `end` (exclusive), ISO 8601: whole days name their
    /// last day ("2021-01-01 – 2021-01-07" for the week that ends before
    /// the 8th; "2021-01-05" for one day); a bound with a time shows both
    /// times, half-open as clocks read ("2021-01-05 06:00 UTC – 2021-01-05
    /// 12:00 UTC").
    package static func label(start: String, end: String) -> String {
        let midnight = "T00:00:00Z"
        func short(_ s: String) -> String {
            s.hasSuffix(midnight)
                ? String(s.dropLast(midnight.count))
                : s.replacingOccurrences(of: "T", with: " ")
                    .replacingOccurrences(of: ":00Z", with: " UTC")
        }
        guard start.hasSuffix(midnight), end.hasSuffix(midnight), let last = dayBefore(short(end)) else {
            return "\(short(start)) – \(short(end))"
        }
        let first = short(start)
        return first == last ? first : "\(first) – \(last)"
    }

    /// The date before `day` ("YYYY-MM-DD", the year maybe signed), or nil
    /// when it is not such a date.
    private static func dayBefore(_ day: String) -> String? {
        let negative = day.hasPrefix("-")
        let fields = day.dropFirst(negative ? 1 : 0).split(separator: "-").compactMap { Int($0) }
        guard fields.count == 3, (1...12).contains(fields[1]), (1...31).contains(fields[2]) else { return nil }
        let days = UTCCalendar.days(year: negative ? -fields[0] : fields[0], month: fields[1], day: fields[2])
        return String(UTCCalendar.iso8601(Double(days - 1) * 86_400).dropLast("T00:00:00Z".count))
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

    /// The page: the shared basemap drawn once, one group per frame shown
    /// by the slider (the page's script contours the shown frame from its
    /// grid at the shared thresholds), one legend, the dates, play/pause,
    /// arrow keys, and a tap that answers the shown frame's value and band.
    ///
    /// The page is written as it is made, a frame at a time, so that memory
    /// holds one frame's grid and text whatever the number of frames: the
    /// head (everything the frames share), then ``pageEntry(_:grid:start:end:)``
    /// for every frame in order, then ``pageTail``.
    package func pageHead(
        geometry g: GridGeometry, projection: PlaneProjection, frameCount: Int, firstLabel: String
    ) -> String {
        var o = options
        o.legend = nil
        o.title = nil
        // The base: the basemap and graticule on the shared view, no data.
        let empty = PictureScene(
            dataBox: g.cellBox, projection: projection, legend: nil, opacity: style.fillOpacity,
            drawData: { _, _ in }, tooltips: TooltipData(), summary: "Map over time")
        let (_, transform) = PictureComposer.placement(empty, o, mapOnly: true)
        var map = PictureComposer.svg(empty, o, standalone: false, mapOnly: true)
        // One empty group a frame: the script draws the shown frame's bands into its group.
        var frames = ""
        for k in 0..<frameCount {
            frames += "<g class=\"hm-frame\" data-frame=\"\(k)\"\(k == 0 ? "" : " display=\"none\"")></g>\n"
        }
        if let open = map.range(of: "<g class=\"data\""), let tagEnd = map[open.upperBound...].range(of: ">") {
            map.insert(contentsOf: "\n" + frames, at: tagEnd.upperBound)
        }
        let box = transform.planeBox
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        var data = "{\"thresholds\":[" + thresholds.map(number).joined(separator: ",") + "]"
        data += ",\"units\":" + JSONEscaping.quoted(units, for: .script)
        data +=
            ",\"view\":{\"left\":\(number(box.minX)),\"top\":\(number(box.maxY)),\"scale\":\(number(transform.scale))"
        data += ",\"x\":\(number(transform.rect.x)),\"y\":\(number(transform.rect.y))}"
        data +=
            ",\"field\":{\"columns\":\(g.columns),\"rows\":\(g.rows),\"x0\":\(number(g.x0)),\"y0\":\(number(g.y0))"
            + ",\"dx\":\(number(g.dx)),\"dy\":\(number(g.dy))}"
        data += ",\"draw\":" + drawing
        data += ",\"frames\":[\n"
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
            <input type="range" id="hm-slider" min="0" max="\(frameCount - 1)" value="0" step="1" aria-label="Frame" aria-valuetext="\(MarkupEscaping.attribute(firstLabel))">
            <output id="hm-date" for="hm-slider" aria-live="polite">\(MarkupEscaping.text(firstLabel))</output>
            </div>
            <div class="hm-body">
            <div class="hm-map" id="hm-map" tabindex="0" aria-label="Map; left and right arrow keys step through time, space plays or pauses; tap for the value">
            \(map)
            <div id="hm-tip" role="status" aria-live="polite"></div>
            </div>
            <aside class="hm-legend" aria-label="Legend">\(legendHTML)</aside>
            </div>
            </main>
            <script type="application/json" id="hm-data">\(data)
            """
    }

    /// Frame `k`'s entry in the page's data (`k` from 0, in order).
    package static func pageEntry(_ k: Int, grid: DensityGrid, start: String, end: String) -> String {
        let encoded = FrameGridCode.encode(grid.values)
        let label = FramePictures.label(start: start, end: end)
        return (k > 0 ? ",\n" : "") + "{\"start\":\"\(start)\",\"end\":\"\(end)\",\"label\":"
            + JSONEscaping.quoted(label, for: .script) + ",\"values\":\"" + encoded + "\"}"
    }

    /// What follows the last frame's entry.
    package static var pageTail: String {
        """
        ]}</script>
        <script>
        \(FramePictures.script)
        </script>
        </body>
        </html>

        """
    }

    /// How the page's script draws a frame, as JSON: the mode, each
    /// level's fill attributes (as the static pictures write them) and
    /// the isolines' stroke, if the style strokes them.
    private var drawing: String {
        let count = thresholds.count
        let mode = options.contourMode
        let fills = style.renderMode.fills && mode != .isolines
        var stroke = style.renderMode.isolineStroke
        if mode == .isolines && stroke == nil { stroke = (1, nil) }
        func attributes(_ list: [(String, String)]) -> String {
            JSONEscaping.quoted(
                list.map { "\($0.0)=\"\(MarkupEscaping.attribute($0.1))\"" }.joined(separator: " "), for: .script)
        }
        var levels: [String] = []
        for level in 0..<count {
            let color = style.gradient.color(forLevel: level, of: count)
            var fill: [(String, String)] = [("class", mode == .levels ? "level" : "band")]
            fill += SVGWriter.fill(color)
            fill += [
                ("fill-rule", "evenodd"), ("data-level", String(level)),
                ("data-threshold", NumberText.data(thresholds[level]))
            ]
            if mode == .bands, level + 1 < count { fill.append(("data-upper", NumberText.data(thresholds[level + 1]))) }
            var line = "null"
            if let (width, c) = stroke {
                line = attributes(
                    [("class", "isoline"), ("fill", "none"), ("stroke-linejoin", "round")]
                        + SVGWriter.stroke(c ?? color.withAlpha(1), width: width)
                        + [("data-level", String(level)), ("data-threshold", NumberText.data(thresholds[level]))])
            }
            levels.append("{\"fill\":\(fills ? attributes(fill) : "null"),\"line\":\(line)}")
        }
        return "{\"bands\":\(mode == .bands),\"levels\":[" + levels.joined(separator: ",") + "]}"
    }

    /// The page's script: the slider, play/pause, keys, and taps.
    static let script = """
        (function(){
        "use strict";
        var data=JSON.parse(document.getElementById("hm-data").textContent);
        var frames=document.querySelectorAll("g.hm-frame"),slider=document.getElementById("hm-slider");
        var date=document.getElementById("hm-date"),play=document.getElementById("hm-play");
        var map=document.getElementById("hm-map"),tip=document.getElementById("hm-tip"),svg=map.querySelector("svg");
        var F=data.field,T=data.thresholds,L=T.length,V=data.view,D=data.draw;
        var W=F.columns+2,H=F.rows+2,S=2*W*H;
        var values=new Float64Array(F.columns*F.rows),padded=new Float64Array(W*H),band=new Uint8Array(W*H);
        var next=new Int32Array(L*S).fill(-1),starts=[];
        var current=0,timer=null,last=null;
        /* The frame's values from its text: varints of code differences (odd: a run of unchanged codes). */
        function decode(k){
          var s=atob(data.frames[k].values),n=values.length,i=0,p=0,code=0;
          var u=new Uint32Array(1),f=new Float32Array(u.buffer);
          while(i<n&&p<s.length){
            var t=0,m=1,b;
            do{b=s.charCodeAt(p++);t+=(b&127)*m;m*=128;}while(b>=128);
            var times=1;
            if(t%2===1){times=(t-1)/2+1;}else{var z=t/2;code+=z%2===0?z/2:-(z+1)/2;}
            u[0]=code*128;var v=f[0];
            for(var j=0;j<times&&i<n;j++){values[i++]=v;}
          }
        }
        /* The grid inside a border below every level (so every ring closes), and each node's band. */
        function classify(){
          padded.fill(-Infinity);band.fill(0);
          for(var r=0;r<F.rows;r++){for(var c=0;c<F.columns;c++){
            var v=values[r*F.columns+c],q=(r+1)*W+c+1;
            if(v===v){padded[q]=v;var lo=0,hi=L;while(lo<hi){var mid=(lo+hi)>>1;if(T[mid]<=v){lo=mid+1;}else{hi=mid;}}band[q]=lo;}
          }}
        }
        /* Marching squares: segments with the inside on their left, edge to edge, linked by edge. */
        function link(l,from,to){next[l*S+from]=to;starts[l].push(from);}
        function trace(){
          starts=[];for(var l=0;l<L;l++){starts.push([]);}
          for(var R=0;R<H-1;R++){for(var C=0;C<W-1;C++){
            var q=R*W+C,a=band[q],b=band[q+1],c=band[q+1+W],d=band[q+W];
            var lo=Math.min(a,b,c,d),hi=Math.max(a,b,c,d);
            if(lo===hi){continue;}
            var B=2*q,Tp=2*(q+W),Lf=2*q+1,Rt=2*(q+1)+1;
            for(var l=lo;l<hi;l++){
              var k=(a>l?1:0)|(b>l?2:0)|(c>l?4:0)|(d>l?8:0);
              switch(k){
                case 1:link(l,B,Lf);break;case 2:link(l,Rt,B);break;case 3:link(l,Rt,Lf);break;
                case 4:link(l,Tp,Rt);break;case 6:link(l,Tp,B);break;case 7:link(l,Tp,Lf);break;
                case 8:link(l,Lf,Tp);break;case 9:link(l,B,Tp);break;case 11:link(l,Rt,Tp);break;
                case 12:link(l,Lf,Rt);break;case 13:link(l,B,Rt);break;case 14:link(l,Lf,B);break;
                case 5:case 10:
                  var centre=(padded[q]+padded[q+1]+padded[q+1+W]+padded[q+W])/4>=T[l];
                  if(k===5){if(centre){link(l,B,Rt);link(l,Tp,Lf);}else{link(l,B,Lf);link(l,Tp,Rt);}}
                  else{if(centre){link(l,Lf,B);link(l,Rt,Tp);}else{link(l,Rt,B);link(l,Lf,Tp);}}
                  break;
              }
            }
          }}
        }
        /* Where level l crosses edge e, in the picture's pixels. */
        function point(e,t){
          var n=e>>1,h=(e&1)===0,n2=h?n+1:n+W,v1=padded[n],v2=padded[n2],f;
          if(v1===-Infinity){f=1;}else if(v2===-Infinity){f=0;}else{f=(t-v1)/(v2-v1);}
          var C=n%W,R=(n-C)/W,x=F.x0+(C-1+(h?f:0))*F.dx,y=F.y0+(R-1+(h?0:f))*F.dy;
          return (Math.round((V.x+(x-V.left)*V.scale)*100)/100)+" "+(Math.round((V.y+(V.top-y)*V.scale)*100)/100);
        }
        /* Level l's rings as path data (every ring closed). */
        function rings(l){
          var out=[],base=l*S,list=starts[l];
          for(var i=0;i<list.length;i++){
            var e=list[i];if(next[base+e]<0){continue;}
            var first=e,parts=[];
            do{parts.push(point(e,T[l]));var n=next[base+e];next[base+e]=-1;e=n;}while(e!==first&&e>=0);
            if(parts.length>2){out.push("M"+parts.join("L")+"Z");}
          }
          return out.join("");
        }
        function draw(k){
          decode(k);classify();trace();
          var paths=[];for(var l=0;l<L;l++){paths.push(rings(l));}
          var html="";
          for(var l=0;l<L;l++){
            var lv=D.levels[l];
            if(lv.fill!==null){var d=paths[l]+(D.bands&&l+1<L?paths[l+1]:"");if(d){html+='<path d="'+d+'" '+lv.fill+'/>';}}
          }
          for(var l=0;l<L;l++){var lv=D.levels[l];if(lv.line!==null&&paths[l]){html+='<path d="'+paths[l]+'" '+lv.line+'/>';}}
          frames[k].innerHTML=html;
        }
        function show(k){
          k=Math.max(0,Math.min(frames.length-1,k));
          if(k!==current){frames[current].setAttribute("display","none");frames[current].innerHTML="";}
          draw(k);frames[k].removeAttribute("display");
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
        function valueAt(x,y){
          var c=Math.round((x-F.x0)/F.dx),r=Math.round((y-F.y0)/F.dy);
          if(c<0||r<0||c>=F.columns||r>=F.rows){return null;}
          var v=values[r*F.columns+c];return v===v?v:null;
        }
        function answer(x,y,cx,cy){
          var v=valueAt(x,y),u=data.units?" "+data.units:"";
          var band=-1;if(v!==null){for(var i=0;i<L;i++){if(v>=T[i]){band=i;}}}
          var lines=[data.frames[current].label];
          if(v===null){lines.push("no value here");}
          else{lines.push("value "+format(v)+u);
            lines.push(band<0?"below the lowest level":"level "+(band+1)+" of "+L+": "+format(T[band])+(band+1<L?" – "+format(T[band+1]):" and above")+u);}
          tip.textContent="";lines.forEach(function(s,i){if(i){tip.appendChild(document.createElement("br"));}tip.appendChild(document.createTextNode(s));});
          tip.style.display="block";tip.style.left=(cx+12)+"px";tip.style.top=(cy+12)+"px";
          tip.dataset.value=v===null?"":String(v);tip.dataset.band=String(band);tip.dataset.frame=String(current);tip.dataset.x=String(x);tip.dataset.y=String(y);
        }
        svg.addEventListener("click",function(e){
          var pt=svg.createSVGPoint();pt.x=e.clientX;pt.y=e.clientY;
          var p=pt.matrixTransform(svg.getScreenCTM().inverse());
          var x=V.left+(p.x-V.x)/V.scale,y=V.top-(p.y-V.y)/V.scale;
          var rect=map.getBoundingClientRect();
          last={x:x,y:y,cx:e.clientX-rect.left,cy:e.clientY-rect.top};
          answer(x,y,last.cx,last.cy);
        });
        if(frames.length){show(0);}
        window.hmFrames={show:show,count:frames.length,current:function(){return current;}};
        })();
        """
}
