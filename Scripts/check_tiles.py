#!/usr/bin/env python3
"""Checks a PMTiles archive written by `contours tiles` (run by check-tiles.sh).

  check_tiles.py ARCHIVE.pmtiles --grid GRID.json --points FILE.csv --lat COL --lon COL [--w COL]
                 [--kernel K] [--values density|raw] [--radius-column COL] [--adaptive A [--trim T]]
                 [--samples N] [--margin F]

GRID.json is `contours grid` of the same points and density options: its
"crs" (the plane the kernel is measured in) and "radius". The kernel options mean what they mean for kde_oracle.py
(the shapes of SPEC §17; a point's own radius from COL, or Abramson's
radii from the exact pilot at every point). Checks:
  1. the header and metadata (vector_layers, bounds, legend thresholds);
  2. every tile decodes (gzip, then Mapbox Vector Tile 2.1);
  3. every band polygon is valid (shapely, after flipping y) and every
     feature's threshold is the legend's for its level, at every zoom;
  4. at random points of sampled tiles, the band read from the tile equals
     the band of the exact kernel sum there, except where the point or a
     corner of its lattice cell is within --margin (relative) of a
     threshold, or the corners' bands differ (the band edge is inside the
     cell, where marching squares interpolates).
Prints one line per zoom and exits 1 on any failure.
"""
import argparse, csv, gzip, json, math, random, sys
from collections import defaultdict
import numpy as np
from pyproj import CRS, Transformer
from scipy.spatial import cKDTree
import mapbox_vector_tile
from shapely.geometry import shape, Point
from pmtiles.reader import Reader, MmapSource, all_tiles

ap = argparse.ArgumentParser()
ap.add_argument("archive")
ap.add_argument("--grid", required=True)
ap.add_argument("--points", required=True)
ap.add_argument("--lat", required=True)
ap.add_argument("--lon", required=True)
ap.add_argument("--w")
ap.add_argument("--kernel", default="gaussian")
ap.add_argument("--values", choices=["density", "raw"], default="density")
ap.add_argument("--radius-column")
ap.add_argument("--adaptive", type=float)
ap.add_argument("--trim", type=float, default=5.0)
ap.add_argument("--bins", choices=["hexagon", "h3"])
ap.add_argument("--samples", type=int, default=12, help="points per sampled tile")
ap.add_argument("--tiles-per-zoom", type=int, default=40)
ap.add_argument("--margin", type=float, default=0.02)
a = ap.parse_args()

failures = []
def fail(msg):
    failures.append(msg)
    if len(failures) <= 20:
        print("FAIL:", msg)

grid = json.load(open(a.grid))
radius = grid["radius"]
sigma = radius / 3
plane = Transformer.from_crs(CRS.from_epsg(4326), CRS.from_user_input(grid["crs"]), always_xy=True)

lon, lat, w, own = [], [], [], []
with open(a.points, newline="") as f:
    for row in csv.DictReader(f):
        try:
            x, y = float(row[a.lon]), float(row[a.lat])
            wt = float(row[a.w]) if a.w else 1.0
            r = float(row[a.radius_column]) if a.radius_column else radius
        except (ValueError, KeyError, TypeError):
            continue
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(wt)) or wt < 0 or abs(y) > 90:
            continue
        lon.append(x); lat.append(y); w.append(wt); own.append(r)
px, py = plane.transform(np.array(lon), np.array(lat))
pts = np.column_stack([px, py])
w = np.array(w)
tree = cKDTree(pts)

name, _, arg = a.kernel.partition(":")
decay = float(arg) if name == "triangular" and arg else 0.0
finite = name != "gaussian"
raw_values = a.values == "raw"

def kernel(d2, r):
    """The kernel at squared distance d2 for radius r (per m², or raw)."""
    if not finite:
        s2 = (r / 3.0) ** 2
        k = np.exp(-d2 / (2 * s2))
        return k if raw_values else k / (2 * np.pi * s2)
    u2 = d2 / (r * r); inside = u2 <= 1.0; u2 = np.minimum(u2, 1.0)
    shape_, norm = {
        "quartic": ((1 - u2) ** 2, 3.0),
        "epanechnikov": (1 - u2, 2.0),
        "triweight": ((1 - u2) ** 3, 4.0),
        "triangular": (1 - (1 - decay) * np.sqrt(u2), 3.0 / (1 + 2 * decay)),
        "uniform": (np.ones_like(u2), 1.0),
    }[name]
    k = np.where(inside, shape_, 0.0)
    return k if raw_values else k * norm / (np.pi * r * r)

radii = np.array(own)
if a.adaptive is not None:
    pilot = np.zeros(len(w))
    reach0 = radius if finite else 2.0 * radius
    for i, nb in enumerate(tree.query_ball_point(pts, reach0)):
        nb = np.asarray(nb)
        d2 = (pts[nb, 0] - pts[i, 0]) ** 2 + (pts[nb, 1] - pts[i, 1]) ** 2
        pilot[i] = np.sum(w[nb] * kernel(d2, radius))
    ok = (w > 0) & (pilot > 0)
    g = math.exp(np.sum(w[ok] * np.log(pilot[ok])) / np.sum(w[ok]))
    lam = np.ones(len(w)); lam[ok] = (pilot[ok] / g) ** (-a.adaptive)
    radii = radius * np.minimum(lam, a.trim)
reach = (1.0 if finite else 2.0) * radii.max()     # the Gaussian to 6σ
scale = 1.0 if raw_values else 1e6                         # per m² -> per km²

def exact(lons, lats):
    qx, qy = plane.transform(np.asarray(lons), np.asarray(lats))
    out = np.zeros(len(qx))
    for k, nb in enumerate(tree.query_ball_point(np.column_stack([qx, qy]), reach)):
        if nb:
            d2 = (pts[nb, 0] - qx[k]) ** 2 + (pts[nb, 1] - qy[k]) ** 2
            out[k] = np.sum(w[nb] * kernel(d2, radii[nb])) * scale
    return out

with open(a.archive, "rb") as f:
    get = MmapSource(f)
    reader = Reader(get)
    header = reader.header()
    meta = reader.metadata()
    tiles = list(all_tiles(get))

layers = {l["id"] for l in meta.get("vector_layers", [])}
if "bands" not in layers:
    fail("metadata: no 'bands' in vector_layers")
legend = meta.get("legend", {})
thresholds = legend.get("thresholds", [])
if not thresholds or thresholds != sorted(thresholds):
    fail(f"metadata: thresholds {thresholds}")
for key in ("colors", "units", "radius", "kernel"):
    if key not in legend:
        fail(f"metadata legend has no {key}")
if legend.get("kernel") != a.kernel or legend.get("values", "density") != a.values:
    fail(f"metadata kernel {legend.get('kernel')} ({legend.get('values')}) is not {a.kernel} ({a.values})")
if abs(legend.get("radius", 0) - radius) > 1e-6 * radius:
    fail(f"metadata radius {legend.get('radius')} is not the grid's {radius}")
print(f"header: zooms {header['min_zoom']}-{header['max_zoom']}, {len(tiles)} tiles addressed, "
      f"{header.get('tile_contents_count')} stored; {len(thresholds)} thresholds {thresholds[:3]}...; radius {radius:.6g} m, kernel {a.kernel} ({a.values})"
      + (f", radii {radii.min():.4g}-{radii.max():.4g} m" if radii.min() < radii.max() else ""))

def band_of(v):
    return int(np.searchsorted(np.array(thresholds), v, side="right"))

def world_to_lonlat(u, v):
    return u * 360 - 180, math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * v))))

extent = 4096
cell = 64  # tile units per lattice cell
rng = random.Random(1)
by_zoom = defaultdict(list)
for (z, x, y), data in tiles:
    by_zoom[z].append((x, y, data))

sizes = []
for z in sorted(by_zoom):
    entries = by_zoom[z]
    invalid = features = compared = skipped = mismatched = 0
    columns = sorted({x for x, _, _ in entries})
    sample = set(rng.sample(range(len(entries)), min(a.tiles_per_zoom, len(entries))))
    for k, (x, y, data) in enumerate(entries):
        sizes.append(len(data))
        try:
            raw = gzip.decompress(data)
            decoded = mapbox_vector_tile.decode(raw, default_options={"y_coord_down": True})
        except Exception as e:
            fail(f"{z}/{x}/{y}: does not decode: {e}")
            continue
        bands = decoded.get("bands", {"features": []})
        polys = []
        for feat in bands["features"]:
            features += 1
            props = feat["properties"]
            lv = props["level"]
            if props["threshold"] != thresholds[lv]:
                fail(f"{z}/{x}/{y}: level {lv} threshold {props['threshold']} is not {thresholds[lv]}")
            if lv + 1 < len(thresholds) and props.get("upper") != thresholds[lv + 1]:
                fail(f"{z}/{x}/{y}: level {lv} upper {props.get('upper')}")
            geom = shape(feat["geometry"])
            # y down as decoded; flipping y mirrors rings, which keeps validity as shapely sees it.
            from shapely.affinity import scale as sscale
            flipped = sscale(geom, yfact=-1, origin=(0, 0))
            if not flipped.is_valid:
                from shapely.validation import explain_validity
                invalid += 1
                fail(f"{z}/{x}/{y}: level {lv} invalid: {explain_validity(flipped)}")
            polys.append((lv, geom))
        if k not in sample:
            continue
        n = 1 << z
        qs = [(rng.uniform(0, extent), rng.uniform(0, extent)) for _ in range(a.samples)]
        # The point and the corners of its lattice cell, in tile units.
        allpts = []
        for tx, ty in qs:
            c0, r0 = math.floor(tx / cell) * cell, math.floor(ty / cell) * cell
            allpts += [(tx, ty), (c0, r0), (c0 + cell, r0), (c0, r0 + cell), (c0 + cell, r0 + cell)]
        lonlat = [world_to_lonlat((x + tx / extent) / n, (y + ty / extent) / n) for tx, ty in allpts]
        vals = exact([p[0] for p in lonlat], [p[1] for p in lonlat])
        for j, (tx, ty) in enumerate(qs):
            group = vals[5 * j: 5 * j + 5]
            bands_here = {band_of(v) for v in group}
            near = any(abs(v - t) <= a.margin * t for v in group for t in thresholds)
            if near or len(bands_here) > 1:
                skipped += 1
                continue
            expected = band_of(group[0])
            got = 0
            p = Point(tx, ty)
            for lv, geom in polys:
                if geom.contains(p):
                    got = lv + 1
            compared += 1
            if got != expected:
                mismatched += 1
                fail(f"{z}/{x}/{y} at ({tx:.0f},{ty:.0f}): tile band {got}, exact band {expected} "
                     f"(density {group[0]:.6g})")
    wrapped = " (both sides of the antimeridian)" if columns and columns[0] < n // 4 and columns[-1] > 3 * n // 4 else ""
    print(f"zoom {z}: {len(entries)} tiles, columns {columns[0]}..{columns[-1]}{wrapped}, {features} band features, "
          f"{invalid} invalid; {compared} points compared with the exact density, {mismatched} differ, "
          f"{skipped} near a threshold or a band edge")
def bin_key(z, lo, la):
    """The cell (of --bins at zoom z) holding lon/lat, recomputed independently."""
    if a.bins == "h3":
        import h3
        return h3.latlng_to_cell(la, lo, h3_resolution(z))
    across = round(256 * 2 ** z / (12 * math.sqrt(3)))      # whole hexagons around the world
    r = 1 / (across * math.sqrt(3))                          # hexagon radius, world units
    u = (lo + 180) / 360
    v = 0.5 - math.asinh(math.tan(math.radians(la))) / (2 * math.pi)
    q = (math.sqrt(3) / 3 * u - v / 3) / r; rr = (2 / 3 * v) / r   # pointy-top axial
    x, zc = q, rr; y = -x - zc
    # Cube rounding, half up, the coordinate with the largest error fixed
    # (q before r before s on equal errors), as docs/binning.md states.
    rx, ry, rz = math.floor(x + 0.5), math.floor(y + 0.5), math.floor(zc + 0.5)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - zc)
    if dx >= dz and dx >= dy: rx = -ry - rz
    elif dz >= dy: rz = -rx - ry
    else: ry = -rx - rz
    return (rx % across, rz)                                 # one cell on both sides of ±180°

mid_lat = (min(lat) + max(lat)) / 2 if lat else 0
def h3_resolution(z):
    edges = [1107.712591, 418.6760055, 158.2446558, 59.81085794, 22.6063794, 8.544408276, 3.229482772, 1.220629759,
             0.461354684, 0.174375668, 0.065907807, 0.024910561, 0.009415526, 0.003559893, 0.001348575, 0.000509713]
    km = 12 / 256 / 2 ** z * 40075016.68557849 * math.cos(math.radians(mid_lat)) / 1000
    return min(range(16), key=lambda k: abs(math.log(edges[k] / km)))

if a.bins:
    from collections import Counter
    from shapely.geometry import Polygon
    from shapely.affinity import scale as sscale2
    brng = random.Random(3)
    for z in sorted(by_zoom):
        entries = by_zoom[z]
        counts, weights = Counter(), Counter()
        for lo_, la_, wt in zip(lon, lat, w):
            k = bin_key(z, lo_, la_); counts[k] += 1; weights[k] += wt
        checked = bad = invalid = nbins = 0
        for x, y, data in brng.sample(entries, min(a.tiles_per_zoom, len(entries))):
            feats = mapbox_vector_tile.decode(gzip.decompress(data), default_options={"y_coord_down": True}).get(
                "bins", {"features": []})["features"]
            n = 1 << z
            for ft in feats:
                nbins += 1
                poly = shape(ft["geometry"])
                if not sscale2(poly, yfact=-1, origin=(0, 0)).is_valid:
                    invalid += 1; fail(f"{z}/{x}/{y}: bin polygon invalid")
                c = poly.centroid
                if not (0 <= c.x < extent and 0 <= c.y < extent):
                    continue
                lo_, la_ = world_to_lonlat((x + c.x / extent) / n, (y + c.y / extent) / n)
                k = bin_key(z, lo_, la_)
                props = ft["properties"]
                checked += 1
                # Ground area: H3's own; a hexagon's in Lambert's equal-area cylinder (u, sin φ).
                if a.bins == "h3":
                    import h3
                    km2 = h3.cell_area(k, unit="km^2")
                else:
                    ring = [((x + px_ / extent) / n, math.tanh(math.pi * (1 - 2 * (y + py_ / extent) / n)))
                            for px_, py_ in poly.exterior.coords]
                    C = 40075016.68557849
                    km2 = abs(Polygon(ring).area) * C * C / (2 * math.pi) / 1e6
                if props["count"] != counts[k] or abs(props["weight"] - weights[k]) > 1e-9 * max(1, weights[k]) \
                        or abs(props["density"] - props["weight"] / km2) > 0.01 * props["density"]:
                    bad += 1
                    fail(f"{z}/{x}/{y}: bin count {props['count']} weight {props['weight']:.6g} density "
                         f"{props['density']:.6g}; recount {counts[k]} {weights[k]:.6g}, {weights[k] / km2:.6g}")
        size = f"H3 resolution {h3_resolution(z)}" if a.bins == "h3" else "hexagons of 12 px"
        print(f"bins zoom {z}: {size}, {nbins} bins in sampled tiles, {invalid} invalid, {checked} recounted, {bad} differ")

print(f"tile sizes (gzipped): largest {max(sizes) if sizes else 0} bytes, mean {int(np.mean(sizes)) if sizes else 0}")
if sizes and max(sizes) > 500 * 1024:
    fail("a tile is over 500 KB")
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("all tiles pass")
