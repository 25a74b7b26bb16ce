#!/usr/bin/env bash
# Checks every kernel against the exact sums of ../shared/check/kde_oracle.py
# (docs/density-model.md#kernels): each kernel on the storms weighted by
# wind (geographic), the Fiji quakes across ±180° (geographic) and Snow's
# deaths (planar); raw values; a generated radius column; the adaptive
# bandwidth on storms, snow, 20 000 generated points and 20 000 evenly
# spread ones; then contours of a quartic grid through contour_oracle.py
# and validate_geojson.py. Needs ../shared/bench/setup.sh.
# Usage: [CONTOURS=/path/to/contours] Scripts/check-kernels.sh [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-/tmp/heatmap-kernels}"; mkdir -p "$OUT"
PY="$(../shared/bench/setup.sh)"
if [ -n "${CONTOURS:-}" ]; then
  BIN="$CONTOURS"
else
  swift build -c release --product contours >&2 || exit 1
  BIN="$(swift build -c release --show-bin-path)/contours"
fi
DATA=../shared/data CHECK=../shared/check
fail=0
check() { # name "contours options" "oracle options"
  local name=$1 ours=$2 oracle=$3 f="$OUT/$1.json"
  if ! $BIN grid $ours --format json -o "$f" 2>"$OUT/$name.err"; then
    echo "FAIL $name: grid exited: $(head -1 "$OUT/$name.err")"; fail=1; return
  fi
  local out status
  out=$("$PY" $CHECK/kde_oracle.py --grid "$f" $oracle); status=$?
  if [ $status -eq 0 ]; then echo "ok   $name: ${out%%$'\n'*}"; else echo "FAIL $name: ${out%%$'\n'*}"; fail=1; fi
}
STORMS="$DATA/storms.csv --weight wind"; STORMS_O="--points $DATA/storms.csv --lat lat --lon long --w wind"
QUAKES="$DATA/quakes_fiji.csv"; QUAKES_O="--points $DATA/quakes_fiji.csv --lat lat --lon long"
SNOW="$DATA/snow_deaths.csv --planar"; SNOW_O="--points $DATA/snow_deaths.csv --x x --y y"
for k in gaussian quartic epanechnikov triweight triangular triangular:0.5 uniform; do
  check "storms-$k" "$STORMS --kernel $k" "$STORMS_O --kernel $k"
  check "quakes-$k" "$QUAKES --kernel $k" "$QUAKES_O --kernel $k"
  check "snow-$k" "$SNOW --kernel $k" "$SNOW_O --kernel $k"
done
for k in quartic triangular:0.3 gaussian; do
  check "snow-raw-$k" "$SNOW --kernel $k --kernel-values raw" "$SNOW_O --kernel $k --values raw"
  check "quakes-raw-$k" "$QUAKES --kernel $k --kernel-values raw" "$QUAKES_O --kernel $k --values raw"
done
# Kernels 19+ cells wide (2600 km on a 150-cell grid: 19.8 cells) on many
# points: binning and the FFT convolution.
for k in quartic triweight; do
  check "storms-wide-$k" "$STORMS --kernel $k --radius 2600000 --resolution 150" "$STORMS_O --kernel $k"
  check "storms-wide-raw-$k" "$STORMS --kernel $k --radius 2600000 --resolution 150 --kernel-values raw" \
    "$STORMS_O --kernel $k --values raw"
done
# A planar quartic on 20 000 points, and its contours.
python3 ../shared/tools/gen_points.py 20000 --seed 11 -o "$OUT/p20k.csv"
WIDE="$OUT/p20k.csv --planar --weight w --kernel quartic --radius 300 --resolution 150"
check "p20k-wide-quartic" "$WIDE" "--points $OUT/p20k.csv --x x --y y --w w --kernel quartic"
$BIN export $WIDE --smooth none --mode bands -o "$OUT/p20k-wide-quartic.geojson"
if "$PY" $CHECK/contour_oracle.py --grid "$OUT/p20k-wide-quartic.json" --contours "$OUT/p20k-wide-quartic.geojson" \
  --mode bands > "$OUT/p20k-wide-contours.txt"; then
  echo "ok   contours wide quartic bands: $(tail -1 "$OUT/p20k-wide-contours.txt")"
else echo "FAIL contours wide quartic bands: $(tail -1 "$OUT/p20k-wide-contours.txt")"; fail=1; fi
# A radius column: each row's own radius, drawn (seeded) from 0.2-0.8 units / 50-300 km.
"$PY" - "$DATA" "$OUT" <<'PYEOF'
import csv, random, sys
data, out = sys.argv[1], sys.argv[2]
random.seed(3)
with open(f"{out}/snow_r.csv", "w") as f:
    f.write("case,x,y,r\n")
    for r in csv.DictReader(open(f"{data}/snow_deaths.csv")):
        f.write(f"{r['case']},{r['x']},{r['y']},{random.uniform(0.2, 0.8):.4f}\n")
with open(f"{out}/storms_r.csv", "w") as f:
    f.write("lat,long,wind,r\n")
    for r in csv.DictReader(open(f"{data}/storms.csv")):
        f.write(f"{r['lat']},{r['long']},{r['wind']},{random.uniform(50e3, 300e3):.1f}\n")
PYEOF
for k in quartic gaussian; do
  check "snow-column-$k" "$OUT/snow_r.csv --planar --kernel $k --radius-column r" \
    "--points $OUT/snow_r.csv --x x --y y --kernel $k --radius-column r"
  check "storms-column-$k" "$OUT/storms_r.csv --weight wind --kernel $k --radius-column r" \
    "--points $OUT/storms_r.csv --lat lat --lon long --w wind --kernel $k --radius-column r"
done
for k in quartic triweight gaussian epanechnikov; do
  check "snow-adaptive-$k" "$SNOW --kernel $k --adaptive 0.5" "$SNOW_O --kernel $k --adaptive 0.5"
  check "storms-adaptive-$k" "$STORMS --kernel $k --adaptive 0.5" "$STORMS_O --kernel $k --adaptive 0.5"
done
# Adaptive radii wide enough for the radius classes: storms with a pilot
# of 19.8 cells, and the 20 000 points with one of 21 cells (300 units on
# a 400-cell grid).
for k in quartic triweight gaussian; do
  check "storms-wide-adaptive-$k" "$STORMS --kernel $k --radius 2600000 --resolution 150 --adaptive 0.5" \
    "$STORMS_O --kernel $k --adaptive 0.5"
done
for k in quartic gaussian; do
  check "p20k-adaptive-21cells-$k" "$OUT/p20k.csv --planar --weight w --kernel $k --radius 300 --resolution 400 --adaptive 0.5" \
    "--points $OUT/p20k.csv --x x --y y --w w --kernel $k --adaptive 0.5"
done
# A pilot of 58 cells, wider than the data: every point within about one
# kernel of every other, so the classes' errors add alike rather than
# cancel (RadiusClassBound).
for k in quartic triweight gaussian; do
  check "p20k-adaptive-58cells-$k" "$OUT/p20k.csv --planar --weight w --kernel $k --radius 900 --resolution 400 --adaptive 0.5" \
    "--points $OUT/p20k.csv --x x --y y --w w --kernel $k --adaptive 0.5"
done
# Evenly spread points, about 40 within each one's pilot radius: more
# pairs than the pilot's budget, too few neighbours for its grid's reading
# (AdaptivePilot.fewestNeighboursRead), so summed exactly. Read, they had
# moved the Epanechnikov's grid by 1.6e-3 of its maximum.
python3 -c "
import random; r = random.Random(17); print('x,y,w')
for _ in range(20000): print(f'{r.uniform(0, 1000):.3f},{r.uniform(0, 1000):.3f},{r.uniform(0.5, 2):.3f}')
" > "$OUT/even20k.csv"
for k in quartic epanechnikov; do
  check "even20k-adaptive-$k" "$OUT/even20k.csv --planar --weight w --kernel $k --radius 25 --resolution 400 --adaptive 0.5" \
    "--points $OUT/even20k.csv --x x --y y --w w --kernel $k --adaptive 0.5"
done
# Contours of a quartic grid: contourpy's on the same grid, and valid GeoJSON.
$BIN grid $SNOW --kernel quartic --format json -o "$OUT/snow-q.json"
for mode in bands levels; do
  $BIN export $SNOW --kernel quartic --smooth none --mode $mode -o "$OUT/snow-q-$mode.geojson"
  if "$PY" $CHECK/contour_oracle.py --grid "$OUT/snow-q.json" --contours "$OUT/snow-q-$mode.geojson" --mode $mode > "$OUT/snow-q-$mode.txt"; then
    echo "ok   contours quartic $mode: $(tail -1 "$OUT/snow-q-$mode.txt")"
  else echo "FAIL contours quartic $mode: $(tail -1 "$OUT/snow-q-$mode.txt")"; fail=1; fi
done
for name in storms quakes; do
  if [ $name = storms ]; then src=$STORMS; else src=$QUAKES; fi
  $BIN export $src --kernel quartic -o "$OUT/$name-q.geojson"
  if "$PY" $CHECK/validate_geojson.py "$OUT/$name-q.geojson" > "$OUT/$name-q.txt" 2>&1; then
    echo "ok   valid GeoJSON $name quartic: $(tail -1 "$OUT/$name-q.txt")"
  else echo "FAIL valid GeoJSON $name quartic: $(tail -1 "$OUT/$name-q.txt")"; fail=1; fi
done
exit $fail
