#!/usr/bin/env bash
# The stage benchmark: contours-bench and the Python peers (peers.py) on the
# same points, one after the other. Run from the package root:
#   Benchmarks/compare.sh [N] [options of contours-bench and peers.py]
#   Benchmarks/compare.sh 1000000 --radius 6 --levels 20 --spacing quantile
# N points (default 1,000,000) come from points.py --seed 11 (planar) and are
# kept in $TMPDIR. Prints each stage's seconds on both sides and the ratio
# package / peer (below 1: the package is faster); the hit ratio is per query.
# BENCH=path runs that contours-bench instead of building this clone's.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
N="${1:-1000000}"; shift || true
PTS="${TMPDIR:-/tmp}/heatmap-bench-$N.f64"
[ -s "$PTS" ] || python3 "$HERE/points.py" "$N" --seed 11 --format f64 -o "$PTS"
PY="$("$HERE/setup.sh")"
if [ -z "${BENCH:-}" ]; then
  swift build -c release --product contours-bench >&2
  BENCH="$(swift build -c release --show-bin-path)/contours-bench"
fi
OURS="$("$BENCH" --points "$PTS" "$@")"
PEER="$("$PY" "$HERE/peers.py" --points "$PTS" "$@")"
"$PY" - "$OURS" "$PEER" <<'PY'
import json, sys
ours, peer = (json.loads(a) for a in sys.argv[1:3])
print(f"{'stage':<10}{'package s':>12}{'peer s':>12}{'ratio':>8}  peer")
for stage in ("grid_s", "contour_s", "hit_s", "hexbin_s"):
    if stage not in ours or not peer.get(stage):
        continue
    ratio = ours[stage] / peer[stage]
    if stage == "hit_s" and ours.get("queries") and peer.get("queries"):
        ratio *= peer["queries"] / ours["queries"]
    print(f"{stage:<10}{ours[stage]:>12.4f}{peer[stage]:>12.4f}{ratio:>8.3f}  {peer.get(stage[:-2] + '_peer', '')}")
print(f"polygons: package {ours.get('polygons')}, peer {peer.get('polygons')}; "
      f"hexagons: package {ours.get('hex_cells')}, peer {peer.get('hex_cells')}")
PY
