#!/usr/bin/env bash
# The finite-kernel grid stage against its Python peer, and the adaptive
# grid against our own fixed one, in alternation:
#   Benchmarks/kernel_compare.sh [KERNEL] [RADIUS...]
#   Benchmarks/kernel_compare.sh quartic 8.4105 29.2564   # 6 and 20 cells at resolution 1024
# 1M planar points (points.py --seed 11), resolution 1024. For each radius,
# $ROUNDS rounds (default 3) of: contours-bench's grid stage (best of
# $REPEAT, default 3: grid_s, and grid_cpu_s, user + system), the same
# with --adaptive $ADAPTIVE (default 0.5; ADAPTIVE= skips it), then the
# peer (numpy linear binning and scipy.signal.fftconvolve, the
# grid_fft_kernel of the shared peers.py, $PEERS, default
# ../shared/bench/peers.py; best of $REPEAT by CPU, with
# time.process_time, beside its wall). Each round prints ours ÷ the
# peer's and adaptive ÷ fixed, wall and CPU. BENCH=path runs that
# contours-bench. On a shared machine a larger REPEAT keeps a short run's
# best from another tenant's burst.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
KERNEL="${1:-quartic}"; shift || true
RADII=("${@:-8.4105 29.2564}"); RADII=(${RADII[*]})
ROUNDS="${ROUNDS:-3}"; REPEAT="${REPEAT:-3}"; ADAPTIVE="${ADAPTIVE-0.5}"
PEERS="${PEERS:-$HERE/../../shared/bench/peers.py}"
PTS="${TMPDIR:-/tmp}/heatmap-bench-1000000.f64"
[ -s "$PTS" ] || python3 "$HERE/points.py" 1000000 --seed 11 --format f64 -o "$PTS"
PY="$("$HERE/setup.sh")"
if [ -z "${BENCH:-}" ]; then
  swift build -c release --product contours-bench >&2
  BENCH="$(swift build -c release --show-bin-path)/contours-bench"
fi
for R in "${RADII[@]}"; do
  for round in $(seq "$ROUNDS"); do
    OURS="$("$BENCH" --points "$PTS" --kernel "$KERNEL" --radius "$R" --skip smooth,hit,hexbin --levels 1 --repeat "$REPEAT")"
    ADAPTED="{}"
    if [ -n "$ADAPTIVE" ]; then
      ADAPTED="$("$BENCH" --points "$PTS" --kernel "$KERNEL" --radius "$R" --skip smooth,hit,hexbin --levels 1 \
        --repeat "$REPEAT" --adaptive "$ADAPTIVE")"
    fi
    PEER="$("$PY" - "$PEERS" "$PTS" "$R" "$KERNEL" "$REPEAT" <<'PY'
import importlib.util, json, sys, time
import numpy as np
spec = importlib.util.spec_from_file_location("peers", sys.argv[1]); peers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(peers)
radius, kernel = float(sys.argv[3]), sys.argv[4]
raw = np.fromfile(sys.argv[2], dtype="<f8").reshape(-1, 3)
x, y, w = raw[:, 0].copy(), raw[:, 1].copy(), raw[:, 2].copy()
g = peers.geometry(x, y, radius, 1024)
best = (float("inf"), float("inf"))
for _ in range(int(sys.argv[5])):
    c0, w0 = time.process_time(), time.perf_counter()
    peers.grid_fft_kernel(x, y, w, g, radius, kernel)
    best = min(best, (time.process_time() - c0, time.perf_counter() - w0))
print(json.dumps({"cpu": best[0], "wall": best[1]}))
PY
)"
    python3 - "$OURS" "$PEER" "$R" "$ADAPTED" <<'PY'
import json, sys
o, p, a = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[4])
line = (f"radius {sys.argv[3]}: ours {o['grid_s']:.3f} / {o['grid_cpu_s']:.3f} s"
        f"  peer {p['wall']:.3f} / {p['cpu']:.3f} s  ratio wall {o['grid_s'] / p['wall']:.2f} cpu {o['grid_cpu_s'] / p['cpu']:.2f}")
if a:
    line += (f"  adaptive {a['grid_s']:.3f} / {a['grid_cpu_s']:.3f} s"
             f"  ÷ fixed wall {a['grid_s'] / o['grid_s']:.2f} cpu {a['grid_cpu_s'] / o['grid_cpu_s']:.2f}")
print(line)
PY
  done
done
