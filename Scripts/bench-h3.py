#!/usr/bin/env python3
"""1M random points → H3 cells at resolutions 5, 9 and 15: the library
(contours-bench h3 cells, all cores, best of 3) against the reference in
Python (h3.api.basic_int.latlng_to_cell mapped over the arrays, the fastest
form h3 4.x offers: it has no array function), best of 3.
Usage: bench-h3.py BENCH_BINARY WORKDIR"""
import json, subprocess, sys, time
import numpy as np
from h3.api import basic_int as h3i

bench, work = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
n = 1_000_000
lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
lon = rng.uniform(-180, 180, n)
np.stack([lat, lon], 1).astype('<f8').tofile(f"{work}/bench.f64")
la, lo = lat.tolist(), lon.tolist()
f = np.vectorize(h3i.latlng_to_cell, otypes=[np.uint64])
for res in (5, 9, 15):
    ref = min(timeit for timeit in (
        (lambda t0: (f(lat, lon, res), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(3)))
    out = json.loads(subprocess.run([bench, "h3", "cells", f"{work}/bench.f64", str(res), f"{work}/bench.u64", "3"],
                                    check=True, capture_output=True, text=True).stdout)
    print(f"res {res}: library {out['seconds']:.3f} s on {out['threads']} threads, "
          f"h3 (Python, np.vectorize) {ref:.3f} s: {ref / out['seconds']:.1f}× faster")
