#!/usr/bin/env python3
"""Deterministic test points when ../shared/tools/gen_points.py is not at hand
(a clean clone): Gaussian clusters plus a uniform background, weights 0.2-2.

  points.py N --geo -o FILE    lon,lat,w around New Zealand, across ±180°
  points.py N -o FILE          x,y,w in 0..1000
Standard library only.
"""
import argparse, random

p = argparse.ArgumentParser()
p.add_argument("n", type=int)
p.add_argument("--geo", action="store_true")
p.add_argument("-o", required=True)
a = p.parse_args()
rng = random.Random(7)
x0, x1, y0, y1 = (166.0, 182.0, -47.0, -33.0) if a.geo else (0.0, 1000.0, 0.0, 1000.0)
centres = [(rng.uniform(x0, x1), rng.uniform(y0, y1), (x1 - x0) * rng.choice([0.005, 0.02, 0.06])) for _ in range(16)]
with open(a.o, "w") as f:
    f.write("lon,lat,w\n" if a.geo else "x,y,w\n")
    for i in range(a.n):
        if i % 10 == 0:
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        else:
            cx, cy, s = centres[i % len(centres)]
            x, y = rng.gauss(cx, s), rng.gauss(cy, s)
        if a.geo and x >= 180:
            x -= 360
        f.write(f"{x:.6f},{y:.6f},{rng.uniform(0.2, 2):.3f}\n")
