#!/usr/bin/env python3
"""Renders a `contours tiles` archive with MapLibre GL JS in headless
Chromium and asks queryRenderedFeatures at known points (run by check-tiles.sh).

  check_tiles_browser.py ARCHIVE.pmtiles --grid GRID.json --points FILE.csv --lat COL --lon COL
                         [--w COL] --maplibre DIR --screenshot OUT.png [--zooms Z1,Z2,Z3]

Tiles are served as /tiles/{z}/{x}/{y}.pbf by a local HTTP server on
127.0.0.1 from the archive; the page (MapLibre's JS and CSS from DIR, the
PyPI `maplibre` wheel's) shows three zooms in turn over the densest place
and posts, for each known point, the level of the band feature rendered
under it. A known point is one where the exact kernel sum and the corners
of its lattice cell are all in one band, away from every threshold, so its
band is certain. Exits 1 when any answer differs.
"""
import argparse, csv, gzip, http.server, json, math, os, random, sys, threading
import numpy as np
from pyproj import CRS, Transformer
from scipy.spatial import cKDTree
from pmtiles.reader import Reader, MmapSource

ap = argparse.ArgumentParser()
ap.add_argument("archive")
ap.add_argument("--grid", required=True)
ap.add_argument("--points", required=True)
ap.add_argument("--lat", required=True)
ap.add_argument("--lon", required=True)
ap.add_argument("--w")
ap.add_argument("--maplibre", required=True)
ap.add_argument("--screenshot", required=True)
ap.add_argument("--zooms")
ap.add_argument("--chromium", default="/usr/bin/chromium")
ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
a = ap.parse_args()

grid = json.load(open(a.grid))
sigma = grid["radius"] / 3
plane = Transformer.from_crs(CRS.from_epsg(4326), CRS.from_user_input(grid["crs"]), always_xy=True)
lon, lat, w = [], [], []
with open(a.points, newline="") as f:
    for row in csv.DictReader(f):
        try:
            x, y = float(row[a.lon]), float(row[a.lat]); wt = float(row[a.w]) if a.w else 1.0
        except (ValueError, KeyError, TypeError):
            continue
        if math.isfinite(x) and math.isfinite(y) and math.isfinite(wt) and wt >= 0 and abs(y) <= 90:
            lon.append(x); lat.append(y); w.append(wt)
px, py = plane.transform(np.array(lon), np.array(lat))
pts = np.column_stack([px, py]); w = np.array(w); tree = cKDTree(pts)
scale = 1e6 / (2 * math.pi * sigma * sigma)

def exact(lons, lats):
    qx, qy = plane.transform(np.asarray(lons), np.asarray(lats))
    out = np.zeros(len(qx))
    for k, nb in enumerate(tree.query_ball_point(np.column_stack([qx, qy]), 6 * sigma)):
        if nb:
            d2 = (pts[nb, 0] - qx[k]) ** 2 + (pts[nb, 1] - qy[k]) ** 2
            out[k] = np.sum(w[nb] * np.exp(-d2 / (2 * sigma * sigma))) * scale
    return out

f = open(a.archive, "rb")
reader = Reader(MmapSource(f))
header, meta = reader.header(), reader.metadata()
thresholds = meta["legend"]["thresholds"]
zmin, zmax = header["min_zoom"], header["max_zoom"]
zooms = [int(z) for z in a.zooms.split(",")] if a.zooms else sorted({zmin, (zmin + zmax) // 2, zmax})

def band(v):
    return int(np.searchsorted(np.array(thresholds), v, side="right"))

def u_of(lon_): return (lon_ + 180) / 360
def v_of(lat_): return 0.5 - math.asinh(math.tan(math.radians(lat_))) / (2 * math.pi)
def lon_of(u): return u * 360 - 180
def lat_of(v): return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * v))))

# The densest place: the point with most neighbours within the radius.
sample = np.random.default_rng(1).choice(len(lon), size=min(2000, len(lon)), replace=False)
dens = exact(np.array(lon)[sample], np.array(lat)[sample])
best = sample[int(np.argmax(dens))]
centre = (lon[best], lat[best])

W, H = 1024, 768
rng = random.Random(2)
views = []
for z in zooms:
    cu, cv = u_of(centre[0]), v_of(centre[1])
    span_u, span_v = 0.8 * W / (512 * 2 ** z), 0.8 * H / (512 * 2 ** z)
    cell = 1 / (2 ** z * 64)
    known, tries = [], 0
    inside = [i for i in range(len(lon)) if abs(((u_of(lon[i]) - cu + 0.5) % 1) - 0.5) < span_u / 2
              and abs(v_of(lat[i]) - cv) < span_v / 2]
    while len(known) < 12 and tries < 400:
        tries += 1
        if inside and rng.random() < 0.7:
            i = rng.choice(inside)
            u = cu + (((u_of(lon[i]) - cu + 0.5) % 1) - 0.5) + rng.gauss(0, 2 * cell)
            v = v_of(lat[i]) + rng.gauss(0, 2 * cell)
        else:
            u = cu + (rng.random() - 0.5) * span_u; v = cv + (rng.random() - 0.5) * span_v
        # The point and the 4 x 4 nodes of the 3 x 3 cells around it: a
        # renderer's pixel tolerance stays inside them.
        c0, r0 = math.floor(u / cell) * cell, math.floor(v / cell) * cell
        qs = [(u, v)] + [(c0 + i * cell, r0 + j * cell) for i in (-1, 0, 1, 2) for j in (-1, 0, 1, 2)]
        vals = exact([lon_of(q[0]) for q in qs], [lat_of(q[1]) for q in qs])
        bands = {band(x) for x in vals}
        if len(bands) > 1 or any(abs(x - t) <= 0.05 * t for x in vals for t in thresholds):
            continue
        lon_q = lon_of(u)
        lon_q = (lon_q + 180) % 360 - 180
        level = band(vals[0]) - 1 if band(vals[0]) > 0 else None
        # Many levels rather than many points of one.
        if sum(k["level"] == level for k in known) >= 3 and tries < 300:
            continue
        known.append({"lon": lon_q, "lat": lat_of(v), "level": band(vals[0]) - 1 if band(vals[0]) > 0 else None})
    views.append({"zoom": z, "centre": [((centre[0] + 180) % 360) - 180, centre[1]], "known": known})

results = []
done = threading.Event()
page = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/maplibre-gl.css"><script src="/maplibre-gl.js"></script>
<style>html,body,#map{margin:0;width:100%;height:100%}</style></head><body><div id="map"></div><script>
const views = VIEWS;
const report = m => fetch('/error', {method: 'POST', body: String(m)});
window.addEventListener('error', e => report(e.message));
const map = new maplibregl.Map({container: 'map', center: views[0].centre, zoom: views[0].zoom,
  fadeDuration: 0, style: {version: 8, sources: {bands: {type: 'vector', tiles: [location.origin + '/tiles/{z}/{x}/{y}.pbf'],
    minzoom: MINZ, maxzoom: MAXZ}},
    layers: [{id: 'bg', type: 'background', paint: {'background-color': '#ffffff'}},
             {id: 'bands', type: 'fill', source: 'bands', 'source-layer': 'bands',
              paint: {'fill-color': ['get', 'fill'], 'fill-opacity': 0.85}}]}});
async function run() {
  const out = [];
  for (const view of views) {
    map.jumpTo({center: view.centre, zoom: view.zoom});
    await new Promise(r => map.once('idle', r));
    for (const k of view.known) {
      const p = map.project([k.lon, k.lat]);
      const f = map.queryRenderedFeatures(p, {layers: ['bands']});
      const levels = f.map(x => x.properties.level);
      out.push({zoom: view.zoom, lon: k.lon, lat: k.lat, expected: k.level, got: levels.length ? Math.max(...levels) : null,
                count: levels.length});
    }
  }
  await fetch('/result', {method: 'POST', body: JSON.stringify(out)});
  document.title = 'done';
}
map.on('error', e => report(e.error && e.error.message));
map.on('load', () => run().catch(e => report(e)));
</script></body></html>""".replace("VIEWS", json.dumps(views)).replace("MINZ", str(zmin)).replace("MAXZ", str(zmax))

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        if os.environ.get("CHECK_TILES_DEBUG"): sys.stderr.write((args[0] % args[1:]) + "\n")
    def send(self, code, body=b"", kind="text/plain"):
        self.send_response(code); self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_GET(self):
        p = self.path.split("?")[0]
        if p == "/" or p == "/index.html": return self.send(200, page.encode(), "text/html")
        if p in ("/maplibre-gl.js", "/maplibre-gl.css"):
            return self.send(200, open(os.path.join(a.maplibre, p[1:]), "rb").read(),
                             "text/javascript" if p.endswith("js") else "text/css")
        if p.startswith("/tiles/"):
            z, x, y = (int(s) for s in p[len("/tiles/"):-len(".pbf")].split("/"))
            data = reader.get(z, x, y)
            if not data: return self.send(204)
            return self.send(200, gzip.decompress(data), "application/x-protobuf")
        self.send(404)
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/error":
            print("page error:", body.decode()[:300]); return self.send(200)
        results.extend(json.loads(body)); self.send(200); done.set()

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
options = webdriver.ChromeOptions()
for flag in ("--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             f"--window-size={W},{H}"):
    options.add_argument(flag)
options.binary_location = a.chromium
driver = webdriver.Chrome(options=options, service=Service(a.chromedriver))
try:
    driver.get(url)
    done.wait(180)
    driver.save_screenshot(a.screenshot)
finally:
    driver.quit()
done.wait(30)
server.shutdown()
if not results:
    print("FAIL: the page posted no results (MapLibre did not render?)"); sys.exit(1)
bad = [r for r in results if r["got"] != r["expected"]]
for z in zooms:
    rz = [r for r in results if r["zoom"] == z]
    print(f"MapLibre zoom {z}: {len(rz)} known points, {sum(r['got'] == r['expected'] for r in rz)} give the expected level"
          f" (levels {sorted({r['expected'] for r in rz if r['expected'] is not None})})")
for r in bad[:10]:
    print("FAIL:", r)
print(f"screenshot: {a.screenshot}")
sys.exit(1 if bad else 0)
