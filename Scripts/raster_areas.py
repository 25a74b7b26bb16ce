"""Superlevel-set areas of contour files, for Scripts/check-rasters.sh.

  raster_areas.py gdal   RASTER OURS.geojson GDAL.geojson T1,T2,...  (3 % test)
  raster_areas.py contourpy RASTER OURS.geojson T1,T2,...           (1e-4 test)

OURS is `contours export --smooth none` GeoJSON (bands with `threshold`, in
lon/lat, or in the raster's CRS when it was kept); GDAL is `gdal_contour -p
-amin amin` reprojected to EPSG:4326 with ogr2ogr. Geometry is compared in
the raster's own CRS (lon/lat data is projected to it with pyproj), as the
symmetric difference over the area of each superlevel set {value >= T}.
Prints one line per threshold and exits 1 when any is over the tolerance.
"""
import json
import sys

import numpy as np
import pyproj
import rasterio
import shapely
from shapely.geometry import shape
from shapely.ops import unary_union


def load(path):
    with open(path) as f:
        return json.load(f)


def to_raster_plane(geom, crs, lonlat):
    if not lonlat:
        return geom
    t = pyproj.Transformer.from_crs("EPSG:4326", crs, always_xy=True)
    return shapely.transform(geom, lambda xy: np.column_stack(t.transform(xy[:, 0], xy[:, 1])))


def level_index(value, thresholds):
    """The index of the threshold a band's lower bound is. gdal_contour
    writes the bound as printf's %f does (6 decimals), so match that too."""
    for i, t in enumerate(thresholds):
        if value == t or abs(value - t) <= 1e-9 * abs(t) or float(f"{t:f}") == value:
            return i
    return -1


def superlevel(features, key, i, thresholds, crs, lonlat):
    parts = [shape(f["geometry"]) for f in features
             if f["geometry"] is not None and f["properties"].get(key) is not None
             and level_index(f["properties"][key], thresholds) >= i]
    if not parts:
        return shapely.Polygon()
    return to_raster_plane(unary_union([shapely.make_valid(p) for p in parts]), crs, lonlat)


def is_lonlat(doc):
    return "crs" not in doc


def ratio(a, b):
    if a.area == 0 and b.area == 0:
        return 0.0
    return a.symmetric_difference(b).area / max(a.area, b.area)


def contourpy_sets(raster, thresholds):
    import contourpy
    with rasterio.open(raster) as src:
        z = src.read(1, masked=True).astype(float).filled(np.nan)
        tr = src.transform
        rows, cols = z.shape
        xs = tr.c + tr.a * (np.arange(cols) + 0.5)
        ys = tr.f + tr.e * (np.arange(rows) + 0.5)
    # Nodes outside the grid are below every threshold: pad with -inf-like values.
    low = np.nanmin(z) - 1.0
    zp = np.pad(np.where(np.isnan(z), low, z), 1, constant_values=low)
    dx, dy = xs[1] - xs[0], ys[1] - ys[0]
    xp = np.concatenate([[xs[0] - dx * 1e-9], xs, [xs[-1] + dx * 1e-9]])
    yp = np.concatenate([[ys[0] - dy * 1e-9], ys, [ys[-1] + dy * 1e-9]])
    gen = contourpy.contour_generator(xp, yp, zp, name="serial", fill_type="OuterOffset")
    out = []
    top = np.nanmax(z) + 1.0
    for t in thresholds:
        polys = []
        # contourpy fills lower < z <= upper; our levels are z >= t, which differs on
        # integer rasters, where whole plateaus lie at a threshold: start a hair below t.
        points, offsets = gen.filled(t - 1e-9 * max(abs(t), 1e-300), top)
        for pts, offs in zip(points, offsets):
            rings = [pts[offs[k]:offs[k + 1]] for k in range(len(offs) - 1)]
            polys.append(shapely.Polygon(rings[0], rings[1:]))
        out.append(unary_union([shapely.make_valid(p) for p in polys]) if polys else shapely.Polygon())
    return out


def main():
    mode = sys.argv[1]
    raster = sys.argv[2]
    with rasterio.open(raster) as src:
        crs = src.crs.to_wkt() if src.crs else None
    ours = load(sys.argv[3])
    lonlat = is_lonlat(ours) and crs is not None
    if mode == "gdal":
        gdal = load(sys.argv[4])
        thresholds = [float(v) for v in sys.argv[5].split(",")]
        tolerance = 0.03
        others = [superlevel(gdal["features"], "amin", i, thresholds, crs, True) for i in range(len(thresholds))]
    else:
        thresholds = [float(v) for v in sys.argv[4].split(",")]
        tolerance = 1e-4
        others = contourpy_sets(raster, thresholds)
    worst = 0.0
    for i, (t, other) in enumerate(zip(thresholds, others)):
        mine = superlevel(ours["features"], "threshold", i, thresholds, crs, lonlat)
        r = ratio(mine, other)
        worst = max(worst, r)
        print(f"  {mode:9s} T={t:<12.6g} area={mine.area:.6g} symdiff/area={r:.2e}")
    print(f"{mode}: worst {worst:.2e} (tolerance {tolerance:g})")
    sys.exit(0 if worst <= tolerance else 1)


if __name__ == "__main__":
    main()
