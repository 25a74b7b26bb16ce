#!/usr/bin/env python3
"""Writes N points with ISO 8601 times over one year (2021), for checking
time frames: clustered lat/lon that drift with the season, weights, and
times written in varied ISO forms (Z, +hh:mm / -hh:mm offsets, fractional
seconds, plain dates), all meaning a known UTC instant.

Usage: make-timed-points.py N [--seed S] > points.csv
"""
import random, sys
from datetime import datetime, timedelta, timezone

n = int(sys.argv[1])
seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
rng = random.Random(seed)
start = datetime(2021, 1, 1, tzinfo=timezone.utc)
print("lat,lon,w,time")
for i in range(n):
    t = start + timedelta(seconds=rng.uniform(0, 365 * 86400))
    phase = (t - start).total_seconds() / (365 * 86400)
    lat = rng.gauss(40 + 5 * phase, 1.5)
    lon = rng.gauss(-100 + 20 * phase, 2.0)
    w = round(rng.uniform(0.5, 2), 3)
    form = i % 4
    if form == 0:
        s = t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    elif form == 1:
        off = timedelta(hours=rng.choice([-7, -3, 2, 5]), minutes=rng.choice([0, 30]))
        local = t + off
        sign = "+" if off >= timedelta(0) else "-"
        a = abs(off)
        s = local.strftime("%Y-%m-%dT%H:%M:%S") + f"{sign}{a.seconds // 3600:02d}:{a.seconds % 3600 // 60:02d}"
    elif form == 2:
        s = t.strftime("%Y-%m-%d %H:%M:%S")
    else:
        s = t.strftime("%Y-%m-%dT%H:%M") + "Z"
        # minutes only: the instant is the minute
    print(f"{lat:.5f},{lon:.5f},{w},{s}")
