#!/usr/bin/env bash
# The public API of each library module against its committed baseline in
# API/<Module>.json (dumped by the toolchain's swift-api-digester). A
# removed or changed public declaration fails the check, naming it; an
# addition passes. An intended change updates the baseline in the same
# commit: Scripts/check-api.sh --update. The digester also dumps `package`
# declarations (marked "isInternal"); the baselines keep only the public
# ones, so that code shared between the library's own targets can change
# without touching them.
#
# Usage: Scripts/check-api.sh             compare (builds the library first)
#        Scripts/check-api.sh --update    write the baselines anew
#        Scripts/check-api.sh --self-test remove a public symbol from a copy
#                                         of HeatMapCore and expect a failure
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(HeatMapCore HeatMapDensity HeatMapContouring HeatMapFormats)
TRIPLE="$(uname -m)-unknown-linux-gnu"
swift build --target HeatMap >/dev/null
BIN="$(swift build --show-bin-path)"
DIGEST=(swift-api-digester -target "$TRIPLE" -avoid-location -avoid-tool-args)

# diagnose MODULE BASELINE SEARCH_PATH: prints the breaking changes, if any
diagnose() {
  "${DIGEST[@]}" -diagnose-sdk -module "$1" -baseline-path "$2" -I "$3" 2>&1 |
    grep -v '^/\*.*\*/$' | grep -v '^[[:space:]]*$' || true
}

# public_only FILE: drops the declarations the digester marks internal
# (`package` ones) from a dump, in place
public_only() {
  python3 - "$1" <<'PY'
import json, sys
path = sys.argv[1]
with open(path) as f:
    root = json.load(f)
def prune(node):
    kept = [c for c in node.get("children", []) if not c.get("isInternal")]
    if "children" in node:
        node["children"] = kept
    for child in kept:
        prune(child)
prune(root["ABIRoot"])
with open(path, "w") as f:
    json.dump(root, f, indent=2, sort_keys=False)
    f.write("\n")
PY
}

case "${1:-}" in
--update)
  for m in "${MODULES[@]}"; do
    "${DIGEST[@]}" -dump-sdk -module "$m" -I "$BIN/Modules" -o "API/$m.json"
    public_only "API/$m.json"
  done
  echo "API baselines written: ${MODULES[*]}" ;;
--self-test)
  tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
  cp -R Sources/HeatMapCore "$tmp/src"
  # Drop one public declaration that the baseline holds.
  file="$tmp/src/Model/HeatMapStyle.swift"
  grep -q 'public var fillOpacity' "$file"
  sed -i 's/^    public var fillOpacity: Double$/    var fillOpacity: Double/' "$file"
  mkdir -p "$tmp/mod"
  swiftc -parse-as-library -module-name HeatMapCore -emit-module -emit-module-path "$tmp/mod/HeatMapCore.swiftmodule" \
    -package-name heatmap $(find "$tmp/src" -name '*.swift') 2>&1 | grep -v warning || true
  found="$(diagnose HeatMapCore API/HeatMapCore.json "$tmp/mod")"
  if grep -q fillOpacity <<<"$found"; then
    echo "self-test ok: a removed public property is reported: $(grep fillOpacity <<<"$found" | head -1)"
    echo "self-test passes"
  else
    echo "self-test FAILED: removing HeatMapStyle.fillOpacity went unnoticed"; exit 1
  fi ;;
"")
  bad=0
  for m in "${MODULES[@]}"; do
    found="$(diagnose "$m" "API/$m.json" "$BIN/Modules")"
    if [ -n "$found" ]; then
      echo "$m: the public API changed against API/$m.json:"; echo "$found" | sed 's/^/  /'; bad=1
    fi
  done
  [ "$bad" = 0 ] || { echo "API check FAILED (an intended change: Scripts/check-api.sh --update in the same commit)"; exit 1; }
  echo "API holds: ${MODULES[*]} against API/" ;;
*) echo "usage: Scripts/check-api.sh [--update | --self-test]" >&2; exit 2 ;;
esac
