import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The page's script: pan and zoom by changing one group's transform
/// (shapes stay vectors, strokes keep their width), and a tooltip with
/// the place, the value and the band or bin under a tap or the mouse.
/// Text goes in with `textContent`, never as markup.
enum HTMLPageScript {
    package static let source = #"""
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("hm-data").textContent);
          var mapBox = document.getElementById("hm-map");
          var svg = mapBox.querySelector("svg.heatmap");
          var view = document.getElementById("hm-view");
          var tip = document.getElementById("hm-tip");
          var labels = document.getElementById("hm-graticule-labels");
          var scaleBox = document.getElementById("hm-scale");
          var V = data.view, W = V.width, H = V.height, R = V.reach;
          var k = 1, tx = 0, ty = 0, active = null;

          // Plane and place of a point in the first view's pixels.
          function plane(px, py) { return { x: V.left + px / V.scale, y: V.top - py / V.scale }; }
          var AUTHALIC = 6371007.181, MERCATOR = 6378137, DEG = 180 / Math.PI;
          function unproject(p, P) {
            P = P || data.projection;
            var phi0 = P.lat0 / DEG;
            if (P.kind === "planar") { return null; }
            if (P.kind === "equalArea") {
              var rho = Math.sqrt(p.x * p.x + p.y * p.y);
              if (rho < 1e-9) { return { lat: P.lat0, lon: P.lon0 }; }
              var c = 2 * Math.asin(Math.min(rho / (2 * AUTHALIC), 1));
              var lat = Math.asin(Math.max(-1, Math.min(1, Math.cos(c) * Math.sin(phi0) + p.y * Math.sin(c) * Math.cos(phi0) / rho)));
              var dl = Math.atan2(p.x * Math.sin(c), rho * Math.cos(phi0) * Math.cos(c) - p.y * Math.sin(phi0) * Math.sin(c));
              return { lat: lat * DEG, lon: P.lon0 + dl * DEG };
            }
            if (P.kind === "equirectangular") {
              return { lat: P.lat0 + p.y / AUTHALIC * DEG,
                       lon: P.lon0 + p.x / (AUTHALIC * Math.max(Math.cos(phi0), 1e-12)) * DEG };
            }
            return { lat: (2 * Math.atan(Math.exp(p.y / MERCATOR)) - Math.PI / 2) * DEG, lon: P.lon0 + p.x / MERCATOR * DEG };
          }
          // A place in a plane (the field's, when the view is warped to the tiles').
          function project(c, P) {
            var phi0 = P.lat0 / DEG, phi = c.lat / DEG;
            var dl = (((c.lon - P.lon0 + 540) % 360) - 180) / DEG;
            if (P.kind === "equalArea") {
              var cosc = Math.sin(phi0) * Math.sin(phi) + Math.cos(phi0) * Math.cos(phi) * Math.cos(dl);
              var kk = Math.sqrt(2 / Math.max(1 + cosc, 1e-15));
              return { x: AUTHALIC * kk * Math.cos(phi) * Math.sin(dl),
                       y: AUTHALIC * kk * (Math.cos(phi0) * Math.sin(phi) - Math.sin(phi0) * Math.cos(phi) * Math.cos(dl)) };
            }
            if (P.kind === "equirectangular") {
              return { x: AUTHALIC * dl * Math.cos(phi0), y: AUTHALIC * (c.lat - P.lat0) / DEG };
            }
            return { x: MERCATOR * dl, y: MERCATOR * Math.log(Math.tan(Math.PI / 4 + phi / 2)) };
          }
          function fixed(v, d) { return Math.abs(v).toFixed(d); }
          function placeText(p) {
            var c = unproject(p);
            if (!c) { return "x " + number(p.x) + ", y " + number(p.y); }
            var lon = ((c.lon + 540) % 360) - 180;
            return fixed(c.lat, 2) + "\u00b0" + (c.lat < 0 ? "S" : "N") + ", " + fixed(lon, 2) + "\u00b0" + (lon < 0 ? "W" : "E");
          }
          function number(v) {
            if (v === 0) { return "0"; }
            var a = Math.abs(v);
            if (a >= 1e-3 && a < 1e6) { return String(Number(v.toPrecision(3))); }
            var e = Math.floor(Math.log10(a)), m = v / Math.pow(10, e);
            var digits = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
            var sup = String(Math.abs(e)).split("").map(function (c) { return digits[Number(c)]; }).join("");
            return Number(m.toPrecision(3)) + "\u00d710" + (e < 0 ? "\u207b" : "") + sup;
          }

          // The grid copy: 16-bit steps of sqrt(value / max), 65535 undefined.
          var field = null;
          if (data.field) {
            var raw = atob(data.field.data), n = raw.length >> 1, q = new Uint16Array(n);
            for (var i = 0; i < n; i++) { q[i] = raw.charCodeAt(2 * i) | (raw.charCodeAt(2 * i + 1) << 8); }
            field = { f: data.field, q: q };
          }
          function nodeValue(c, r) {
            var s = field.q[r * field.f.columns + c];
            if (s === 65535) { return NaN; }
            var t = s / 65534;
            return t * t * field.f.max;
          }
          function valueAt(p) {
            if (!field) { return null; }
            if (data.fieldProjection) {
              var c = unproject(p);
              if (!c) { return null; }
              p = project(c, data.fieldProjection);
            }
            var f = field.f, fx = (p.x - f.x0) / f.dx, fy = (p.y - f.y0) / f.dy;
            if (!(fx >= 0 && fy >= 0 && fx <= f.columns - 1 && fy <= f.rows - 1)) { return 0; }
            var c = Math.min(Math.floor(fx), f.columns - 2), r = Math.min(Math.floor(fy), f.rows - 2);
            var u = fx - c, w = fy - r;
            var v = (nodeValue(c, r) * (1 - u) + nodeValue(c + 1, r) * u) * (1 - w)
                  + (nodeValue(c, r + 1) * (1 - u) + nodeValue(c + 1, r + 1) * u) * w;
            return isNaN(v) ? null : v;
          }

          // Screen to the first view's pixels, through the current pan and zoom.
          function svgPoint(clientX, clientY) {
            var r = svg.getBoundingClientRect();
            return { x: (clientX - r.left) / r.width * W, y: (clientY - r.top) / r.height * H };
          }
          function basePoint(s) { return { x: (s.x - tx) / k, y: (s.y - ty) / k }; }

          function clamp() {
            k = Math.min(Math.max(k, 1), 32);
            tx = Math.min(Math.max(tx, W - k * W * (1 + R)), k * W * R);
            ty = Math.min(Math.max(ty, H - k * H * (1 + R)), k * H * R);
          }
          // Map tiles: the zoom whose 256-px tiles are about 256 screen
          // pixels, the tiles the view covers, placed in the first view's
          // pixels inside the panned group (so they move with the shapes).
          var T = data.tiles, tileGroup = document.getElementById("hm-tiles"), tileImages = {};
          var HALF = Math.PI * MERCATOR;
          function updateTiles() {
            if (!T || !tileGroup) { return; }
            var r = svg.getBoundingClientRect();
            if (!r.width) { return; }
            var perMetre = V.scale * k * r.width / W;
            var z = Math.max(0, Math.min(T.maxZoom, Math.round(Math.log2(2 * HALF * perMetre / 256))));
            var n = Math.pow(2, z), size = 2 * HALF / n;
            var a = plane(-tx / k, -ty / k), b = plane((W - tx) / k, (H - ty) / k);
            // World x from the plane's: the plane is centred on lon0.
            var shift = MERCATOR * data.projection.lon0 / DEG + HALF;
            var x0 = Math.floor((a.x + shift) / size), x1 = Math.floor((b.x + shift) / size);
            var y0 = Math.max(0, Math.floor((HALF - a.y) / size)), y1 = Math.min(n - 1, Math.floor((HALF - b.y) / size));
            var wanted = {};
            for (var ty0 = y0; ty0 <= y1 && (x1 - x0 + 1) * (y1 - y0 + 1) <= 400; ty0++) {
              for (var tx0 = x0; tx0 <= x1; tx0++) {
                var key = z + "/" + tx0 + "/" + ty0;
                wanted[key] = true;
                if (tileImages[key]) { continue; }
                var col = ((tx0 % n) + n) % n;
                var url = T.url.replace("{z}", z).replace("{x}", col).replace("{y}", ty0)
                  .replace("{s}", "abc".charAt((col + ty0) % 3));
                var img = document.createElementNS(svg.namespaceURI, "image");
                var left = (tx0 * size - shift - V.left) * V.scale, top = (V.top - (HALF - ty0 * size)) * V.scale;
                // A hair of overlap hides the seams between tiles.
                var side = size * V.scale, hair = 0.5 / k;
                img.setAttribute("x", (left - hair).toFixed(3));
                img.setAttribute("y", (top - hair).toFixed(3));
                img.setAttribute("width", (side + 2 * hair).toFixed(3));
                img.setAttribute("height", (side + 2 * hair).toFixed(3));
                img.setAttribute("preserveAspectRatio", "none");
                img.setAttribute("data-tile", key);
                img.setAttribute("href", url);
                tileGroup.appendChild(img);
                tileImages[key] = img;
              }
            }
            Object.keys(tileImages).forEach(function (key) {
              if (!wanted[key]) { tileGroup.removeChild(tileImages[key]); delete tileImages[key]; }
            });
            svg.setAttribute("data-tile-zoom", String(z));
          }
          function apply() {
            clamp();
            view.setAttribute("transform", "translate(" + tx.toFixed(2) + " " + ty.toFixed(2) + ") scale(" + k.toFixed(4) + ")");
            if (labels) { labels.style.display = (k === 1 && tx === 0 && ty === 0) ? "" : "none"; }
            updateScale();
            updateTiles();
            svg.setAttribute("data-zoom", k.toFixed(4));
          }
          function zoomAt(factor, s) {
            var k1 = Math.min(Math.max(k * factor, 1), 32), f = k1 / k;
            tx = s.x - f * (s.x - tx); ty = s.y - f * (s.y - ty); k = k1;
            apply();
          }
          function centre() { return { x: W / 2, y: H / 2 }; }
          function reset() { k = 1; tx = 0; ty = 0; apply(); }

          // Scale bar: a round ground distance at most 100 CSS pixels long.
          function updateScale() {
            if (!scaleBox) { return; }
            var r = svg.getBoundingClientRect();
            if (!r.width) { return; }
            var css = r.width / W;
            var p0 = unproject(plane((W / 2 - tx) / k, (H / 2 - ty) / k));
            var p1 = unproject(plane((W / 2 + 50 - tx) / k, (H / 2 - ty) / k));
            if (!p0 || !p1) { scaleBox.style.display = "none"; return; }
            var a = p0.lat / DEG, b = p1.lat / DEG, dl = (p1.lon - p0.lon) / DEG;
            var h = Math.pow(Math.sin((b - a) / 2), 2) + Math.cos(a) * Math.cos(b) * Math.pow(Math.sin(dl / 2), 2);
            var metres = 2 * AUTHALIC * Math.asin(Math.min(Math.sqrt(h), 1));
            var perCss = metres / (50 * css);
            var limit = perCss * 100, power = Math.pow(10, Math.floor(Math.log10(limit)));
            var length = [5, 2, 1].map(function (m) { return m * power; }).filter(function (v) { return v <= limit; })[0] || power;
            scaleBox.firstChild.style.width = (length / perCss).toFixed(1) + "px";
            scaleBox.lastChild.textContent = length >= 1000 ? (length / 1000) + " km" : length + " m";
          }
          // Graticule labels keep a readable size whatever the picture's width.
          function updateLabels() {
            if (!labels) { return; }
            var r = svg.getBoundingClientRect();
            if (!r.width) { return; }
            var size = 11 * W / r.width;
            labels.setAttribute("font-size", size.toFixed(2));
            Array.prototype.forEach.call(labels.querySelectorAll("text[data-edge=top]"), function (t) {
              t.setAttribute("y", (size + 2).toFixed(2));
            });
            // Larger text needs more room: hide each label that would overlap the one shown before it.
            var shown = [];
            Array.prototype.forEach.call(labels.querySelectorAll("text"), function (t) {
              t.style.display = "";
              var b = t.getBBox();
              var clash = shown.some(function (o) {
                return b.x < o.x + o.width + 4 && o.x < b.x + b.width + 4 && b.y < o.y + o.height && o.y < b.y + b.height;
              });
              if (clash) { t.style.display = "none"; } else { shown.push(b); }
            });
          }

          function linesOf(el) {
            if (el.hasAttribute("data-count")) { return data.bins[Number(el.getAttribute("data-i"))] || []; }
            return data.levels[Number(el.getAttribute("data-level"))] || [];
          }
          function hide() {
            tip.style.display = "none";
            tip.textContent = "";
            if (active) { active.classList.remove("hm-active"); active = null; }
          }
          function shapeAt(clientX, clientY) {
            var el = document.elementFromPoint(clientX, clientY);
            el = el && el.closest ? el.closest("[data-level], [data-count]") : null;
            return el && svg.contains(el) ? el : null;
          }
          function inspect(clientX, clientY) {
            var el = shapeAt(clientX, clientY);
            if (!el) { hide(); return; }
            if (active !== el) {
              if (active) { active.classList.remove("hm-active"); }
              active = el;
              el.classList.add("hm-active");
            }
            var b = basePoint(svgPoint(clientX, clientY)), p = plane(b.x, b.y);
            var lines = [];
            if (el.hasAttribute("data-count")) {
              lines = linesOf(el).slice();
            } else {
              lines.push(placeText(p));
              var v = valueAt(p);
              if (v !== null) { lines.push("value " + number(v) + (data.units ? " " + data.units : "")); }
              lines = lines.concat(linesOf(el));
            }
            tip.textContent = lines.join("\n");
            tip.style.display = "block";
            var box = mapBox.getBoundingClientRect(), t = tip.getBoundingClientRect();
            var x = clientX - box.left + 14, y = clientY - box.top + 14;
            if (x + t.width > box.width - 4) { x = Math.max(4, clientX - box.left - t.width - 10); }
            if (y + t.height > box.height - 4) { y = Math.max(4, clientY - box.top - t.height - 10); }
            tip.style.left = x + "px";
            tip.style.top = y + "px";
          }

          // Pointers: one drags (or taps), two pinch.
          var pointers = {}, drag = null, pinch = null, lastTap = null;
          function count() { return Object.keys(pointers).length; }
          function pair() { var ids = Object.keys(pointers); return [pointers[ids[0]], pointers[ids[1]]]; }
          mapBox.addEventListener("pointerdown", function (e) {
            if (e.target.closest && e.target.closest(".hm-controls")) { return; }
            pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
            try { mapBox.setPointerCapture(e.pointerId); } catch (err) { /* capture is optional */ }
            if (count() === 1) {
              drag = { x: e.clientX, y: e.clientY, tx: tx, ty: ty, moved: false, type: e.pointerType };
            } else if (count() === 2) {
              var p = pair();
              pinch = { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1, k: k, tx: tx, ty: ty,
                        m: svgPoint((p[0].x + p[1].x) / 2, (p[0].y + p[1].y) / 2) };
              drag = null;
              hide();
            }
          });
          mapBox.addEventListener("pointermove", function (e) {
            if (pointers[e.pointerId]) { pointers[e.pointerId] = { x: e.clientX, y: e.clientY }; }
            if (pinch && count() === 2) {
              var p = pair(), d = Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
              var m = svgPoint((p[0].x + p[1].x) / 2, (p[0].y + p[1].y) / 2);
              var k1 = Math.min(Math.max(pinch.k * d / pinch.d, 1), 32), f = k1 / pinch.k;
              tx = m.x - f * (pinch.m.x - pinch.tx); ty = m.y - f * (pinch.m.y - pinch.ty); k = k1;
              apply();
              return;
            }
            if (drag && pointers[e.pointerId]) {
              var r = svg.getBoundingClientRect(), dx = e.clientX - drag.x, dy = e.clientY - drag.y;
              if (!drag.moved && Math.hypot(dx, dy) > 5) { drag.moved = true; mapBox.classList.add("hm-dragging"); hide(); }
              if (drag.moved) {
                tx = drag.tx + dx * W / r.width; ty = drag.ty + dy * H / r.height;
                apply();
              }
              return;
            }
            if (e.pointerType === "mouse") { inspect(e.clientX, e.clientY); }
          });
          function end(e) {
            if (!pointers[e.pointerId]) { return; }
            delete pointers[e.pointerId];
            mapBox.classList.remove("hm-dragging");
            if (pinch) { if (count() < 2) { pinch = null; } return; }
            if (drag && !drag.moved && e.type === "pointerup") {
              var now = Date.now();
              if (drag.type !== "mouse" && lastTap && now - lastTap.t < 320 && Math.hypot(e.clientX - lastTap.x, e.clientY - lastTap.y) < 30) {
                lastTap = null;
                zoomAt(2, svgPoint(e.clientX, e.clientY));
                hide();
              } else {
                lastTap = { t: now, x: e.clientX, y: e.clientY };
                inspect(e.clientX, e.clientY);
              }
            }
            drag = null;
          }
          mapBox.addEventListener("pointerup", end);
          mapBox.addEventListener("pointercancel", end);
          mapBox.addEventListener("pointerleave", function (e) { if (e.pointerType === "mouse" && !drag) { hide(); } });
          mapBox.addEventListener("dblclick", function (e) {
            if (e.target.closest && e.target.closest(".hm-controls")) { return; }
            e.preventDefault();
            zoomAt(e.shiftKey ? 0.5 : 2, svgPoint(e.clientX, e.clientY));
          });
          mapBox.addEventListener("wheel", function (e) {
            e.preventDefault();
            var dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1);
            zoomAt(Math.exp(-dy * 0.002), svgPoint(e.clientX, e.clientY));
            hide();
          }, { passive: false });
          // A tap anywhere outside the map closes the tooltip.
          document.addEventListener("pointerdown", function (e) { if (!mapBox.contains(e.target)) { hide(); } });
          document.addEventListener("keydown", function (e) { if (e.key === "Escape") { hide(); } });
          mapBox.addEventListener("keydown", function (e) {
            var step = 40, handled = true;
            switch (e.key) {
              case "ArrowLeft": tx += step; apply(); break;
              case "ArrowRight": tx -= step; apply(); break;
              case "ArrowUp": ty += step; apply(); break;
              case "ArrowDown": ty -= step; apply(); break;
              case "+": case "=": zoomAt(1.5, centre()); break;
              case "-": case "_": zoomAt(1 / 1.5, centre()); break;
              case "0": reset(); break;
              default: handled = false;
            }
            if (handled) { e.preventDefault(); hide(); }
          });
          document.getElementById("hm-zoom-in").addEventListener("click", function () { zoomAt(1.5, centre()); hide(); });
          document.getElementById("hm-zoom-out").addEventListener("click", function () { zoomAt(1 / 1.5, centre()); hide(); });
          document.getElementById("hm-reset").addEventListener("click", function () { reset(); hide(); });
          window.addEventListener("resize", function () { updateLabels(); updateScale(); updateTiles(); hide(); });
          updateLabels();
          apply();
        })();

        """#
}
