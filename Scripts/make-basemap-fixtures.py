#!/usr/bin/env python3
"""Cuts Tests/Fixtures/Basemaps/nz_islands.geojson out of
Samples/data/nz_coastline.geojson (LINZ, CC BY 4.0; see Samples/data/README.md):
the polygons of seven islands on both sides of the antimeridian, so a test can
check that a basemap across ±180° projects as one map. Each island is the
smallest polygon whose box holds the island's named point.

Run from the package root: python3 Scripts/make-basemap-fixtures.py
Standard library only.
"""
import json

SOURCE = "Samples/data/nz_coastline.geojson"
TARGET = "Tests/Fixtures/Basemaps/nz_islands.geojson"

# (name, longitude, latitude) of a point inside each island's box.
ISLANDS = [
    ("Raoul Island", -177.93, -29.27),       # Kermadecs, east of ±180°
    ("Chatham Island", -176.50, -43.90),     # east of ±180°
    ("Pitt Island", -176.20, -44.28),        # east of ±180°
    ("Stewart Island", 167.90, -47.00),
    ("Antipodes Island", 178.77, -49.68),
    ("Auckland Island", 166.10, -50.70),
    ("Campbell Island", 169.15, -52.54),
]


def box(ring):
    xs = [p[0] for p in ring]
    ys = [p[1] for p in ring]
    return min(xs), min(ys), max(xs), max(ys)


def main():
    features = json.load(open(SOURCE, encoding="utf-8"))["features"]
    chosen = []
    for name, lon, lat in ISLANDS:
        holding = []
        for f in features:
            x0, y0, x1, y1 = box(f["geometry"]["coordinates"][0])
            if x0 <= lon <= x1 and y0 <= lat <= y1:
                holding.append(((x1 - x0) * (y1 - y0), f))
        if not holding:
            raise SystemExit(f"no polygon of {SOURCE} holds {name} ({lon}, {lat})")
        _, f = min(holding, key=lambda h: h[0])
        chosen.append({"type": "Feature", "properties": {"name": name}, "geometry": f["geometry"]})
    with open(TARGET, "w", encoding="utf-8") as out:
        json.dump({"type": "FeatureCollection", "features": chosen}, out, separators=(",", ":"))
        out.write("\n")
    print(f"{TARGET}: {len(chosen)} islands, "
          f"{sum(len(c['geometry']['coordinates'][0]) for c in chosen)} positions")


if __name__ == "__main__":
    main()
