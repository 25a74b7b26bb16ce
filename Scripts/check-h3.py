#!/usr/bin/env python3
"""Checks the library's H3 against the reference (PyPI `h3` 4.x).

Usage: check-h3.py BENCH_BINARY WORKDIR [N]

1. Ids: N random points over the sphere (default 1,000,000) plus points on the
   12 pentagons (centres and corners), the poles, ±180°, the icosahedron face
   centres and cell corners and edge midpoints, at every resolution 0–15:
   every id must equal h3.latlng_to_cell.
2. Cells: 10,000 cells per resolution (drawn from the points, plus the
   pentagons; every cell at resolutions 0–2): boundary within 1e-9° (and counted bit-identical), centre
   within 1e-9°, area within 1e-9 relative, parent, children and grid disk
   (k = 1; k = 2 on the first 1,000) equal as sets.
Prints one line per resolution and exits 1 on any mismatch.
"""
import json, subprocess, sys, time
import numpy as np
import h3
from h3.api import basic_int as h3i

bench, work = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
rng = np.random.default_rng(20261201)

# --- the points -------------------------------------------------------------
lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
lon = rng.uniform(-180, 180, n)
special = []
for res in range(16):
    for p in h3.get_pentagons(res):
        special.append(h3.cell_to_latlng(p))
        special.extend(h3.cell_to_boundary(p))
for la in (90.0, -90.0, 89.99999999, -89.99999999):
    for lo in (-180.0, -135.0, -90.0, 0.0, 45.0, 90.0, 180.0):
        special.append((la, lo))
for la in rng.uniform(-90, 90, 2000):
    special += [(la, 180.0), (la, -180.0), (la, np.nextafter(180.0, 0)), (la, np.nextafter(-180.0, 0))]
for c in h3.get_res0_cells():
    special.extend(h3.cell_to_boundary(c))
# corners and edge midpoints of random cells at every resolution
for res in range(16):
    for k in range(300):
        c = h3.latlng_to_cell(float(lat[k]), float(lon[k]), res)
        b = h3.cell_to_boundary(c)
        special.extend(b)
        for i in range(len(b)):
            p, q = b[i], b[(i + 1) % len(b)]
            if abs(p[1] - q[1]) < 180:
                special.append(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
special = np.array(special, dtype=float)
lat = np.concatenate([lat, special[:, 0]])
lon = np.concatenate([lon, special[:, 1]])
np.stack([lat, lon], 1).astype('<f8').tofile(f"{work}/points.f64")
print(f"{len(lat)} points ({len(special)} special: pentagons, poles, ±180°, corners, edges)")

failed = False
sample = {}
for res in range(16):
    out = subprocess.run([bench, "h3", "cells", f"{work}/points.f64", str(res), f"{work}/ids.u64"],
                         check=True, capture_output=True, text=True)
    mine = np.fromfile(f"{work}/ids.u64", "<u8")
    ref = np.fromiter((h3i.latlng_to_cell(a, b, res) for a, b in zip(lat.tolist(), lon.tolist())),
                      dtype=np.uint64, count=len(lat))
    bad = np.nonzero(mine != ref)[0]
    if len(bad):
        failed = True
        i = bad[0]
        print(f"res {res}: {len(bad)} ids differ, e.g. ({lat[i]!r}, {lon[i]!r}): {int(mine[i]):x} vs {int(ref[i]):x}")
    else:
        print(f"res {res}: all {len(ref)} ids equal")
    if res <= 2:   # every cell there is (122, 842, 5,882)
        sample[res] = sorted(c for b in h3.get_res0_cells() for c in h3.cell_to_children(b, res))
    else:
        cells = list(dict.fromkeys(h3.int_to_str(int(x)) for x in ref[:20000]))[:10000 - 12]
        sample[res] = cells + h3.get_pentagons(res)

# --- the cells --------------------------------------------------------------
for res in range(16):
    cells = sample[res]
    for k, subset in ((1, cells), (2, cells[:1000])):
        with open(f"{work}/cells.txt", "w") as f:
            f.write("\n".join(subset) + "\n")
        subprocess.run([bench, "h3", "describe", f"{work}/cells.txt", f"{work}/cells.jsonl", str(k)], check=True)
        worst_b = worst_c = worst_a = 0.0
        identical = 0
        bad = {}
        for line, c in zip(open(f"{work}/cells.jsonl"), subset):
            d = json.loads(line)
            def fail(what):
                bad[what] = bad.get(what, 0) + 1
            if sorted(d["disk"]) != sorted(h3.grid_disk(c, k)):
                fail(f"disk{k}")
            if k == 2:
                continue
            rb = h3.cell_to_boundary(c)
            if len(rb) != len(d["boundary"]):
                fail("boundary length")
            else:
                e = max(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p, q in zip(rb, d["boundary"]))
                worst_b = max(worst_b, e)
                identical += rb == tuple(tuple(p) for p in d["boundary"])
                if e > 1e-9:
                    fail("boundary")
            rc = h3.cell_to_latlng(c)
            worst_c = max(worst_c, abs(rc[0] - d["center"][0]), abs(rc[1] - d["center"][1]))
            ra = h3.cell_area(c, "km^2")
            worst_a = max(worst_a, abs(ra - d["area_km2"]) / ra)
            if abs(ra - d["area_km2"]) > 1e-9 * ra:
                fail("area")
            if res > 0 and d["parent"] != h3.cell_to_parent(c, res - 1):
                fail("parent")
            if res < 15 and sorted(d["children"]) != sorted(h3.cell_to_children(c, res + 1)):
                fail("children")
            if d["pentagon"] != h3.is_pentagon(c):
                fail("pentagon")
        if bad:
            failed = True
        if k == 1:
            print(f"res {res}: {len(subset)} cells: boundaries max |Δ| {worst_b:.1e}° ({identical} bit-identical), "
                  f"centres {worst_c:.1e}°, areas {worst_a:.1e} rel; parent/children/disk1 "
                  + ("equal" if not bad else f"MISMATCH {bad}"))
        else:
            print(f"res {res}: {len(subset)} cells: disk2 " + ("equal" if not bad else f"MISMATCH {bad}"))
sys.exit(1 if failed else 0)
