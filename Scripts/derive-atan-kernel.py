#!/usr/bin/env python3
"""Derives the arctangent polynomial of Sources/HeatMap/Projection/ArcTangent.swift.

ArcTangent reduces every ratio to |u| <= tan(pi/8) and approximates there

    atan(u) ~= u + u * x * P(x),   x = u * u,

with P of degree DEGREE. This script finds P by the Remez exchange algorithm
in mpmath (60 digits): P minimises the largest *relative* error of
atan(u) over the interval, i.e. the weighted error
w(x) * (g(x) - P(x)) with g(x) = (atan(u) - u) / (u * x) and
w(x) = u * x / atan(u). It then rounds the coefficients to doubles and
checks the rounded polynomial, evaluated in double precision in the
Swift kernel's order (Estrin's scheme), against mpmath over dense samples, printing
the largest error in ulps of atan(u).

The Swift literals are this script's printed output, pasted unchanged.
Usage: python3 Scripts/derive-atan-kernel.py [DEGREE]   (needs mpmath, numpy)
"""
import sys

import mpmath as mp
import numpy as np

mp.mp.dps = 60
LIMIT = mp.tan(mp.pi / 8)          # the reduced interval is |u| <= LIMIT
X_MAX = LIMIT ** 2


def g(x):
    """(atan(u) - u) / u^3 as a function of x = u^2; a series near 0."""
    if x < mp.mpf("1e-12"):
        return -mp.mpf(1) / 3 + x / 5 - x * x / 7
    u = mp.sqrt(x)
    return (mp.atan(u) - u) / (u * x)


def w(x):
    """Turns an error in g into a relative error of atan(u)."""
    if x == 0:
        return mp.mpf(0)
    u = mp.sqrt(x)
    return u * x / mp.atan(u)


def solve(points, degree):
    """Coefficients and levelled error E: w(x_i) (g(x_i) - P(x_i)) = (-1)^i E."""
    n = degree + 2
    a = mp.matrix(n, n)
    b = mp.matrix(n, 1)
    for i, x in enumerate(points):
        for j in range(degree + 1):
            a[i, j] = x ** j
        a[i, degree + 1] = (-1) ** i / w(x)
        b[i] = g(x)
    s = mp.lu_solve(a, b)
    return [s[j] for j in range(degree + 1)], s[degree + 1]


def poly(c, x):
    r = mp.mpf(0)
    for k in reversed(c):
        r = r * x + k
    return r


def err(c, x):
    return w(x) * (g(x) - poly(c, x))


def extrema(c, grid):
    """Alternating local extrema of the error on the grid, refined by golden search."""
    e = [err(c, x) for x in grid]
    found = []
    for i in range(1, len(grid) - 1):
        if abs(e[i]) >= abs(e[i - 1]) and abs(e[i]) >= abs(e[i + 1]) and e[i] != 0:
            lo, hi = grid[i - 1], grid[i + 1]
            f = lambda x: -abs(err(c, x))
            for _ in range(40):
                m1 = lo + (hi - lo) * mp.mpf("0.381966")
                m2 = hi - (hi - lo) * mp.mpf("0.381966")
                if f(m1) < f(m2):
                    hi = m2
                else:
                    lo = m1
            x = (lo + hi) / 2
            found.append((x, err(c, x)))
    x = grid[-1]
    found.append((x, err(c, x)))
    # Merge neighbours of the same sign, keeping the larger.
    merged = []
    for x, v in found:
        if merged and mp.sign(merged[-1][1]) == mp.sign(v):
            if abs(v) > abs(merged[-1][1]):
                merged[-1] = (x, v)
        else:
            merged.append((x, v))
    return merged


def remez(degree, rounds=12):
    n = degree + 2
    # Start from Chebyshev points of the interval (0 left out: w(0) = 0).
    points = [X_MAX * (1 - mp.cos(mp.pi * (i + 1) / n)) / 2 for i in range(n)]
    grid = [X_MAX * (1 - mp.cos(mp.pi * i / 3000)) / 2 for i in range(1, 3001)]
    for _ in range(rounds):
        c, level = solve(points, degree)
        ext = extrema(c, grid)
        while len(ext) > n:   # drop the smaller end
            ext = ext[1:] if abs(ext[0][1]) < abs(ext[-1][1]) else ext[:-1]
        if len(ext) < n:
            break
        points = [x for x, _ in ext]
    worst = max(abs(v) for _, v in extrema(c, grid))
    return c, abs(level), worst


def estrin(c, u):
    """u + u x P(x) in doubles, in ArcTangent.kernel's order (Estrin's scheme)."""
    x = u * u
    x2 = x * x
    x4 = x2 * x2
    a = [c[i] + c[i + 1] * x if i + 1 < len(c) else c[i] for i in range(0, len(c), 2)]
    b = [a[i] + a[i + 1] * x2 if i + 1 < len(a) else a[i] for i in range(0, len(a), 2)]
    p = b[-1]
    for k in reversed(b[:-1]):
        p = k + x4 * p
    return u + (u * x) * p


def check(coefficients, samples=20_000, seed=7):
    """Largest error in ulps of the rounded polynomial, evaluated in doubles."""
    c = [float(k) for k in coefficients]
    rng = np.random.default_rng(seed)
    us = np.concatenate([rng.uniform(-float(LIMIT), float(LIMIT), samples),
                         np.linspace(-float(LIMIT), float(LIMIT), 20_001),
                         2.0 ** -np.arange(2, 60)])
    worst = 0.0
    for u in us:
        u = float(u)
        got = estrin(c, u)
        exact = mp.atan(mp.mpf(u))
        if exact != 0:
            ulp = float(np.spacing(abs(float(exact))))
            worst = max(worst, abs(float((mp.mpf(got) - exact) / ulp)))
    return worst


if __name__ == "__main__":
    degree = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    c, level, worst = remez(degree)
    print(f"// degree {degree} on |u| <= tan(pi/8): relative error {mp.nstr(worst, 5)} "
          f"(levelled {mp.nstr(level, 5)}), 2^-53 = {2.0 ** -53:.3g}")
    for k in c:
        print(f"    {float(k)!r},")
    print(f"// rounded polynomial in doubles: worst {check(c):.3f} ulp of atan(u)")
