#!/usr/bin/env python3
"""Checks frames of a time-framed JSON grid (`contours grid --frames ...`)
against the exact kernel sum over the points whose time falls in each
frame's half-open window [start, end), using kde_oracle.py --frame K.

Usage:
  check-frames.py --points FILE.csv --grid GRID.json --time COL[,COL...]
                  [--time-format iso|epoch|epoch-ms] [--frames K1,K2,...]
                  [--adaptive ALPHA [--trim T]] [--oracle PATH]
                  -- [kde_oracle options: --lat/--lon or --x/--y, --w, --kernel ...]

Times are read independently of the tool (Python's datetime, proleptic
Gregorian, UTC). Also checks that every frame's start and end are the
exact step arithmetic (start_k+1 = next start, end = start + window as the
JSON's "time" member says) and that frames are in order.

--adaptive: the grid was made with `--adaptive ALPHA`, whose radii come
from one pilot over ALL points (a point keeps its radius in every frame).
This script computes those radii itself (the pilot: the fixed-radius sum at
the grid's "radius", point included; the weighted geometric mean over
points with w > 0; r = R min((pilot/g)^-ALPHA, T)) and hands them to the
oracle as a radius column of the frame's points.
Needs numpy (the oracle) and the peers' Python.
"""
import argparse, csv, json, os, subprocess, sys, tempfile
from datetime import datetime, timezone

ap = argparse.ArgumentParser()
ap.add_argument("--points", required=True)
ap.add_argument("--grid", required=True)
ap.add_argument("--time", required=True)
ap.add_argument("--time-format", default="iso")
ap.add_argument("--frames", help="comma list of frame indexes (default: first, middle, last)")
ap.add_argument("--oracle", default="/work/shared/check/kde_oracle.py")
ap.add_argument("--mean", metavar="COL", help="the grid is the kernel-weighted mean of COL (--value COL): checked here, "
                "Gaussian kernel, against sum(v w K) / sum(w K), undefined where sum(w e^(-d²/2σ²)) < 0.05")
ap.add_argument("--adaptive", type=float)
ap.add_argument("--trim", type=float, default=5.0)
ap.add_argument("rest", nargs=argparse.REMAINDER)
a = ap.parse_args()
rest = [r for r in a.rest if r != "--"]

def parse_time(row, cols):
    if len(cols) == 1:
        v = row[cols[0]].strip()
        if a.time_format == "epoch":
            return float(v)
        if a.time_format == "epoch-ms":
            return float(v) / 1000
        d = datetime.fromisoformat(v.replace("Z", "+00:00"))
        if d.tzinfo is None:
            d = d.replace(tzinfo=timezone.utc)
        return d.timestamp()
    parts = [int(float(row[c])) for c in cols] + [1, 1, 0, 0][len(cols) - 1:]
    y, mo, d, h, mi = (parts + [0] * 5)[:5]
    return datetime(y, mo, d, h, mi, tzinfo=timezone.utc).timestamp()

def iso(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()

g = json.load(open(a.grid))
frames = g["frames"]
cols = a.time.split(",")
rows = list(csv.DictReader(open(a.points)))
times = [parse_time(r, cols) for r in rows]
ok = True
for k in range(1, len(frames)):
    if not iso(frames[k]["start"]) > iso(frames[k - 1]["start"]):
        print(f"frame {k}: start {frames[k]['start']} not after frame {k-1}'s"); ok = False
print(f"{len(frames)} frames, {frames[0]['start']} ... {frames[-1]['end']}")
def mean_check(chosen, k):
    """Frame k of a mean grid against the exact kernel-weighted mean of its points."""
    import numpy as np
    from pyproj import Transformer
    opt = dict(zip(rest[::2], rest[1::2]))
    C, R = g["columns"], g["rows"]
    vals = np.array([np.nan if v is None else v for v in frames[k]["values"]], dtype=float).reshape(R, C)
    nx = g["x0"] + np.arange(C) * g["dx"]; ny = g["y0"] + np.arange(R) * g["dy"]
    lat = np.array([float(r[opt["--lat"]]) for r in chosen]); lon = np.array([float(r[opt["--lon"]]) for r in chosen])
    px, py = Transformer.from_crs("EPSG:4326", g["crs"], always_xy=True).transform(lon, lat)
    w = np.array([float(r[opt["--w"]]) for r in chosen]) if "--w" in opt else np.ones_like(lat)
    v = np.array([float(r[a.mean]) for r in chosen])
    s2 = (g["radius"] / 3) ** 2
    den = np.zeros((R, C)); num = np.zeros((R, C))
    for i in range(len(px)):
        e = np.exp(-(((ny[:, None] - py[i]) ** 2) + ((nx[None, :] - px[i]) ** 2)) / (2 * s2)) * w[i]
        den += e; num += e * v[i]
    exact = np.where(den >= 0.05, num / np.maximum(den, 1e-300), np.nan)
    both = np.isfinite(exact) & np.isfinite(vals)
    span = np.nanmax(exact) - np.nanmin(exact) if both.any() else 1.0
    err = np.abs(vals[both] - exact[both]).max() / max(span, 1e-300) if both.any() else 0.0
    # Undefined nodes agree away from the support's edge (0.05 ± 1 %).
    edge = np.abs(den - 0.05) <= 5e-4
    disagree = int(((np.isfinite(exact) != np.isfinite(vals)) & ~edge).sum())
    good = err <= 1e-3 and disagree == 0
    print(f"  mean of {a.mean}: {int(both.sum())} defined nodes; max |grid - exact| / range = {err:.3e}; "
          f"{disagree} nodes defined on one side only -> {'ok' if good else 'FAIL'}")
    return good

def adaptive_radii():
    """Abramson's radii over all points, in the grid's plane and units."""
    import math
    import numpy as np
    from scipy.spatial import cKDTree
    opt = dict(zip(rest[::2], rest[1::2]))
    if "--lat" in opt:
        from pyproj import Transformer
        lat = np.array([float(r[opt["--lat"]]) for r in rows]); lon = np.array([float(r[opt["--lon"]]) for r in rows])
        px, py = Transformer.from_crs("EPSG:4326", g["crs"], always_xy=True).transform(lon, lat)
        px, py = np.asarray(px), np.asarray(py)
    else:
        px = np.array([float(r[opt["--x"]]) for r in rows]); py = np.array([float(r[opt["--y"]]) for r in rows])
    w = np.array([float(r[opt["--w"]]) for r in rows]) if "--w" in opt else np.ones_like(px)
    R = g["radius"]
    name, _, arg = opt.get("--kernel", "gaussian").partition(":")
    decay = float(arg) if arg else 0.0
    def shape(d2):
        if name == "gaussian":
            return np.exp(-d2 / (2 * (R / 3) ** 2))
        u2 = np.minimum(d2 / (R * R), 1.0)
        inside = d2 <= R * R
        s = {"quartic": (1 - u2) ** 2, "epanechnikov": 1 - u2, "triweight": (1 - u2) ** 3,
             "triangular": 1 - (1 - decay) * np.sqrt(u2), "uniform": np.ones_like(u2)}[name]
        return np.where(inside, s, 0.0)
    reach = 2 * R if name == "gaussian" else R
    xy = np.column_stack([px, py])
    pilot = np.zeros_like(px)
    for i, near in enumerate(cKDTree(xy).query_ball_point(xy, r=reach)):
        near = np.asarray(near)
        pilot[i] = np.sum(w[near] * shape((px[near] - px[i]) ** 2 + (py[near] - py[i]) ** 2))
    ok_ = (w > 0) & (pilot > 0)
    gmean = math.exp(np.sum(w[ok_] * np.log(pilot[ok_])) / np.sum(w[ok_]))
    lam = np.ones_like(px); lam[ok_] = (pilot[ok_] / gmean) ** (-a.adaptive)
    return R * np.minimum(lam, a.trim)

if a.adaptive is not None:
    for r, radius in zip(rows, adaptive_radii()):
        r["_radius"] = repr(float(radius))
    rest += ["--radius-column", "_radius"]
    print(f"adaptive {a.adaptive}: radii from one pilot over all {len(rows)} points")

picks = [int(x) for x in a.frames.split(",")] if a.frames else sorted({0, len(frames) // 2, len(frames) - 1})
for k in picks:
    lo, hi = iso(frames[k]["start"]), iso(frames[k]["end"])
    chosen = [r for r, t in zip(rows, times) if lo <= t < hi]
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as f:
        w = csv.DictWriter(f, fieldnames=rows[0].keys())
        w.writeheader()
        w.writerows(chosen)
        path = f.name
    print(f"frame {k} [{frames[k]['start']}, {frames[k]['end']}): {len(chosen)} points")
    if not chosen:
        vals = [v for v in frames[k]["values"] if v is not None]
        good = max(vals) == 0
        print(f"  empty frame: grid max {max(vals)} -> {'ok' if good else 'FAIL'}")
        ok &= good
        continue
    if a.mean:
        good = mean_check(chosen, k)
        ok &= good
        os.unlink(path)
        continue
    r = subprocess.run([sys.executable, a.oracle, "--points", path, "--grid", a.grid, "--frame", str(k)] + rest,
                       capture_output=True, text=True)
    print("  " + r.stdout.strip().replace("\n", "\n  "))
    if r.returncode != 0:
        print("  " + r.stderr.strip()); ok = False
    os.unlink(path)
print("all frames pass" if ok else "FAILED")
sys.exit(0 if ok else 1)
