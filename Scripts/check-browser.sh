#!/usr/bin/env bash
# Drives headless Chromium over sample pages (Scripts/check-browser.py):
# console errors, no network, zoom and pan, taps on shapes (the band and
# a value inside it, the bin's count and centre), taps outside and Escape,
# at desktop and phone sizes; a contour page, a bin page, and both across
# ±180° (the Fiji quakes). Writes the pages and screenshots to OUTDIR.
# Needs Debian's chromium and chromium-driver, and selenium in the venv
# of Benchmarks/setup.sh. Not run in CI.
# Usage: Scripts/check-browser.sh [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-/tmp/heatmap-browser}"; mkdir -p "$OUT"
PY="$(Benchmarks/setup.sh)"
swift build -c release --product contours >&2 || exit 1
BIN="$(swift build -c release --show-bin-path)/contours"
DATA=../shared/data
"$BIN" export "$DATA/storms.csv" --weight wind --format html --title "Atlantic storms, weighted by wind" -o "$OUT/storms.html" || exit 1
"$BIN" export "$DATA/quakes_fiji.csv" --format html --title "Earthquakes near Fiji" -o "$OUT/quakes.html" || exit 1
"$BIN" bin "$DATA/quakes_fiji.csv" --format html --title "Earthquakes near Fiji, hexagons" -o "$OUT/quakes_bins.html" || exit 1
"$BIN" bin "$DATA/ames.csv" --value Sale_Price --aggregate mean --units USD --format html -o "$OUT/ames_bins.html" || exit 1
# Each page with the data's latitude and longitude extent (S,N,W,E), which every tapped place must lie in.
"$PY" Scripts/check-browser.py "$OUT/shots" \
  "$OUT/storms.html@7,71,-137,14" "$OUT/quakes.html@-39,-10,165,-170" \
  "$OUT/quakes_bins.html@-39,-10,165,-170" "$OUT/ames_bins.html@41.9,42.1,-93.7,-93.5"
