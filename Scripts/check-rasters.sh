#!/usr/bin/env bash
# Checks the GeoTIFF writer and the raster reader against GDAL, rio-cogeo,
# shapely and contourpy (none of them in CI; see issue 14):
#  1. storms: `contours grid --format tiff` opens in gdalinfo with a Lambert
#     azimuthal equal-area CRS on the authalic sphere centred where `contours
#     info` says, passes `rio cogeo validate`, is at most half its uncompressed
#     size; gdal_contour -p of it (ogr2ogr to EPSG:4326) covers the superlevel
#     sets of our `export --smooth none` within 3 % per level; contourpy on the
#     raster's own values (rasterio) within 1e-4.
#  2. GDAL-made rasters of each kind (DEFLATE/LZW/none, Int16/Float32,
#     EPSG:4326/3857/UTM, made here from the storms GeoTIFF with
#     gdalwarp/gdal_translate): `contours export RASTER --smooth none` against
#     gdal_contour -p (3 %) and contourpy (1e-4); a raster in EPSG:27700 is
#     refused with one line, and kept as-is with --keep-crs.
#  3. With --bench: the 2,817 x 4,000 grid of the 1M points of
#     export_compare.sh, `contours export grid.tif` (40 quantile levels,
#     --smooth none) against `gdal_contour -p` with the same levels (GDAL
#     stopped after 120 s), 6 GB memory cap.
# Usage: Scripts/check-rasters.sh [--bench] [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
BENCH=0; [ "${1:-}" = "--bench" ] && { BENCH=1; shift; }
OUT="${1:-/tmp/heatmap-rasters}"; mkdir -p "$OUT"
PY="$(Benchmarks/setup.sh)"
RIO="$(dirname "$PY")/rio"
AREAS="$PY -W ignore Scripts/raster_areas.py"
swift build -c release --product contours >&2 || exit 1
BIN="$(swift build -c release --show-bin-path)/contours"
fail=0
say() { echo "$@"; }
bad() { echo "FAIL $*"; fail=1; }

thresholds() { # GeoJSON → comma-separated thresholds of its features
  "$PY" -c "import json,sys; print(','.join(repr(f['properties']['threshold']) for f in json.load(open(sys.argv[1]))['features']))" "$1"
}
gdal_sets() { # raster thresholds out.geojson
  local r=$1 t=$2 o=$3
  rm -f "$o.gpkg" "$o"
  gdal_contour -q -f GPKG -p -amin amin -amax amax -fl ${t//,/ } "$r" "$o.gpkg" && ogr2ogr -t_srs EPSG:4326 "$o" "$o.gpkg"
}

# 1. storms
S="$OUT/storms.tif"
"$BIN" grid ../shared/data/storms.csv --weight wind --format tiff -o "$S" || bad "storms grid"
info=$(gdalinfo "$S")
centre=$("$BIN" info ../shared/data/storms.csv --weight wind | sed -n 's/^projection.*centred at //p')
lat=${centre%%,*}; lon=${centre##*, }
echo "$info" | grep -q 'METHOD\["Lambert Azimuthal Equal Area"' || bad "storms: gdalinfo does not show LAEA"
echo "$info" | grep -q "ELLIPSOID\[\"unnamed\",6371007.181,0" || bad "storms: not the authalic sphere"
echo "$info" | grep -q "PARAMETER\[\"Latitude of natural origin\",$lat," || bad "storms: centre latitude is not $lat"
echo "$info" | grep -q "PARAMETER\[\"Longitude of natural origin\",$lon," || bad "storms: centre longitude is not $lon"
say "storms: gdalinfo CRS $(echo "$info" | sed -n 's/^PROJCRS\["\(.*\)",$/\1/p'), centre $lat, $lon (info: $centre)"
say "storms: pyproj: $("$PY" -W ignore -c "import rasterio,pyproj,sys; print(pyproj.CRS.from_wkt(rasterio.open(sys.argv[1]).crs.to_wkt()).to_proj4())" "$S")"
"$RIO" cogeo validate "$S" || bad "storms: rio cogeo validate"
size=$(stat -c %s "$S"); raw=$(gdalinfo "$S" | sed -n 's/^Size is \([0-9]*\), \([0-9]*\)/\1 \2/p' | awk '{print $1*$2*4}')
say "storms: $size bytes, uncompressed Float32 $raw bytes ($(awk "BEGIN{printf \"%.1f\", 100*$size/$raw}") %)"
[ $((size * 2)) -le "$raw" ] || bad "storms: more than half the uncompressed size"
"$BIN" export ../shared/data/storms.csv --weight wind --smooth none -o "$OUT/storms-ours.geojson" || bad "storms export"
T=$(thresholds "$OUT/storms-ours.geojson")
gdal_sets "$S" "$T" "$OUT/storms-gdal.geojson" || bad "storms gdal_contour"
$AREAS gdal "$S" "$OUT/storms-ours.geojson" "$OUT/storms-gdal.geojson" "$T" || bad "storms vs GDAL"
$AREAS contourpy "$S" "$OUT/storms-ours.geojson" "$T" || bad "storms vs contourpy"

# 2. GDAL-made rasters of each kind
K="$OUT/kinds"; mkdir -p "$K"
gdalwarp -q -overwrite -t_srs EPSG:4326 -r bilinear "$S" "$K/w4326.tif"
gdalwarp -q -overwrite -t_srs EPSG:3857 -r bilinear "$S" "$K/w3857.tif"
# UTM 18N over the storms' western part (a zone's width, where UTM is meant to be used).
gdalwarp -q -overwrite -t_srs EPSG:32618 -te 0 2500000 1200000 5200000 -tr 20000 20000 -r bilinear "$S" "$K/w32618.tif"
gdal_translate -q -co COMPRESS=DEFLATE -co PREDICTOR=2 -ot Int16 -scale 0 0.3 0 30000 "$K/w4326.tif" "$K/int16_deflate_4326.tif"
gdal_translate -q -co COMPRESS=LZW -co PREDICTOR=3 -co TILED=YES "$K/w3857.tif" "$K/float32_lzw_3857.tif"
gdal_translate -q -co COMPRESS=NONE "$K/w32618.tif" "$K/float32_none_32618.tif"
gdal_translate -q -co COMPRESS=LZW -ot Int16 -scale 0 0.3 0 30000 "$K/w32618.tif" "$K/int16_lzw_32618.tif"
gdal_translate -q -co COMPRESS=DEFLATE "$K/w3857.tif" "$K/float32_deflate_3857.tif"
gdal_translate -q -of AAIGrid "$K/w32618.tif" "$K/float32_32618.asc"
for r in "$K"/int16_deflate_4326.tif "$K"/float32_lzw_3857.tif "$K"/float32_none_32618.tif "$K"/int16_lzw_32618.tif \
         "$K"/float32_deflate_3857.tif "$K"/float32_32618.asc; do
  n=$(basename "$r")
  "$BIN" export "$r" --smooth none --levels 8 --spacing quantile -o "$K/$n-ours.geojson" 2>"$K/$n.err" || { bad "$n: export: $(head -1 "$K/$n.err")"; continue; }
  t=$(thresholds "$K/$n-ours.geojson")
  gdal_sets "$r" "$t" "$K/$n-gdal.geojson" || { bad "$n: gdal_contour"; continue; }
  say "$n:"
  $AREAS gdal "$r" "$K/$n-ours.geojson" "$K/$n-gdal.geojson" "$t" | tail -1 || bad "$n vs GDAL"
  $AREAS contourpy "$r" "$K/$n-ours.geojson" "$t" | tail -1 || bad "$n vs contourpy"
done
gdalwarp -q -overwrite -t_srs EPSG:27700 -te -2000000 -2000000 2000000 2000000 -tr 20000 20000 "$S" "$K/bng.tif" 2>/dev/null
if "$BIN" export "$K/bng.tif" -o "$K/bng.geojson" 2>"$K/bng.err"; then bad "EPSG:27700 was not refused"; else
  [ "$(wc -l < "$K/bng.err")" -eq 1 ] || bad "EPSG:27700 refusal is not one line"
  say "refused: $(cat "$K/bng.err")"
fi
"$BIN" export "$K/bng.tif" --keep-crs --smooth none -o "$K/bng.geojson" && \
  say "kept: $(head -c 160 "$K/bng.geojson")" || bad "--keep-crs"

# 3. the big grid
if [ $BENCH = 1 ]; then
  PTS="${TMPDIR:-/tmp}/heatmap-export-1000000.csv"
  [ -s "$PTS" ] || python3 Benchmarks/points.py 1000000 --seed 3 --geo --format csv -o "$PTS"
  G="$OUT/big.tif"
  (ulimit -v 6000000; "$BIN" grid "$PTS" --radius 5000 --resolution 4000 --format tiff -o "$G") || bad "big grid"
  best=999
  for i in 1 2 3; do
    s=$( { (ulimit -v 6000000; /usr/bin/time -f "%e" "$BIN" export "$G" --levels 40 --spacing quantile --smooth none -o "$OUT/big.geojson") ; } 2>&1 | tail -1)
    best=$(awk "BEGIN{print ($s < $best) ? $s : $best}")
  done
  say "big: contours export best of 3: $best s"
  T=$(thresholds "$OUT/big.geojson")
  rm -f "$OUT/big-gdal.gpkg"
  g=$( { (ulimit -v 6000000; /usr/bin/time -f "%e %U" timeout 120 gdal_contour -q -f GPKG -p -amin amin -amax amax -fl ${T//,/ } "$G" "$OUT/big-gdal.gpkg"); } 2>&1 | tail -1)
  say "big: gdal_contour -p: $g (wall, user s; stopped at 120 s)"
  rm -f "$OUT/big-gdal.gpkg" "$OUT/big.geojson"
fi
[ $fail = 0 ] && echo "check-rasters: all passed" || echo "check-rasters: FAILURES"
exit $fail
