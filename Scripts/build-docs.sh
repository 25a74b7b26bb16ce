#!/usr/bin/env bash
# Builds the DocC documentation of the library from Sources/HeatMap/HeatMap.docc
# and the symbol graphs of its modules, with the toolchain's docc. Fails on
# any warning (a broken symbol link, an undocumented parameter of a
# documented function, a missing article). Needs only the Swift toolchain.
# Usage: Scripts/build-docs.sh [OUTPUT.doccarchive]   (default .build/docs/HeatMap.doccarchive)
#
# One archive for the whole library: `import HeatMap` re-exports the layer
# modules, so their public symbols are extracted into the umbrella's symbol
# graph (swift-symbolgraph-extract -experimental-allowed-reexported-modules)
# and documented as HeatMap's, which is how a client sees them. Each layer
# module's own graph is extracted too, and every one of its public symbols
# must appear in the combined graph, so a module left out of the re-exports
# fails here instead of vanishing from the documentation.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
UMBRELLA=HeatMap
OUT="${1:-$ROOT/.build/docs/$UMBRELLA.doccarchive}"
LAYERS=(HeatMapCore HeatMapDensity HeatMapContouring HeatMapFormats)
CATALOG="Sources/$UMBRELLA/$UMBRELLA.docc"
DOCC="$(command -v docc || true)"
[ -n "$DOCC" ] || DOCC=/opt/swift/usr/bin/docc
[ -x "$DOCC" ] || { echo "build-docs: docc not found (on PATH or /opt/swift/usr/bin)" >&2; exit 1; }

swift build --target "$UMBRELLA" >&2
BIN="$(swift build --show-bin-path)"
MODULES="$BIN/Modules"; [ -d "$MODULES" ] || MODULES="$BIN"
TRIPLE="$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/heatmap-docs.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# The layer modules this checkout has (before the module split: none).
present=()
for m in "${LAYERS[@]}"; do
  [ -e "$MODULES/$m.swiftmodule" ] && present+=("$m")
done
extract() { # MODULE OUTDIR [extra flags]
  local module="$1" dir="$2"; shift 2
  mkdir -p "$dir"
  swift-symbolgraph-extract -module-name "$module" -target "$TRIPLE" -I "$MODULES" \
    -minimum-access-level public -skip-inherited-docs -output-dir "$dir" "$@"
}
reexported=$(IFS=,; echo "${present[*]:-}")
extract "$UMBRELLA" "$WORK/combined" ${reexported:+-experimental-allowed-reexported-modules="$reexported"}
for m in ${present[@]+"${present[@]}"}; do extract "$m" "$WORK/layers"; done

python3 - "$WORK" "$UMBRELLA" ${present[@]+"${present[@]}"} <<'PY'
import glob, json, os, sys
work, umbrella, layers = sys.argv[1], sys.argv[2], sys.argv[3:]
def ids(path):
    return {s["identifier"]["precise"] for s in json.load(open(path))["symbols"]}
combined = set()
for path in glob.glob(os.path.join(work, "combined", "*.symbols.json")):
    combined |= ids(path)
missing = 0
for m in layers:
    own = ids(os.path.join(work, "layers", f"{m}.symbols.json"))
    lost = own - combined
    print(f"build-docs: {m}: {len(own)} public symbols, {len(own) - len(lost)} in {umbrella}'s graph", file=sys.stderr)
    missing += len(lost)
if missing:
    sys.exit(f"build-docs: {missing} public symbols of the layer modules are not re-exported by {umbrella}")
print(f"build-docs: {umbrella}: {len(combined)} public symbols documented", file=sys.stderr)
PY

rm -rf "$OUT"; mkdir -p "$(dirname "$OUT")"
status=0
"$DOCC" convert "$CATALOG" --additional-symbol-graph-dir "$WORK/combined" --output-dir "$OUT" \
  --fallback-display-name "$UMBRELLA" --fallback-bundle-identifier "org.swift.heatmap" \
  --fallback-default-module-kind "Library" --warnings-as-errors --ide-console-output >"$WORK/docc.log" 2>&1 \
  || status=$?
cat "$WORK/docc.log" >&2
if [ "$status" -ne 0 ] || grep -Eq "(warning|error):" "$WORK/docc.log"; then
  echo "build-docs: FAIL: docc reported the problems above" >&2; exit 1
fi
echo "build-docs: $OUT"
