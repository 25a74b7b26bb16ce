#!/usr/bin/env python3
"""The stage benchmark's peers: the jobs `contours-bench --points` times,
done as a Python user would with the field's standard libraries. Prints
one JSON object, the best time of each stage under the same keys as
contours-bench (grid_s, contour_s, hit_s, hexbin_s) and the counts.

  grid     linear binning (numpy) then scipy.ndimage.gaussian_filter, or
           KDEpy's FFTKDE when faster; for a finite kernel, binning then
           scipy.signal.fftconvolve with the kernel sampled on the grid
  contour  contourpy (serial, OuterOffset): one filled band per level
  hit      shapely: the query points in an STRtree, each band polygon
           (prepared) asks which it contains
  hexbin   numpy cube rounding of pointy hexagons, then unique counts

Usage: peers.py --points FILE.f64 [--radius R] [--resolution G] [--levels L]
                [--spacing linear|quantile] [--queries Q] [--hex-size H]
                [--kernel gaussian|quartic|epanechnikov|triweight|uniform]
                [--repeat K] [--skip kdepy,hit]

FILE.f64 holds little-endian float64 triples (x, y, w) in planar units
(points.py --format f64). The grid is the package's: the points' box
padded by 1.5 radii, G cells along the longer side, max(2, int(G * short /
long)) along the other, nodes at cell centres, sigma = radius / 3 (a
finite kernel's radius is its support). Thresholds as the package's
linear and quantile spacings. Needs the environment of setup.sh.
"""
import argparse
import json
import time

import numpy as np


def fastest(job, repeat):
    """(best seconds, result) of `repeat` runs of job()."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = job()
        best = min(best, time.perf_counter() - start)
    return best, result


class Grid:
    """The package's grid geometry for planar points."""

    def __init__(self, x, y, radius, resolution):
        pad = 1.5 * radius
        self.x0, self.y0 = x.min() - pad, y.min() - pad
        width, height = x.max() + pad - self.x0, y.max() + pad - self.y0
        if height >= width:
            self.rows, self.cols = resolution, max(2, int(resolution * width / height))
        else:
            self.cols, self.rows = resolution, max(2, int(resolution * height / width))
        self.dx, self.dy = width / self.cols, height / self.rows

    def centres(self):
        return (self.x0 + (np.arange(self.cols) + 0.5) * self.dx,
                self.y0 + (np.arange(self.rows) + 0.5) * self.dy)

    def binned(self, x, y, w):
        """Each weight shared among its four nearest nodes (linear binning)."""
        fx = (x - self.x0) / self.dx - 0.5
        fy = (y - self.y0) / self.dy - 0.5
        ix, iy = np.floor(fx).astype(np.int64), np.floor(fy).astype(np.int64)
        tx, ty = fx - ix, fy - iy
        width = self.cols + 1
        sums = np.zeros((self.rows + 1) * width)
        for ox, oy, share in ((0, 0, (1 - tx) * (1 - ty)), (1, 0, tx * (1 - ty)),
                              (0, 1, (1 - tx) * ty), (1, 1, tx * ty)):
            node = np.clip(iy + oy, 0, self.rows) * width + np.clip(ix + ox, 0, self.cols)
            sums += np.bincount(node, weights=w * share, minlength=sums.size)
        return sums.reshape(self.rows + 1, width)[:self.rows, :self.cols]


def gaussian_grid(grid, x, y, w, sigma):
    from scipy.ndimage import gaussian_filter
    z = gaussian_filter(grid.binned(x, y, w), sigma=(sigma / grid.dy, sigma / grid.dx),
                        truncate=4.0, mode="constant")
    return z / (grid.dx * grid.dy)


FINITE = {  # shape of u² = (distance / radius)², and the normalising factor over π r²
    "quartic": (lambda u2: (1 - u2) ** 2, 3.0),
    "epanechnikov": (lambda u2: 1 - u2, 2.0),
    "triweight": (lambda u2: (1 - u2) ** 3, 4.0),
    "uniform": (lambda u2: np.ones_like(u2), 1.0),
}


def finite_grid(grid, x, y, w, radius, kernel):
    from scipy.signal import fftconvolve
    nx, ny = int(np.ceil(radius / grid.dx)), int(np.ceil(radius / grid.dy))
    ox, oy = np.meshgrid(np.arange(-nx, nx + 1) * grid.dx, np.arange(-ny, ny + 1) * grid.dy)
    d2 = ox * ox + oy * oy
    shape, factor = FINITE[kernel]
    weights = np.where(d2 <= radius * radius, shape(np.minimum(d2 / (radius * radius), 1.0)), 0.0)
    return fftconvolve(grid.binned(x, y, w), weights * factor / (np.pi * radius * radius), mode="same")


def kdepy_grid(grid, x, y, w, sigma):
    from KDEpy import FFTKDE
    gx, gy = grid.centres()
    nodes = np.stack(np.meshgrid(gx, gy, indexing="ij"), -1).reshape(-1, 2)
    z = FFTKDE(kernel="gaussian", bw=sigma).fit(np.column_stack([x, y]), weights=w).evaluate(nodes)
    return z.reshape(grid.cols, grid.rows).T * w.sum()


def thresholds(z, levels, spacing):
    low, high = float(z.min()), float(z.max())
    if spacing == "linear":
        return [low + (high - low) * (i + 1) / (levels + 1) for i in range(levels)]
    above = np.sort(z[z > low + (high - low) * 1e-10])
    picks = (float(above[min(int((i + 1) / (levels + 1) * above.size), above.size - 1)]) for i in range(levels))
    return sorted(set(picks))


def bands(grid, z, levels, spacing):
    import contourpy
    gx, gy = grid.centres()
    cuts = thresholds(z, levels, spacing)
    tracer = contourpy.contour_generator(gx, gy, z, name="serial", fill_type=contourpy.FillType.OuterOffset)
    tops = cuts[1:] + [float(z.max()) + 1.0]
    return cuts, [tracer.filled(lo, hi) for lo, hi in zip(cuts, tops)]


def band_of_queries(filled, qx, qy):
    import shapely
    polygons, owner = [], []
    for band, (points, offsets) in enumerate(filled):
        for p, o in zip(points, offsets):
            rings = [p[o[k]:o[k + 1]] for k in range(len(o) - 1)]
            polygons.append(shapely.Polygon(rings[0], rings[1:]))
            owner.append(band)
    # Indexing the queries and asking each prepared polygon is far faster
    # than indexing the polygons, whose large rings are not prepared.
    tree = shapely.STRtree(shapely.points(qx, qy))
    polygon, query = tree.query(polygons, predicate="contains")
    answer = np.full(len(qx), -1)
    np.maximum.at(answer, query, np.asarray(owner)[polygon])
    return answer


def hexagon_counts(x, y, size):
    q = (np.sqrt(3) / 3 * x - y / 3) / size
    r = (2 * y / 3) / size
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    eq, er, es = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (eq > er) & (eq > es)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(~fix_q & (er > es), -rq - rs, rr)
    return np.unique(rq.astype(np.int64) * 2_000_003 + rr.astype(np.int64), return_counts=True)


def main():
    ap = argparse.ArgumentParser(description="Python peers of contours-bench")
    ap.add_argument("--points", required=True)
    ap.add_argument("--radius", type=float, default=15.0)
    ap.add_argument("--resolution", type=int, default=1024)
    ap.add_argument("--levels", type=int, default=10)
    ap.add_argument("--spacing", choices=["linear", "quantile"], default="quantile")
    ap.add_argument("--queries", type=int, default=100_000)
    ap.add_argument("--hex-size", type=float, default=5.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernel", default="gaussian", choices=["gaussian", *FINITE])
    ap.add_argument("--skip", default="", help="comma list of stages to skip: kdepy,hit")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))

    start = time.perf_counter()
    xyw = np.fromfile(a.points, dtype="<f8").reshape(-1, 3)
    out = {"read_s": time.perf_counter() - start}
    x, y, w = (np.ascontiguousarray(xyw[:, k]) for k in range(3))
    sigma = a.radius / 3
    grid = Grid(x, y, a.radius, a.resolution)
    out.update(n=len(x), resolution=a.resolution, cols=grid.cols, rows=grid.rows, kernel=a.kernel)

    if a.kernel == "gaussian":
        seconds, z = fastest(lambda: gaussian_grid(grid, x, y, w, sigma), a.repeat)
        out.update(grid_scipy_s=seconds, grid_s=seconds, grid_peer="numpy+scipy.ndimage")
    else:
        seconds, z = fastest(lambda: finite_grid(grid, x, y, w, a.radius, a.kernel), a.repeat)
        out.update(grid_s=seconds, grid_peer="numpy binning + scipy.signal.fftconvolve")
        skip.add("kdepy")
    if "kdepy" not in skip:
        try:
            seconds, _ = fastest(lambda: kdepy_grid(grid, x, y, w, sigma), 1)
            out["grid_kdepy_s"] = seconds
            if seconds < out["grid_s"]:
                out.update(grid_s=seconds, grid_peer="KDEpy.FFTKDE")
        except Exception as error:  # KDEpy refuses some grids; the scipy time stands
            out["grid_kdepy_error"] = str(error)[:200]

    seconds, (cuts, filled) = fastest(lambda: bands(grid, z, a.levels, a.spacing), a.repeat)
    out.update(contour_s=seconds, contour_peer="contourpy(serial, OuterOffset)", spacing=a.spacing,
               levels=len(cuts), polygons=sum(len(b[0]) for b in filled))

    if "hit" not in skip:
        rng = np.random.default_rng(7)
        qx = rng.uniform(grid.x0, grid.x0 + grid.dx * grid.cols, a.queries)
        qy = rng.uniform(grid.y0, grid.y0 + grid.dy * grid.rows, a.queries)
        seconds, _ = fastest(lambda: band_of_queries(filled, qx, qy), 1)
        out.update(hit_s=seconds, hit_peer="shapely.STRtree(points) + prepared contains", queries=a.queries)

    seconds, (cells, _) = fastest(lambda: hexagon_counts(x, y, a.hex_size), a.repeat)
    out.update(hexbin_s=seconds, hexbin_peer="numpy cube rounding + unique", hex_cells=len(cells))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
