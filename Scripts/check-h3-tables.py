#!/usr/bin/env python3
"""Checks the H3 constant tables in Sources/HeatMap/H3 against the
reference (PyPI h3 4.x), independently of the Swift code:

- face centres: the base cell at ijk (0,0,0) of each face sits there (1e-12°);
- face i axes: the base cell at ijk (1,0,0) of each face lies along the
  tabulated azimuth from the face centre (the gnomonic projection keeps azimuths);
- base cells: pentagon flags equal h3.is_pentagon, each home face is among
  h3.get_icosahedron_faces of the cell;
- face lookup: every (face, i, j, k) entry names the base cell that
  h3.latlng_to_cell gives at that resolution-0 position of the face.
(The rotations are checked by Scripts/check-h3.sh: a wrong one changes ids.)
Usage: check-h3-tables.py"""
import math, re, sys
import h3

src = open("Sources/HeatMap/H3/H3FaceTables.swift").read()
base = open("Sources/HeatMap/H3/H3BaseCellTables.swift").read()
def numbers(text):
    return [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?|-?\d+", text)]
block = lambda text, name: text[text.index(name):].split("]\n", 1)[0]
xyz = numbers(block(src, "static let centerPoint"))
centres = [(math.asin(z), math.atan2(y, x)) for x, y, z in zip(xyz[0::3], xyz[1::3], xyz[2::3])]
axes = numbers(block(src, "static let iAxisAzimuth"))
cells_raw = re.findall(r"\[(-?\d+(?:, -?\d+){6})\]", block(base, "static let cells"))
cells = [[int(x) for x in row.split(", ")] for row in cells_raw]
lookup_raw = re.findall(r"\[(\d+(?:, \d+){53})\]", block(base, "static let faceLookup"))
lookup = [[int(x) for x in row.split(", ")] for row in lookup_raw]
assert len(centres) == 20 and len(axes) == 20 and len(cells) == 122 and len(lookup) == 20, "tables not found"

res0 = {h3.get_base_cell_number(c): c for c in h3.get_res0_cells()}
bad = 0
def azimuth(p1, p2):
    return math.atan2(math.cos(p2[0]) * math.sin(p2[1] - p1[1]),
                      math.cos(p1[0]) * math.sin(p2[0]) - math.sin(p1[0]) * math.cos(p2[0]) * math.cos(p2[1] - p1[1]))
def destination(p, az, d):
    lat = math.asin(math.sin(p[0]) * math.cos(d) + math.cos(p[0]) * math.sin(d) * math.cos(az))
    lon = p[1] + math.atan2(math.sin(az) * math.sin(d) * math.cos(p[0]), math.cos(d) - math.sin(p[0]) * math.sin(lat))
    return lat, lon
for f in range(20):
    at = lambda ijk: [b for b, row in enumerate(cells) if row[0] == f and tuple(row[1:4]) == ijk]
    (centre_cell,), (axis_cell,) = at((0, 0, 0)), at((1, 0, 0))
    lat, lon = h3.cell_to_latlng(res0[centre_cell])
    if abs(lat - math.degrees(centres[f][0])) > 1e-12 or abs(lon - math.degrees(centres[f][1])) > 1e-12:
        bad += 1; print(f"face {f}: centre differs from base cell {centre_cell}")
    a = h3.cell_to_latlng(res0[axis_cell])
    az = azimuth(centres[f], (math.radians(a[0]), math.radians(a[1]))) % (2 * math.pi)
    if abs(az - axes[f]) > 1e-9:
        bad += 1; print(f"face {f}: i axis {axes[f]} but base cell {axis_cell} at azimuth {az}")
    # the face lookup: resolution-0 positions by the gnomonic projection
    for n in range(27):
        i, j, k = n // 9, n // 3 % 3, n % 3
        x, y = (i - k) - 0.5 * (j - k), (j - k) * math.sqrt(3) / 2
        r, theta = math.hypot(x, y), math.atan2(y, x)
        if r < 1e-12:
            p = centres[f]
        else:
            p = destination(centres[f], axes[f] - theta, math.atan(r * 0.38196601125010500003))
        got = h3.get_base_cell_number(h3.latlng_to_cell(math.degrees(p[0]), math.degrees(p[1]), 0))
        want = lookup[f][2 * n]
        if got != want:
            bad += 1; print(f"face {f} ijk ({i},{j},{k}): table {want}, reference {got}")
for b, row in enumerate(cells):
    if bool(row[4]) != h3.is_pentagon(res0[b]):
        bad += 1; print(f"base cell {b}: pentagon flag differs")
    if row[0] not in h3.get_icosahedron_faces(res0[b]):
        bad += 1; print(f"base cell {b}: home face {row[0]} not among {h3.get_icosahedron_faces(res0[b])}")
print("tables agree with the reference" if not bad else f"{bad} disagreements")
sys.exit(1 if bad else 0)
