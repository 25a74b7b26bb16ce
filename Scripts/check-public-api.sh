#!/usr/bin/env bash
# Builds the samples and the README example test as a client package
# outside this one, so they see only `public` declarations: inside the
# package, `package` symbols are visible to every target (samples and
# tests too), so `swift build` alone cannot show that user code needs
# nothing internal. Needs only the Swift toolchain; takes a debug build.
# Usage: Scripts/check-public-api.sh [WORKDIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-${TMPDIR:-/tmp}/heatmap-public-api}"
rm -rf "$WORK/Sources" "$WORK/Tests" "$WORK/heatmap"; mkdir -p "$WORK/Sources" "$WORK/Tests/ReadmeExample"
ln -s "$ROOT" "$WORK/heatmap"
targets=""
for dir in "$ROOT"/Samples/*/; do
  name=$(basename "$dir")
  [ -f "$dir/main.swift" ] || continue
  mkdir -p "$WORK/Sources/$name"; cp "$dir"/*.swift "$WORK/Sources/$name/"
  targets="$targets        .executableTarget(name: \"$name\", dependencies: [.product(name: \"HeatMap\", package: \"heatmap\")]),
"
done
cp "$ROOT/Tests/HeatMapTests/ReadmeExampleTests.swift" "$WORK/Tests/ReadmeExample/"
cat > "$WORK/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "heatmap-public-api",
    dependencies: [.package(path: "heatmap")],
    targets: [
$targets        .testTarget(name: "ReadmeExample", dependencies: [.product(name: "HeatMap", package: "heatmap")]),
    ]
)
SWIFT
cd "$WORK"
rc=0; swift build --build-tests >build.log 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
  grep -E "error:" build.log | sort -u | head -40
  echo "FAIL: client code does not build against the public API (see $WORK/build.log)"; exit 1
fi
echo "public API check: $(ls Sources | wc -l) samples and the README example build as a client package"
