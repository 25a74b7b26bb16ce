#!/usr/bin/env python3
"""Seeded benchmark points: a mixture of 24 Gaussian clusters of very
different sizes and shares (a Pareto draw each) over a uniform background
holding a tenth of the points, so the density spans several orders of
magnitude: the case that makes levels and nesting hard. Weights are
log-normal (sigma 0.5), three decimals.

Usage:
  points.py N [--seed S] [--geo] [--format csv|f64] [-o FILE]

  --geo     longitude/latitude around New Zealand (166..179 E, 47..34 S;
            the widest clusters' tails reach past 180°); otherwise planar
            x/y in 0..1000.
  --format  csv: header "x,y,w" or "lon,lat,w", six decimals;
            f64: little-endian float64 triples (x, y, w), no header, as
            `contours-bench --points` and peers.py read them.

The same N, seed and flags give the same bytes on every machine (Python's
own Mersenne Twister; no numpy). docs/performance.md names the seed of
each figure. Standard library only.
"""
import argparse
import random
import struct
import sys

CLUSTERS = 24
BACKGROUND = 0.1          # share of points drawn uniformly over the box
SPREADS = [0.004, 0.01, 0.03, 0.08]   # cluster sigma, as a share of the box's shorter side


def box(geo):
    return (166.0, 179.0, -47.0, -34.0) if geo else (0.0, 1000.0, 0.0, 1000.0)


def make_clusters(rng, bounds):
    """(centre x, centre y, sigma x, sigma y, cumulative share) per cluster."""
    x0, x1, y0, y1 = bounds
    side = min(x1 - x0, y1 - y0)
    drawn = []
    for _ in range(CLUSTERS):
        cx = rng.uniform(x0 + 0.1 * (x1 - x0), x1 - 0.1 * (x1 - x0))
        cy = rng.uniform(y0 + 0.1 * (y1 - y0), y1 - 0.1 * (y1 - y0))
        sx = side * rng.choice(SPREADS)
        sy = sx * rng.uniform(0.4, 1.6)
        drawn.append((cx, cy, sx, sy, rng.paretovariate(1.2)))
    total = sum(d[4] for d in drawn)
    clusters, running = [], 0.0
    for cx, cy, sx, sy, share in drawn:
        running += share / total * (1 - BACKGROUND)
        clusters.append((cx, cy, sx, sy, running))
    return clusters


def points(n, seed, geo):
    """Yields (x, y, w) for n points."""
    rng = random.Random(seed)
    bounds = box(geo)
    clusters = make_clusters(rng, bounds)
    x0, x1, y0, y1 = bounds
    for _ in range(n):
        u = rng.random()
        home = next((c for c in clusters if u < c[4]), None)
        if home is None:
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        else:
            x, y = rng.gauss(home[0], home[2]), rng.gauss(home[1], home[3])
        yield x, y, round(rng.lognormvariate(0.0, 0.5), 3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--geo", action="store_true")
    ap.add_argument("--format", choices=["csv", "f64"], default="csv")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    out = open(a.output, "wb") if a.output else sys.stdout.buffer
    if a.format == "csv":
        out.write(b"lon,lat,w\n" if a.geo else b"x,y,w\n")
        encode = lambda p: b"%.6f,%.6f,%.3f\n" % p
    else:
        encode = struct.Struct("<ddd").pack
    block = []
    for p in points(a.n, a.seed, a.geo):
        block.append(encode(p) if a.format == "csv" else encode(*p))
        if len(block) == 65536:
            out.write(b"".join(block))
            block.clear()
    out.write(b"".join(block))
    out.flush()


if __name__ == "__main__":
    main()
