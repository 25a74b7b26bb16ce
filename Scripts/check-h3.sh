#!/usr/bin/env bash
# H3 against the reference implementation (PyPI h3 4.x): ids at every
# resolution on 1M random points plus pentagons, poles, ±180° and cell edges;
# boundaries, centres, areas, parents, children and grid disks on 10,000 cells
# per resolution; then the speed of 1M points → cells against h3 in Python.
# Needs python3 with numpy and h3 (pip install numpy h3).
# Usage: PYTHON=venv/bin/python Scripts/check-h3.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
N=${1:-1000000}
WORK=$(mktemp -d /tmp/check-h3.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
swift build -c release --product contours-bench >/dev/null
BENCH=$(swift build -c release --show-bin-path)/contours-bench
"$PY" Scripts/check-h3-tables.py
"$PY" Scripts/check-h3.py "$BENCH" "$WORK" "$N"
"$PY" Scripts/bench-h3.py "$BENCH" "$WORK"
# GeoJSON of H3 bins is valid, and a GIS join re-counts the tool's counts
# (needs geopandas).
swift build -c release --product contours >/dev/null
CONTOURS=$(swift build -c release --show-bin-path)/contours
DATA=${DATA:-../shared/data}
for args in "--shape h3" "--shape h3 --h3-resolution 4 --include-empty" "--shape hex" "--shape square"; do
    for f in storms.csv quakes_fiji.csv; do
        "$CONTOURS" bin "$DATA/$f" $args -o "$WORK/bins.geojson" 2>/dev/null
        echo "validate $f $args: $("$PY" ../shared/check/validate_geojson.py --kind bins "$WORK/bins.geojson" | tail -1)"
    done
done
"$PY" Scripts/check-bin-recount.py "$CONTOURS" "$DATA" "$WORK"
