#!/usr/bin/env python3
"""GIS re-count of `contours bin` output: a geopandas point-in-polygon join
of the input points against the bin polygons must give every bin the count
the tool reported, for H3 cells, hexagons and squares.
Usage: check-bin-recount.py CONTOURS DATA_DIR WORKDIR"""
import json, subprocess, sys
import geopandas as gpd
import pandas as pd

contours, data, work = sys.argv[1:4]
cases = [("storms.csv", "lat", "long"), ("quakes_fiji.csv", "lat", "long")]
shapes = [["--shape", "h3"], ["--shape", "h3", "--h3-resolution", "5"], ["--shape", "hex"],
          ["--shape", "hex", "--size", "20"], ["--shape", "square"], ["--shape", "hex", "--orientation", "flat"]]
failed = False
for name, la, lo in cases:
    pts = pd.read_csv(f"{data}/{name}")
    points = gpd.GeoDataFrame(geometry=gpd.points_from_xy(pts[lo], pts[la]), crs="EPSG:4326")
    points["lon"] = ((points.geometry.x + 180) % 360) - 180
    points = points.set_geometry(gpd.points_from_xy(points["lon"], pts[la]), crs="EPSG:4326")
    for shape in shapes:
        out = f"{work}/recount.geojson"
        subprocess.run([contours, "bin", f"{data}/{name}", *shape, "-o", out], check=True, capture_output=True)
        cells = gpd.read_file(out)
        key = "id"
        joined = gpd.sjoin(points, cells[[key, "geometry"]], how="left", predicate="intersects")
        per_point = joined.groupby(level=0)[key].nunique()
        multi = int((per_point > 1).sum())
        missing = int(joined[key].isna().sum())
        counted = joined.dropna(subset=[key]).groupby(key).size()
        tool = cells.groupby(key)["count"].sum()
        both = pd.concat([tool.rename("tool"), counted.rename("gis")], axis=1).fillna(0)
        wrong = both[both.tool != both.gis]
        ok = len(wrong) == 0 and multi == 0 and missing == 0
        failed |= not ok
        print(f"{name} {' '.join(shape)}: {len(cells)} cells, {len(points)} points: "
              + ("GIS re-count equals the tool's counts" if ok else
                 f"{len(wrong)} cells differ, {multi} points in several cells, {missing} in none; e.g. {wrong.head(3).to_dict('index')}"))
sys.exit(1 if failed else 0)
