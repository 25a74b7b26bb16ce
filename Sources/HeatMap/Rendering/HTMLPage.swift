import Foundation

/// A self-contained HTML page: the SVG inline, the tooltip texts as JSON,
/// and a small script that shows the band or bin under the pointer (or
/// under a tap). No external URL of any kind, so it works offline.
enum HTMLPage {
    static func make(_ scene: PictureScene, _ options: HeatMapRenderOptions) -> String {
        let svg = PictureComposer.svg(scene, options, standalone: false)
        var title = "Heat map"
        if let t = options.title, !t.isEmpty { title = t }
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(MarkupEscaping.text(title))</title>
        <style>
        body { margin: 0; padding: 8px; font: 14px system-ui, -apple-system, "Segoe UI", Arial, sans-serif; background: #ffffff; color: #222222; }
        svg.heatmap { display: block; width: min(100%, \(SVGWriter.px(options.size.width))px); height: auto; max-height: calc(100vh - 16px); touch-action: manipulation; }
        svg.heatmap [data-level], svg.heatmap [data-count] { cursor: crosshair; }
        svg.heatmap .hm-active { stroke: #111111; stroke-width: 1.5; stroke-opacity: 1; }
        #hm-tip { position: fixed; display: none; pointer-events: none; z-index: 10; max-width: 320px;
          padding: 6px 9px; border-radius: 5px; background: rgba(24, 24, 28, 0.9); color: #ffffff;
          font-size: 12px; line-height: 1.4; white-space: pre-line; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.25); }
        </style>
        </head>
        <body>

        """
        page += svg
        page += "<div id=\"hm-tip\" role=\"status\" aria-live=\"polite\"></div>\n"
        page += "<script type=\"application/json\" id=\"hm-data\">" + json(scene.tooltips) + "</script>\n"
        page += "<script>\n" + script + "</script>\n</body>\n</html>\n"
        return page
    }

    /// {"levels": [[line, …], …], "bins": [[line, …], …]} with every string
    /// escaped for JSON inside a script element.
    static func json(_ tips: TooltipData) -> String {
        func list(_ rows: [[String]]) -> String {
            "[" + rows.map { "[" + $0.map(MarkupEscaping.jsonString).joined(separator: ",") + "]" }
                .joined(separator: ",\n") + "]"
        }
        return "{\"levels\":" + list(tips.levels) + ",\n\"bins\":" + list(tips.bins) + "}"
    }

    /// Shows the texts of the shape under the pointer; text goes in with
    /// `textContent`, never as markup.
    static let script = """
    (function () {
      "use strict";
      var data = JSON.parse(document.getElementById("hm-data").textContent);
      var tip = document.getElementById("hm-tip");
      var svg = document.querySelector("svg.heatmap");
      var active = null;
      function linesOf(el) {
        if (el.hasAttribute("data-count")) { return data.bins[Number(el.getAttribute("data-i"))] || []; }
        return data.levels[Number(el.getAttribute("data-level"))] || [];
      }
      function hide() {
        tip.style.display = "none";
        if (active) { active.classList.remove("hm-active"); active = null; }
      }
      function show(event) {
        var el = event.target && event.target.closest ? event.target.closest("[data-level], [data-count]") : null;
        if (!el || !svg.contains(el)) { hide(); return; }
        if (active !== el) {
          if (active) { active.classList.remove("hm-active"); }
          active = el;
          el.classList.add("hm-active");
        }
        tip.textContent = linesOf(el).join("\\n");
        tip.style.display = "block";
        var box = tip.getBoundingClientRect();
        var x = event.clientX + 14, y = event.clientY + 14;
        if (x + box.width > window.innerWidth - 4) { x = Math.max(4, event.clientX - box.width - 10); }
        if (y + box.height > window.innerHeight - 4) { y = Math.max(4, event.clientY - box.height - 10); }
        tip.style.left = x + "px";
        tip.style.top = y + "px";
      }
      svg.addEventListener("pointermove", show);
      svg.addEventListener("pointerdown", show);
      svg.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") { hide(); } });
      document.addEventListener("keydown", function (event) { if (event.key === "Escape") { hide(); } });
    })();

    """
}
