#!/usr/bin/env python3
"""Checks an HTML page drawn over map tiles (`export --format html
--basemap-tiles URL`) in headless Chromium (run by check-tiles.sh).

  check_basemap_page.py --bin CONTOURS --work DIR [--chromium PATH] [--chromedriver PATH]

A local HTTP server makes the XYZ tiles as they are asked for (256-px
PNGs: a pale street grid, the tile's z/x/y, and a blue 7 x 7 px square at
each of a few known places, the landmarks), and serves the page. The
points are generated at city scale (four clusters over 12 km). At three
zooms of the page (as first shown, then 3 and 6 presses of its + button):
the data layer is hidden and the landmarks found in a screenshot (where
the tiles put them); the data is shown again and each landmark tapped: the
page's answer must name the landmark's place and a value within 3 % of the
exact kernel sum there (so the tiles and the bands agree to a few metres),
and the tile zoom the page chose must grow. Screenshots (with the data)
are written to DIR/basemap-*.png. Exits 1 on any failure.
"""
import argparse, csv, http.server, io, json, math, os, re, subprocess, sys, threading, time
import numpy as np
from PIL import Image, ImageDraw
from pyproj import CRS, Transformer

ap = argparse.ArgumentParser()
ap.add_argument("--bin", required=True)
ap.add_argument("--work", required=True)
ap.add_argument("--chromium", default="/usr/bin/chromium")
ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
a = ap.parse_args()
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


# City-scale points: four clusters around Minneapolis (44.97 N, 93.26 W).
rng = np.random.default_rng(7)
centres = [(44.978, -93.265, 900, 6000), (44.95, -93.22, 500, 3000), (45.0, -93.30, 700, 2500), (44.94, -93.31, 400, 1500)]
lat, lon = [], []
for clat, clon, spread, n in centres:
    dy = rng.normal(0, spread, n); dx = rng.normal(0, spread, n)
    lat += list(clat + dy / 111_320); lon += list(clon + dx / (111_320 * math.cos(math.radians(clat))))
points = os.path.join(a.work, "city.csv")
with open(points, "w", newline="") as f:
    out = csv.writer(f); out.writerow(["lat", "lon"])
    for y, x in zip(lat, lon): out.writerow([f"{y:.6f}", f"{x:.6f}"])
lat, lon = np.array(lat), np.array(lon)
# The page zooms about its centre: one landmark there, near the middle of the data.
middle = ((lat.min() + lat.max()) / 2 + 0.0012, (lon.min() + lon.max()) / 2 + 0.0015)

# Landmarks: on the flanks of the clusters, where the density changes
# fastest, so a misplacement of a few metres shows in the value.
landmarks = [(44.95, -93.22 + 0.007), (45.0 - 0.005, -93.30 - 0.004),
             (44.94 + 0.003, -93.31 + 0.003), middle]


def world_pixel(la, lo, z):
    n = 256 * 2 ** z
    return (lo + 180) / 360 * n, (0.5 - math.asinh(math.tan(math.radians(la))) / (2 * math.pi)) * n


def tile_png(z, x, y):
    img = Image.new("RGB", (256, 256), (246, 243, 236))
    d = ImageDraw.Draw(img)
    for k in range(0, 256, 32):
        d.line([(k, 0), (k, 255)], fill=(214, 210, 200), width=2)
        d.line([(0, k), (255, k)], fill=(214, 210, 200), width=2)
    d.rectangle([0, 0, 255, 255], outline=(190, 186, 176))
    d.text((6, 6), f"{z}/{x}/{y}", fill=(120, 120, 120))
    for la, lo in landmarks:
        px, py = world_pixel(la, lo, z)
        cx, cy = px - 256 * x, py - 256 * y
        if -4 <= cx <= 260 and -4 <= cy <= 260:
            d.rectangle([round(cx) - 3, round(cy) - 3, round(cx) + 3, round(cy) + 3], fill=(0, 0, 255))
    buf = io.BytesIO(); img.save(buf, "PNG")
    return buf.getvalue()


asked = []


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, code, body=b"", kind="text/plain"):
        self.send_response(code); self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)

    def do_GET(self):
        m = re.match(r"^/tiles/(\d+)/(\d+)/(\d+)\.png$", self.path)
        if m:
            z, x, y = map(int, m.groups()); asked.append((z, x, y))
            return self.send(200, tile_png(z, x, y), "image/png")
        if self.path == "/page.html":
            return self.send(200, open(os.path.join(a.work, "city.html"), "rb").read(), "text/html")
        self.send(404)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
origin = f"http://127.0.0.1:{server.server_address[1]}"
options = ["--lat", "lat", "--lon", "lon", "--radius", "500", "--resolution", "800"]
subprocess.run([a.bin, "export", points, *options, "--format", "html", "--title", "City-scale check",
                "--basemap-tiles", origin + "/tiles/{z}/{x}/{y}.png", "--attribution", "Tiles: check-tiles test server",
                "-o", os.path.join(a.work, "city.html")], check=True)
subprocess.run([a.bin, "grid", points, *options, "-o", os.path.join(a.work, "city.grid.json")], check=True)
grid = json.load(open(os.path.join(a.work, "city.grid.json")))
sigma = grid["radius"] / 3
plane = Transformer.from_crs(CRS.from_epsg(4326), CRS.from_user_input(grid["crs"]), always_xy=True)
px, py = plane.transform(lon, lat)


def exact(la, lo):
    qx, qy = plane.transform(lo, la)
    d2 = (px - qx) ** 2 + (py - qy) ** 2
    return float(np.sum(np.exp(-d2 / (2 * sigma * sigma)))) / (2 * math.pi * sigma * sigma) * 1e6


def place(text):
    m = re.search(r"([\d.]+)°([NS]), ([\d.]+)°([EW])", text)
    if not m: return None
    la = float(m.group(1)) * (1 if m.group(2) == "N" else -1)
    lo = float(m.group(3)) * (1 if m.group(4) == "E" else -1)
    return la, lo


def value(text):
    m = re.search(r"value ([\d.]+)(?:×10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?", text)
    if not m: return None
    v = float(m.group(1))
    if m.group(2):
        digits = {c: str(i) for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
        e = "".join(digits.get(c, "") for c in m.group(2))
        v *= 10 ** (-int(e) if m.group(2).startswith("⁻") else int(e))
    return v


from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
opts = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--window-size=1100,1000", "--force-device-scale-factor=1"):
    opts.add_argument(flag)
opts.binary_location = a.chromium
driver = webdriver.Chrome(options=opts, service=Service(a.chromedriver))
zooms = []
try:
    driver.get(origin + "/page.html")
    for step, presses in enumerate([0, 3, 3]):
        for _ in range(presses):
            driver.find_element("id", "hm-zoom-in").click()
        time.sleep(2.5)  # the tiles load
        tile_zoom = driver.execute_script("return document.querySelector('svg.heatmap').getAttribute('data-tile-zoom')")
        images = driver.execute_script("return document.querySelectorAll('#hm-tiles image').length")
        zooms.append(int(tile_zoom))
        rect = driver.execute_script("var r = document.getElementById('hm-map').getBoundingClientRect();"
                                     "return [r.left, r.top, r.width, r.height];")
        driver.execute_script("document.querySelector('svg.heatmap g.data').style.visibility = 'hidden'")
        shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        driver.execute_script("document.querySelector('svg.heatmap g.data').style.visibility = ''")
        driver.save_screenshot(os.path.join(a.work, f"basemap-{step}.png"))
        arr = np.asarray(shot).astype(int)
        blue = (arr[:, :, 2] > 200) & (arr[:, :, 0] < 60) & (arr[:, :, 1] < 60)
        x0, y0, w, h = (int(round(v)) for v in rect)
        mask = np.zeros_like(blue); mask[y0 + 2:y0 + h - 2, x0 + 2:x0 + w - 2] = True
        ys, xs = np.nonzero(blue & mask)
        # Group the blue pixels into squares.
        found = []
        for yy, xx in zip(ys, xs):
            for g in found:
                if abs(g[0] / g[2] - xx) < 12 and abs(g[1] / g[2] - yy) < 12:
                    g[0] += xx; g[1] += yy; g[2] += 1; break
            else:
                found.append([xx, yy, 1])
        found = [(g[0] / g[2], g[1] / g[2]) for g in found if g[2] >= 9]
        answered = 0
        for cx, cy in found:
            actions = ActionBuilder(driver); actions.pointer_action.move_to_location(int(round(cx)), int(round(cy)))
            actions.pointer_action.click(); actions.perform()
            time.sleep(0.2)
            tip = driver.execute_script("return document.getElementById('hm-tip').textContent")
            at, got = place(tip or ""), value(tip or "")
            if at is None or got is None:
                fail(f"zoom step {step}: no place and value at ({cx:.0f}, {cy:.0f}): {tip!r}"); continue
            # The landmarks are over 0.012° apart: the page's place (to 0.01°) names one.
            la, lo = min(landmarks, key=lambda m: (m[0] - at[0]) ** 2 + (m[1] - at[1]) ** 2)
            want = exact(la, lo)
            ok_place = abs(la - at[0]) <= 0.006 and abs(lo - at[1]) <= 0.006
            ok_value = abs(got - want) <= 0.03 * want
            answered += ok_place and ok_value
            print(f"  landmark {la:.4f},{lo:.4f}: tapped at the tiles' square, page says {at[0]:.2f},{at[1]:.2f}, "
                  f"value {got:.4g} (exact {want:.4g}, {100 * (got - want) / want:+.1f} %)")
            if not ok_place: fail(f"zoom step {step}: the page puts the landmark at {at}, not {la},{lo}")
            if not ok_value: fail(f"zoom step {step}: value {got} at the landmark, exact {want}")
        print(f"page zoom step {step}: tile zoom {tile_zoom}, {images} tiles drawn, {len(found)} landmarks seen, "
              f"{answered} answered at their place with the exact value")
        if len(found) < (3 if step == 0 else 1):
            fail(f"zoom step {step}: only {len(found)} landmarks seen in the tiles")
    credit = driver.execute_script("var e = document.querySelector('.hm-attribution'); return e ? e.textContent : null")
    if credit != "Tiles: check-tiles test server":
        fail(f"the map shows no attribution ({credit!r})")
finally:
    driver.quit()
    server.shutdown()
if not (zooms[0] < zooms[1] < zooms[2]):
    fail(f"the tile zoom did not grow with the page's zoom: {zooms}")
print(f"tiles asked of the server: {len(asked)} (zooms {sorted({t[0] for t in asked})}); screenshots {a.work}/basemap-*.png")
if failures:
    print(f"{len(failures)} failures"); sys.exit(1)
print("basemap page passes")
