#!/usr/bin/env python3
"""The end-to-end peer of `contours export`: a CSV of geographic points to
a GeoJSON file of density bands, done as a Python user would with pyarrow,
pyproj, numpy, scipy, contourpy and orjson. Prints one JSON object with the
seconds of each stage (read, project, grid, contour, write, total) and the
counts.

Usage: export_peer.py POINTS.csv OUT.geojson [--radius METRES] [--resolution G]
                      [--levels L] [--threads T] [--weight COLUMN]

POINTS.csv has columns lon and lat (and the weight column, if given), as
points.py --geo writes them. The grid follows the package: Lambert
azimuthal equal-area centred on the data (circular mean of the longitudes,
so data across ±180° stays one cluster), the box padded by 1.5 radii, G
cells along the longer side, sigma = radius / 3, values per km²; linear
binning, then scipy's Gaussian filter; quantile thresholds of the nonzero
nodes; filled contours by contourpy (threaded), unprojected by pyproj,
rounded to six decimals. It does less than the package: no smoothing, no
split at ±180°, no check that rings stay valid after rounding. Needs the
environment of setup.sh.
"""
import argparse
import json
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser(description="Python peer of contours export")
    ap.add_argument("points")
    ap.add_argument("out")
    ap.add_argument("--radius", type=float, default=5000.0)
    ap.add_argument("--resolution", type=int, default=4000)
    ap.add_argument("--levels", type=int, default=40)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--weight", help="column of weights (default: 1 per point)")
    a = ap.parse_args()
    import contourpy
    import orjson
    import pyarrow.csv
    import pyproj
    from scipy.ndimage import gaussian_filter

    seconds = {}
    clock = time.perf_counter
    begin = clock()
    table = pyarrow.csv.read_csv(a.points)
    lon = table["lon"].to_numpy().astype(np.float64)
    lat = table["lat"].to_numpy().astype(np.float64)
    w = table[a.weight].to_numpy().astype(np.float64) if a.weight else np.ones_like(lon)
    seconds["read_s"] = clock() - begin

    start = clock()
    radians = np.radians(lon)
    lon0 = float(np.degrees(np.arctan2(np.sin(radians).mean(), np.cos(radians).mean())))
    lat0 = float(lat.mean())
    plane = pyproj.CRS.from_proj4(f"+proj=laea +lat_0={lat0} +lon_0={lon0} +datum=WGS84 +units=m")
    forward = pyproj.Transformer.from_crs("EPSG:4326", plane, always_xy=True)
    inverse = pyproj.Transformer.from_crs(plane, "EPSG:4326", always_xy=True)
    x, y = forward.transform(lon, lat)
    seconds["project_s"] = clock() - start

    start = clock()
    sigma, pad = a.radius / 3, 1.5 * a.radius
    x0, y0 = x.min() - pad, y.min() - pad
    width, height = x.max() + pad - x0, y.max() + pad - y0
    if height >= width:
        rows, cols = a.resolution, max(2, int(a.resolution * width / height))
    else:
        cols, rows = a.resolution, max(2, int(a.resolution * height / width))
    dx, dy = width / cols, height / rows
    fx, fy = (x - x0) / dx - 0.5, (y - y0) / dy - 0.5
    ix, iy = np.floor(fx).astype(np.int64), np.floor(fy).astype(np.int64)
    tx, ty = fx - ix, fy - iy
    sums = np.zeros((rows + 1) * (cols + 1))
    for ox, oy, share in ((0, 0, (1 - tx) * (1 - ty)), (1, 0, tx * (1 - ty)),
                          (0, 1, (1 - tx) * ty), (1, 1, tx * ty)):
        node = np.clip(iy + oy, 0, rows) * (cols + 1) + np.clip(ix + ox, 0, cols)
        sums += np.bincount(node, weights=w * share, minlength=sums.size)
    z = sums.reshape(rows + 1, cols + 1)[:rows, :cols]
    z = gaussian_filter(z, sigma=(sigma / dy, sigma / dx), truncate=4.0, mode="constant") / (dx * dy / 1e6)
    seconds["grid_s"] = clock() - start

    start = clock()
    nonzero = np.sort(z[z > 0].ravel())
    picks = [nonzero[min(len(nonzero) - 1, int(len(nonzero) * (k + 1) / (a.levels + 1)))]
             for k in range(a.levels)] if len(nonzero) else []
    cuts = sorted(set(float(p) for p in picks))
    gx, gy = x0 + (np.arange(cols) + 0.5) * dx, y0 + (np.arange(rows) + 0.5) * dy
    tracer = contourpy.contour_generator(gx, gy, z, fill_type="OuterOffset", name="threaded",
                                         thread_count=a.threads)
    tops = cuts[1:] + [float(z.max()) * 2 + 1]
    features, polygons, vertices = [], 0, 0
    for level, (low, high) in enumerate(zip(cuts, tops)):
        points, offsets = tracer.filled(low, high)
        shapes = []
        for p, o in zip(points, offsets):
            lons, lats = inverse.transform(p[:, 0], p[:, 1])
            positions = np.round(np.column_stack([lons, lats]), 6)
            shapes.append([positions[o[k]:o[k + 1]] for k in range(len(o) - 1)])
            polygons += 1
            vertices += len(p)
        features.append((level, shapes))
    seconds["contour_s"] = clock() - start

    start = clock()
    with open(a.out, "wb") as out:
        out.write(b'{"type":"FeatureCollection","features":[')
        for k, (level, shapes) in enumerate(features):
            feature = {"type": "Feature", "properties": {"level": level, "threshold": cuts[level]},
                       "geometry": {"type": "MultiPolygon", "coordinates": shapes}}
            out.write((b"," if k else b"") + orjson.dumps(feature, option=orjson.OPT_SERIALIZE_NUMPY))
        out.write(b"]}")
    seconds["write_s"] = clock() - start
    seconds["total_s"] = clock() - begin
    seconds.update(polygons=polygons, vertices=vertices, levels=len(cuts), grid=[cols, rows])
    print(json.dumps(seconds))


if __name__ == "__main__":
    main()
