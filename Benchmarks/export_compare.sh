#!/usr/bin/env bash
# The whole job, a CSV of geographic points to a GeoJSON file of density
# bands: `contours export` (smoothed, the default, and --smooth none) and the
# Python peer (export_peer.py) on the same points, one after the other. Run
# from the package root:
#   Benchmarks/export_compare.sh [N] [--radius M] [--resolution G] [--levels L]
# N points (default 1,000,000) come from points.py --seed 3 --geo and are kept
# in $TMPDIR; defaults --radius 5000 --resolution 4000 --levels 40, quantile
# spacing. CONTOURS=path runs that binary instead of building this clone's.
# Prints wall seconds, peak resident memory and file size of each run, and
# the ratios to the peer (below 1: the package is faster or smaller).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
N="${1:-1000000}"; shift || true
RADIUS=5000; RESOLUTION=4000; LEVELS=40
while [ $# -gt 0 ]; do
  case "$1" in
    --radius) RADIUS="$2"; shift 2 ;;
    --resolution) RESOLUTION="$2"; shift 2 ;;
    --levels) LEVELS="$2"; shift 2 ;;
    *) echo "export_compare.sh: unknown option $1 (--radius, --resolution, --levels)" >&2; exit 2 ;;
  esac
done
TMP="${TMPDIR:-/tmp}"
PTS="$TMP/heatmap-export-$N.csv"
[ -s "$PTS" ] || python3 "$HERE/points.py" "$N" --seed 3 --geo --format csv -o "$PTS"
PY="$("$HERE/setup.sh")"
if [ -z "${CONTOURS:-}" ]; then
  swift build -c release --product contours >&2
  CONTOURS="$(swift build -c release --show-bin-path)/contours"
fi
WORK="$(mktemp -d "$TMP/export-compare.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
run() { # NAME COMMAND...: wall seconds and peak KB into $WORK/NAME.time
  local name="$1"; shift
  /usr/bin/time -f "%e %M %U %S" -o "$WORK/$name.time" "$@" >"$WORK/$name.stdout" 2>"$WORK/$name.stderr" \
    || { echo "$name failed:" >&2; tail -3 "$WORK/$name.stderr" >&2; exit 1; }
}
LEVEL_ARGS=(--radius "$RADIUS" --resolution "$RESOLUTION" --levels "$LEVELS" --spacing quantile)
run smoothed "$CONTOURS" export "$PTS" "${LEVEL_ARGS[@]}" -o "$WORK/smoothed.geojson"
run unsmoothed "$CONTOURS" export "$PTS" "${LEVEL_ARGS[@]}" --smooth none -o "$WORK/unsmoothed.geojson"
run peer "$PY" "$HERE/export_peer.py" "$PTS" "$WORK/peer.geojson" --radius "$RADIUS" --resolution "$RESOLUTION" --levels "$LEVELS"
"$PY" - "$WORK" <<'PY'
import json, os, sys
work = sys.argv[1]
def measured(name):
    wall, kb, user, system = open(f"{work}/{name}.time").read().split()[-4:]
    return float(wall), int(kb) / 1024, float(user) + float(system), os.path.getsize(f"{work}/{name}.geojson") / 1e6
peer = measured("peer")
print(f"{'run':<22}{'wall s':>9}{'cpu s':>9}{'peak MiB':>10}{'file MB':>10}{'time ratio':>12}{'memory ratio':>14}")
for name, label in (("smoothed", "contours (Chaikin x2)"), ("unsmoothed", "contours --smooth none"), ("peer", "python peer")):
    wall, peak, cpu, size = measured(name)
    print(f"{label:<22}{wall:>9.2f}{cpu:>9.2f}{peak:>10.0f}{size:>10.1f}{wall / peer[0]:>12.3f}{peak / peer[1]:>14.3f}")
stages = json.loads(open(f"{work}/peer.stdout").read())
print("peer stages: " + ", ".join(f"{k[:-2]} {v:.2f} s" for k, v in stages.items() if k.endswith("_s"))
      + f"; {stages['polygons']} polygons, {stages['vertices']} vertices, grid {stages['grid'][0]} x {stages['grid'][1]}")
PY
