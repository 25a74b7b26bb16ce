#!/usr/bin/env bash
# Makes the Python environment of the benchmark peers (and of the Scripts/
# checks that need numpy, scipy, shapely, contourpy or pyproj) once, at
# $HEATMAP_BENCH_VENV (default ~/.cache/heatmap-peers), from
# Benchmarks/requirements.txt. Prints the python to use, so scripts say
#   PY="$(Benchmarks/setup.sh)"
# Needs python3 with venv, and PyPI the first time.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
VENV="${HEATMAP_BENCH_VENV:-$HOME/.cache/heatmap-peers}"
if ! "$VENV/bin/python" -c "import numpy, scipy, contourpy, shapely, KDEpy, pyproj, pyarrow, orjson" 2>/dev/null; then
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$HERE/requirements.txt" >&2
fi
echo "$VENV/bin/python"
