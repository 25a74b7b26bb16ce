#!/usr/bin/env bash
# Exports every data set of ../shared/data with the modes of issue 3 and
# checks each file: validate_geojson.py (GEOS validity, winding, ranges,
# bands disjoint), GDAL (ogrinfo reads it, ogr2ogr converts it to GPKG),
# the ±180° span of every part, and `contours hit` against GEOS
# point-in-polygon. Needs Benchmarks/setup.sh and gdal-bin.
# Usage: [CONTOURS=/path/to/contours] Scripts/check-exports.sh [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-/tmp/heatmap-exports}"; mkdir -p "$OUT"
PY="$(Benchmarks/setup.sh)"
# CONTOURS: a binary to check instead of this tree's release build.
if [ -n "${CONTOURS:-}" ]; then
  BIN="$CONTOURS"
else
  swift build -c release --product contours >&2 || exit 1
  BIN="$(swift build -c release --show-bin-path)/contours"
fi
DATA=../shared/data
fail=0
run() { # name file options...
  local name=$1 file=$2; shift 2
  for mode in default "--smooth none" "--mode levels" "--mode isolines"; do
    local opts=(); [ "$mode" != default ] && opts=($mode)
    local kind=contours m=bands tag=${mode//[ -]/}
    [ "$mode" = "--mode levels" ] && m=levels
    [ "$mode" = "--mode isolines" ] && kind=isolines
    local f="$OUT/$name-$tag.geojson"
    if ! "$BIN" export "$DATA/$file" "$@" "${opts[@]}" -o "$f" 2>"$OUT/$name-$tag.err"; then
      echo "FAIL $name [$mode]: export exited $?: $(head -1 "$OUT/$name-$tag.err")"; fail=1; continue
    fi
    local planar=(); [[ " $* " == *" --planar "* ]] && planar=(--planar)
    local v; v=$("$PY" ../shared/check/validate_geojson.py "$f" "${planar[@]}" --kind $kind --mode $m | tail -1)
    local g="ok"
    ogrinfo -ro -al -so "$f" >/dev/null 2>&1 || g="ogrinfo FAILED"
    rm -f "$OUT/x.gpkg"; ogr2ogr -f GPKG "$OUT/x.gpkg" "$f" >/dev/null 2>&1 || g="$g ogr2ogr FAILED"
    local span; span=$("$PY" - "$f" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); worst = 0.0
def walk(c):
    global worst
    if isinstance(c[0], (int, float)): return [c[0]]
    xs = [x for part in c for x in walk(part)]
    return xs
for f in doc["features"]:
    g = f["geometry"]; parts = g["coordinates"] if g["type"].startswith("Multi") else [g["coordinates"]]
    for p in parts:
        xs = walk(p); worst = max(worst, max(xs) - min(xs))
print(f"{worst:.1f}")
PY
)
    echo "$name [$mode]: $v; GDAL $g; widest part spans ${span}° of x"
    [[ "$v" == *" 0 failed" ]] || fail=1
    [ "$g" = ok ] || fail=1
  done
}
# --simplify: bands, levels and isolines at auto and at a coarse tolerance
# (5 km, or 5 units planar) must pass the same checks.
simplified() { # name file options...
  local name=$1 file=$2; shift 2
  local planar=(); [[ " $* " == *" --planar "* ]] && planar=(--planar)
  for tol in auto coarse; do
    local t=$tol; [ $tol = coarse ] && { [ ${#planar[@]} -gt 0 ] && t=5 || t=5000; }
    for m in bands levels isolines; do
      local kind=contours mm=$m; [ $m = isolines ] && { kind=isolines; mm=bands; }
      local f="$OUT/$name-simplify-$tol-$m.geojson"
      if ! "$BIN" export "$DATA/$file" "$@" --simplify $t --mode $m -o "$f" 2>"$OUT/$name-s.err"; then
        echo "FAIL $name [--simplify $t --mode $m]: $(head -1 "$OUT/$name-s.err")"; fail=1; continue
      fi
      local v; v=$("$PY" ../shared/check/validate_geojson.py "$f" "${planar[@]}" --kind $kind --mode $mm | tail -1)
      echo "$name [--simplify $t --mode $m]: $v; $(stat -c %s "$f") bytes"
      [[ "$v" == *" 0 failed" ]] || fail=1
    done
  done
}
run quakes quakes_fiji.csv
run quakes360 quakes_fiji_0_360.csv
run airports airports.csv
run storms storms.csv --weight wind
run ames ames.csv --value Sale_Price
run snow snow_deaths.csv --planar
simplified quakes quakes_fiji.csv
simplified quakes360 quakes_fiji_0_360.csv
simplified airports airports.csv
simplified storms storms.csv --weight wind
simplified ames ames.csv --value Sale_Price
simplified snow snow_deaths.csv --planar
# hit: random points over each band file, compared with shapely's answer.
for name in quakes airports storms; do
  f="$OUT/$name-default.geojson"
  "$PY" - "$f" "$BIN" <<'PY' || fail=1
import json, subprocess, sys, random
import shapely
from shapely.geometry import shape, Point
doc = json.load(open(sys.argv[1])); random.seed(4)
feats = [(f["properties"]["level"], shape(f["geometry"])) for f in doc["features"]]
x0, y0, x1, y1 = doc["bbox"]
qs = [(random.uniform(y0, y1), random.uniform(x0, x1)) for _ in range(2000)]
args = [sys.argv[2], "hit", sys.argv[1]]
for lat, lon in qs: args += ["--at", f"{lat!r},{lon!r}"]
out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()
bad = 0
for (lat, lon), line in zip(qs, out):
    want = [lv for lv, g in feats if g.contains(Point(lon, lat))]
    got = json.loads(line)["level"]
    if (want[-1] if want else None) != got: bad += 1
print(f"hit {sys.argv[1].split('/')[-1]}: {len(out)} queries, {bad} disagree with GEOS")
sys.exit(1 if bad or len(out) != len(qs) else 0)
PY
done
[ $fail = 0 ] && echo "all exports pass" || echo "SOME CHECKS FAILED"
exit $fail
