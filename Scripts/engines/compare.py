#!/usr/bin/env python3
"""Compares the grid (and the export thresholds) finished from an engine's
cells table with the ones `contours` computes from the raw rows.

  compare.py CELLS.json RAW.json [CELLS.geojson RAW.geojson] [--rule scott]

Geometry: columns and rows equal, origin and spacing equal bit for bit
(within 1e-12 relative for --rule scott or silverman, whose variance an
engine sums in another order than the tool's running one); the same kernel,
kernel values and radius (within 1e-12). Values: every node within
1e-3 x the grid maximum, NaN (undefined mean) at the same nodes.
Thresholds: as many, each within 1e-3 x the grid maximum; the largest
difference is printed relative to the maximum and to the thresholds (the
lowest ones sit in the kernels' far tails, where the node error of either
grid is large relative to the value). Exit 1 on any failure.
"""
import json, sys
import numpy as np

args = [a for a in sys.argv[1:] if not a.startswith("--")]
rule = sys.argv[sys.argv.index("--rule") + 1] if "--rule" in sys.argv else "auto"
if rule in args: args.remove(rule)
a, b = (json.load(open(p)) for p in args[:2])
ok = True
notes = []
for k in ["columns", "rows"]:
    if a[k] != b[k]:
        ok = False; notes.append(f"{k} {a[k]} != {b[k]}")
for k in ["x0", "y0", "dx", "dy"]:
    tolerance = 1e-12 * max(abs(b[k]), abs(b["dx"]), abs(b["dy"])) if rule in ("scott", "silverman") else 0
    if abs(a[k] - b[k]) > tolerance:
        ok = False; notes.append(f"{k} {a[k]!r} != {b[k]!r}")
geometry = "identical" if all(a[k] == b[k] for k in ["columns", "rows", "x0", "y0", "dx", "dy"]) else \
    ("within 1e-12" if ok else "DIFFERENT")
if a["projection"] != b["projection"]:
    ok = False; notes.append(f"projection {a['projection']} != {b['projection']}")
for k in ["kernel", "kernel_values", "radius"]:
    if a.get(k) != b.get(k) and k != "radius" or (k == "radius" and abs(a[k] - b[k]) > 1e-12 * abs(b[k])):
        ok = False; notes.append(f"{k} {a.get(k)} != {b.get(k)}")
va = np.array([np.nan if v is None else v for v in a["values"]], float)
vb = np.array([np.nan if v is None else v for v in b["values"]], float)
top = np.nanmax(np.abs(vb)) if np.isfinite(vb).any() else 1.0
if va.shape != vb.shape:
    ok = False; diff = float("inf"); nan = -1
else:
    nan = int((np.isnan(va) != np.isnan(vb)).sum())
    both = ~np.isnan(va) & ~np.isnan(vb)
    diff = float(np.max(np.abs(va[both] - vb[both]))) / top if both.any() else 0.0
    if diff > 1e-3 or nan:
        ok = False
line = f"geometry {geometry} ({b['columns']}x{b['rows']}); max |diff| = {diff:.2e} x max; NaN mismatches {nan}"
if len(args) >= 4:
    def thresholds(p):
        features = json.load(open(p))["features"]
        return sorted({f["properties"]["threshold"] for f in features})
    ta, tb = thresholds(args[2]), thresholds(args[3])
    if len(ta) != len(tb):
        ok = False; line += f"; thresholds {len(ta)} != {len(tb)}"
    else:
        d = max((abs(x - y) for x, y in zip(ta, tb)), default=0)
        rel = max((abs(x - y) / abs(y) for x, y in zip(ta, tb) if y), default=0)
        upper = max((abs(x - y) / abs(y) for x, y in zip(ta, tb) if y >= 1e-3 * top), default=0)
        if d > 1e-3 * top:
            ok = False
        line += (f"; {len(ta)} thresholds within {d / top:.0e} x max ({rel:.0e} relative,"
                 f" {upper:.0e} for those above 1e-3 x max)")
print(("ok    " if ok else "FAIL  ") + line + ("; " + "; ".join(notes) if notes else ""))
sys.exit(0 if ok else 1)
