#!/usr/bin/env bash
# The fault and fuzz suite of the `contours` tool (issue 19).
#
# Generates hostile inputs and surroundings and runs the tool on each:
# truncation at every byte of a small CSV and GeoJSON (and every few bytes
# of a GeoTIFF, an ESRI grid and a cells table), seeded random byte
# flips, huge fields, deep nesting, closed and full standard streams,
# SIGINT/SIGTERM in the middle of a write, `ulimit -v` memory limits,
# outputs that are inputs (also through links and ..), hostile option
# values (newlines, escape sequences, huge numbers) and corrupt contour
# files for `hit`. Every case must end with exit status 0, 1, 2, 130 or
# 143, at most one line on stderr, within 20 s, and leave no partial
# output or temporary file behind (an old output stays as it was). The
# input files' checksums must be the same after the whole suite.
#
# Usage: Scripts/check-faults.sh [--quick]   (--quick: every 7th byte of the truncations)
# Env:   CONTOURS=path/to/contours (default: a release build of this package),
#        CHECK_KINDS="csv paths" to run some kinds only
#
# To add an input kind: write a function
# `kind_NAME` that calls `case_run` (or `case_file`) per generated case,
# and add NAME to KINDS below. Helpers: `truncations FILE MOST CMD...` and
# `flips FILE COUNT SEED CMD...` run CMD on every prefix / every flipped
# copy of FILE (the copy's path replaces the word INPUT in CMD).
set -uo pipefail
cd "$(dirname "$0")/.."
QUICK=0; [ "${1:-}" = "--quick" ] && QUICK=1
if [ -z "${CONTOURS:-}" ]; then
  swift build -c release --product contours >&2 || exit 1
  CONTOURS="$(swift build -c release --show-bin-path)/contours"
fi
C="$CONTOURS"
export SWIFT_BACKTRACE=enable=no
WORK="$(mktemp -d /tmp/check-faults.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
IN="$WORK/in"; OUTD="$WORK/out"; mkdir -p "$IN" "$OUTD"
DATA=../shared/data

cases=0; crashes=0; hangs=0; partials=0; badstatus=0; multiline=0; leftovers=0; inputs_changed=0
failures=()

fail() { failures+=("$1"); }

# case_run NAME OUTFILE SCRIPT: runs SCRIPT (bash, $C is the tool) in
# $OUTD with a 20 s limit; OUTFILE (or -) is the output the case may
# write. Half the cases start with an old output there, which a failed
# run must leave as it was.
case_run() {
  local name=$1 out=$2 script=$3
  cases=$((cases + 1))
  rm -rf "$OUTD"; mkdir -p "$OUTD"
  local old=0
  if [ "$out" != - ] && [ $((cases % 2)) = 0 ]; then echo previous > "$OUTD/$out"; old=1; fi
  local status
  (cd "$OUTD" && C="$C" IN="$IN" timeout -k 2 20 bash -c "$script" >"$WORK/stdout" 2>"$WORK/stderr" </dev/null)
  status=$?
  local why=""
  if [ $status = 98 ]; then
    inputs_changed=$((inputs_changed + 1)); why="the case's input changed"
  elif [ $status = 124 ] || [ $status = 137 ]; then
    hangs=$((hangs + 1)); why="hang (over 20 s)"
  elif [ $status -gt 2 ] && [ $status != 130 ] && [ $status != 143 ]; then
    if [ $status -gt 128 ]; then crashes=$((crashes + 1)); why="signal $((status - 128))"
    else badstatus=$((badstatus + 1)); why="exit status $status"; fi
  fi
  local lines; lines=$(wc -l <"$WORK/stderr")
  local tail; tail=$(tail -c 1 "$WORK/stderr" | od -An -c | tr -d ' ')
  if [ "$lines" -gt 1 ] || { [ -s "$WORK/stderr" ] && [ "$tail" != '\n' ]; }; then
    multiline=$((multiline + 1)); why="$why stderr has $lines lines"
  fi
  if [ "$out" != - ]; then
    if [ $status = 130 ] || [ $status = 143 ] && [ -e "$OUTD/$out" ] && [ "$(cat "$OUTD/$out")" != previous ]; then
      # The signal came after the rename: the output must then be whole.
      python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$OUTD/$out" 2>/dev/null \
        || { partials=$((partials + 1)); why="$why partial output after a signal"; }
    elif [ $status != 0 ]; then
      if [ $old = 1 ] && [ "$(cat "$OUTD/$out" 2>/dev/null)" != previous ]; then
        partials=$((partials + 1)); why="$why old output changed"
      elif [ $old = 0 ] && [ -e "$OUTD/$out" ]; then
        partials=$((partials + 1)); why="$why partial output left"
      fi
    elif [ ! -s "$OUTD/$out" ] || [ "$(cat "$OUTD/$out")" = previous ]; then
      partials=$((partials + 1)); why="$why exit 0 but no new output"
    fi
  fi
  local left; left=$(find "$OUTD" -name '.contours-*' 2>/dev/null | head -1)
  if [ -n "$left" ]; then leftovers=$((leftovers + 1)); why="$why temporary file left"; fi
  [ -n "$why" ] && fail "$name:$why: $(head -c 300 "$WORK/stderr" | tr '\n' '|')"
  return 0
}

# truncations FILE MOST CMD...: CMD on every prefix of FILE (INPUT in CMD is
# the prefix's path), or on MOST prefixes evenly spaced when FILE is longer.
truncations() {
  local file=$1 most=$2; shift 2
  local size; size=$(wc -c <"$file")
  # At most about MOST prefixes: every byte of a small file.
  local ext="${file##*.}" step=$(( (size + most - 1) / most )); [ $QUICK = 1 ] && step=$((step * 7))
  local k
  for ((k = 0; k <= size; k += step)); do
    head -c $k "$file" > "$WORK/cut.$ext"
    local cmd="${*//INPUT/$WORK/cut.$ext}"
    case_run "truncate $(basename "$file")@$k" o.out "$cmd -o o.out"
  done
}

# flips FILE COUNT SEED CMD...: CMD on COUNT copies of FILE with 1-4 random bytes changed.
flips() {
  local file=$1 count=$2 seed=$3; shift 3
  local ext="${file##*.}" k
  for ((k = 0; k < count; k++)); do
    python3 - "$file" "$WORK/flip.$ext" $((seed * 1000 + k)) <<'PY'
import random, sys
data = bytearray(open(sys.argv[1], "rb").read()); rng = random.Random(int(sys.argv[3]))
for _ in range(rng.randint(1, 4)):
    data[rng.randrange(len(data))] = rng.choice([0, 10, 13, 34, 44, 45, 46, 48, 57, 91, 93, 123, 125, 0xff, rng.randrange(256)])
open(sys.argv[2], "wb").write(data)
PY
    local cmd="${*//INPUT/$WORK/flip.$ext}"
    case_run "flip $(basename "$file")#$k" o.out "$cmd -o o.out"
  done
}

# ---- inputs -----------------------------------------------------------------

make_inputs() {
  python3 - "$IN" <<'PY'
import json, random, sys
d = sys.argv[1]; rng = random.Random(19)
rows = [(round(rng.uniform(-21, -19), 3), round(rng.uniform(178, 180), 3), rng.randint(1, 9)) for _ in range(12)]
open(f"{d}/small.csv", "w").write("lat,lon,w\n" + "".join(f"{a},{b},{w}\n" for a, b, w in rows))
feats = [{"type": "Feature", "properties": {"w": w}, "geometry": {"type": "Point", "coordinates": [b, a]}} for a, b, w in rows[:6]]
feats.append({"type": "Feature", "properties": {"w": 2}, "geometry": {"type": "MultiPoint", "coordinates": [[179.1, -20.2], [179.3, -20.4]]}})
open(f"{d}/small.geojson", "w").write(json.dumps({"type": "FeatureCollection", "features": feats}, separators=(",", ":")))
pts = [(round(rng.gauss(0, 3), 4), round(rng.gauss(0, 3), 4)) for _ in range(40000)]
open(f"{d}/planar.csv", "w").write("x,y\n" + "".join(f"{x},{y}\n" for x, y in pts))
# Huge fields: a 2 MB value, a 20 MB line without a line end, 100 000 columns.
open(f"{d}/hugefield.csv", "w").write("lat,lon\n1,2\n" + "3" * 2_000_000 + ",4\n")
open(f"{d}/hugeline.csv", "w").write("lat,lon\n1," + "2" * 20_000_000)
open(f"{d}/widehead.csv", "w").write(",".join(f"c{i}" for i in range(100_000)) + ",lat,lon\n" + "0," * 100_000 + "1,2\n")
open(f"{d}/longname.csv", "w").write("lat,lon," + "x" * 1_000_000 + "\n1,2,3\n")
open(f"{d}/manyquotes.csv", "w").write("lat,lon,name\n1,2,\"" + "a" * 5_000_000 + "\"\n")
# Deep nesting, in arrays and objects, and inside coordinates.
open(f"{d}/deeparray.geojson", "w").write("[" * 200_000 + "]" * 200_000)
open(f"{d}/deepobject.geojson", "w").write('{"a":' * 100_000 + "1" + "}" * 100_000)
open(f"{d}/deepcoords.geojson", "w").write('{"type":"Point","coordinates":' + "[" * 50_000 + "1,2" + "]" * 50_000 + "}")
open(f"{d}/deepprops.geojson", "w").write('{"type":"Feature","properties":{"p":' + "[" * 100_000 + "]" * 100_000
    + '},"geometry":{"type":"Point","coordinates":[1,2]}}')
open(f"{d}/hugestring.geojson", "w").write('{"type":"Feature","properties":{"p":"' + "x" * 5_000_000
    + '"},"geometry":{"type":"Point","coordinates":[1,2]}}')
open(f"{d}/hugenumber.geojson", "w").write('{"type":"Point","coordinates":[1' + "0" * 1_000_000 + ',2]}')
open(f"{d}/binary.csv", "wb").write(bytes(rng.randrange(256) for _ in range(4096)))
open(f"{d}/utf16.csv", "wb").write("lat,lon\n1,2\n".encode("utf-16"))
PY
  cp "$DATA/quakes_fiji.csv" "$IN/quakes.csv"
  "$C" export "$IN/small.csv" --planar --levels 2 --smooth none --precision 3 -o "$IN/contours.geojson" 2>/dev/null
  "$C" export "$IN/quakes.csv" -o "$IN/quakes.geojson" 2>/dev/null
  "$C" bin "$IN/quakes.csv" --shape h3 --h3-resolution 3 --format csv -o "$IN/cells.csv" 2>/dev/null
  "$C" grid "$IN/quakes.csv" --resolution 48 --format tiff -o "$IN/small.tif" 2>/dev/null
  "$C" grid "$IN/quakes.csv" --resolution 24 --format asc -o "$IN/small.asc" 2>/dev/null
  cp Tests/Fixtures/cells/quakes-mag.cells.csv "$IN/table.cells.csv"
}

# ---- kinds of cases -----------------------------------------------------------

kind_csv() {
  truncations "$IN/small.csv" 1000 '$C export INPUT --weight w'
  flips "$IN/small.csv" 40 1 '$C export INPUT --weight w'
  flips "$IN/small.csv" 20 2 '$C bin INPUT --weight w --aggregate mean --size 20'
  for f in hugefield hugeline widehead longname manyquotes binary utf16; do
    for cmd in export info bin; do
      case_run "$f.csv $cmd" o.out "\$C $cmd \$IN/$f.csv -o o.out"
    done
  done
  case_run "csv through stdin cut mid-row" o.out "head -c 1000 \$IN/quakes.csv | \$C export - -o o.out"
  case_run "empty stdin" o.out "\$C export - -o o.out </dev/null"
}

kind_geojson() {
  truncations "$IN/small.geojson" 1000 '$C export INPUT'
  flips "$IN/small.geojson" 40 3 '$C export INPUT'
  flips "$IN/small.geojson" 20 4 '$C grid INPUT --resolution 40'
  for f in deeparray deepobject deepcoords deepprops hugestring hugenumber; do
    for cmd in export info; do
      case_run "$f.geojson $cmd" o.out "\$C $cmd \$IN/$f.geojson -o o.out"
    done
  done
  local P='{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}'
  for text in '{"features":[]}' '{"type":"Banana","features":[]}' '{"type":"Banana"}' "$P$P" \
      "{\"type\":\"FeatureCollection\",\"features\":[$P]}{\"type\":\"FeatureCollection\",\"features\":[$P]}" \
      '{"type":"Point","coordinates":[]}' '{"type":"Point","coordinates":[1]}' '{"type":"Point","coordinates":["a",2]}' \
      '{"type":"Point","coordinates":[1e400,2]}' '{"type":"MultiPoint","coordinates":[[1,2],3]}' '[1,2,3]' '"text"' \
      '{"type":"Point","coordinates":[1,2],"type":"Point"}' $'\xef\xbb\xbf{"type":"Point","coordinates":[1,2]}'; do
    printf '%s' "$text" > "$WORK/odd.geojson"
    case_run "odd geojson ${text:0:40}" o.out "\$C export $WORK/odd.geojson -o o.out"
  done
}

kind_contours() {
  # `hit` reads contour files: cut them, flip them, corrupt their numbers.
  truncations "$IN/contours.geojson" 150 '$C hit INPUT --planar --at -20,179'
  flips "$IN/contours.geojson" 30 5 '$C hit INPUT --planar --at -20,179'
  python3 - "$IN/quakes.geojson" "$WORK" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); w = sys.argv[2]
def save(name, d): open(f"{w}/{name}.geojson", "w").write(json.dumps(d))
import copy
a = copy.deepcopy(doc); a["features"][0]["geometry"] = {"type": "Polygon", "coordinates": [[[1e308, 1e308], [-1e308, 1e308], [0, -1e308], [1e308, 1e308]]]}; save("huge", a)
b = copy.deepcopy(doc); b["features"][1]["properties"]["threshold"] = -5; save("disorder", b)
c = copy.deepcopy(doc); c["features"][0]["geometry"] = {"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]}; save("shortring", c)
d = copy.deepcopy(doc); d["features"][0]["properties"]["level"] = 99999999; save("level", d)
e = copy.deepcopy(doc); e["features"][0]["properties"]["level"] = -1; save("negative", e)
f = copy.deepcopy(doc); del f["features"][0]["properties"]; save("noprops", f)
PY
  for n in huge disorder shortring level negative noprops; do
    case_run "corrupt contours $n" o.out "\$C hit $WORK/$n.geojson --at -20.5,-178.4 -o o.out"
  done
}

kind_streams() {
  local q='$IN/quakes.csv'
  case_run "stdin closed" o.out "\$C export - -o o.out <&-"
  case_run "stdin closed, no INPUT" o.out "\$C export -o o.out <&-"
  case_run "stdin write-only" - "\$C info - 0>w.txt"
  case_run "stdin is a folder" - "\$C info - <."
  case_run "read fails (EIO)" o.out "\$C export /proc/self/mem -o o.out"
  case_run "input is a folder" o.out "\$C export . -o o.out"
  case_run "stderr closed" - "\$C export /nonexistent 2>&-"
  case_run "stderr full" - "\$C export /nonexistent 2>/dev/full"
  case_run "stderr closed with a note" o.out "\$C bin $q -o o.out 2>&-"
  case_run "stderr full with a note" o.out "\$C bin $q -o o.out 2>/dev/full"
  case_run "stdout closed" - "\$C export $q >&-"
  case_run "stdout full" - "\$C export $q >/dev/full"
  case_run "stdout read-only" - "\$C export $q 1<$q"
  case_run "all closed" - "\$C export $q <&- >&- 2>&-"
  case_run "reader gone" - "\$C grid $q --resolution 800 | head -c 10 >/dev/null"
  case_run "help to a full stdout" - "\$C --help >/dev/full"
  case_run "-o /dev/full" - "\$C export $q -o /dev/full"
  case_run "-o /dev/null" - "\$C export $q -o /dev/null"
  # Root writes into a mode-555 folder anyway: a read-only mount is read-only for all.
  mkdir -p "$WORK/ro"; chmod 555 "$WORK/ro"
  local mounted=0
  [ "$(id -u)" = 0 ] && mount -t tmpfs -o ro,size=64k tmpfs "$WORK/ro" 2>/dev/null && mounted=1
  case_run "read-only folder" - "\$C export $q -o $WORK/ro/o.geojson; s=\$?; test ! -e $WORK/ro/o.geojson || exit 99; exit \$s"
  [ $mounted = 1 ] && umount "$WORK/ro"
  case_run "missing folder" - "\$C export $q -o nowhere/o.geojson"
  case_run "output is a folder" - "mkdir d; \$C export $q -o d"
  if [ "$(id -u)" = 0 ] && mkdir -p "$WORK/tiny" && mount -t tmpfs -o size=1m tmpfs "$WORK/tiny" 2>/dev/null; then
    echo previous > "$WORK/tiny/o.grid"
    case_run "full 1 MB tmpfs" - "\$C grid $q --resolution 1000 -o $WORK/tiny/o.grid; s=\$?; test \"\$(cat $WORK/tiny/o.grid)\" = previous && test -z \"\$(ls -A $WORK/tiny | grep -v o.grid)\" && exit \$s; exit 99"
    umount "$WORK/tiny"
  fi
}

kind_signals() {
  # A write long enough to be caught in the middle: a big grid to a file.
  local sig delay
  for sig in INT TERM; do
    for delay in 0.05 0.1 0.2 0.3 0.5 0.8 1.2 1.6; do
      case_run "SIG$sig after $delay s" o.json "\$C grid \$IN/quakes.csv --resolution 2500 -o o.json & p=\$!; sleep $delay; kill -$sig \$p; wait \$p"
      case_run "SIG$sig after $delay s, stdin" o.json "\$C grid - --resolution 2500 -o o.json <\$IN/quakes.csv & p=\$!; sleep $delay; kill -$sig \$p; wait \$p"
    done
  done
}

kind_memory() {
  # Limits and grids where a job is refused at once or done in seconds.
  local v r cmd
  for v in 200000 300000 500000 1000000; do
    for r in 500 1500 3000 10000; do
      for cmd in export grid info; do
        [ $cmd = export ] && [ $r = 3000 ] && [ $v = 1000000 ] && continue
        case_run "ulimit -v $v $cmd --resolution $r" - "ulimit -v $v; \$C $cmd \$IN/quakes.csv --resolution $r >/dev/null"
      done
    done
  done
  case_run "ulimit -v, include-empty" - "ulimit -v 500000; \$C bin \$IN/quakes.csv --include-empty --size 1 --max-cells 100000000 >/dev/null"
}

kind_paths() {
  local q='$IN/quakes.csv'
  local s="$WORK/self.csv"
  # Each case works on a fresh copy of an input and exits 98 when the copy changed.
  local fresh="cp \$IN/quakes.csv $s;" same="s=\$?; cmp -s $s \$IN/quakes.csv || exit 98; exit \$s"
  case_run "output is the input" - "$fresh \$C export $s -o $s; $same"
  case_run "output is the input via .." - "$fresh \$C export $s -o $WORK/in/../self.csv; $same"
  case_run "output is the input via a link" - "$fresh ln -sf $s l.csv; \$C export l.csv -o $s; $same"
  case_run "output is a link to the input" - "$fresh ln -sf $s l.csv; \$C export $s -o l.csv; $same"
  case_run "output is a hard link to the input" - "$fresh ln -f $s h.csv; \$C export $s -o h.csv; $same"
  local keep="s=\$?; cmp -s b.geojson \$IN/contours.geojson || exit 98; exit \$s"
  case_run "output is the basemap" - "cp \$IN/contours.geojson b.geojson; \$C export $q --format svg --basemap b.geojson -o b.geojson; $keep"
  case_run "output is the contour file of hit" - "cp \$IN/contours.geojson b.geojson; \$C hit b.geojson --planar --at 1,2 -o b.geojson; $keep"
  case_run "dangling link" - "ln -sf nothing l.geojson; \$C export $q -o l.geojson"
  # These two must work (exit 99 when not).
  case_run "link written through" - "echo x > t.geojson; ln -sf t.geojson l.geojson; \$C export $q -o l.geojson && test -L l.geojson && grep -q Feature t.geojson || exit 99"
  case_run "255-byte name" - "n=\$(printf 'a%.0s' \$(seq 1 247)).geojson; \$C export $q -o \$n && test -s \$n || exit 99"
  case_run "256-byte name" - "n=\$(printf 'a%.0s' \$(seq 1 248)).geojson; \$C export $q -o \$n"
  case_run "newline in the output name" - "\$C export $q -o \"\$(printf 'a\\nb.geojson')\""
  case_run "escape in the output name" - "\$C export $q -o \"\$(printf '/nowhere/\\033[2J.geojson')\""
  case_run "newline in the input name" - "\$C export \"\$(printf 'new\\nline.csv')\""
  case_run "escape in the input name" - "\$C export \"\$(printf '\\033]0;pwned\\007.csv')\""
}

kind_options() {
  local q="$IN/quakes.csv" opt val
  local values=($'1\n2' $'\x1b[2J' $'\r' '' ' ' '1e308' '-1e308' '1e-308' 'nan' 'inf' '-0' '0' '99999999999999999999'
    '1e308km' '1,2,3' 'custom:-1' $'a\tb' '%s%n' '💥' "$(printf 'x%.0s' $(seq 1 5000))")
  for opt in --radius --resolution --padding --levels --spacing --precision --lat --weight; do
    for val in "${values[@]}"; do
      printf '%s' "$val" > "$WORK/value"
      case_run "export $opt $(printf '%q' "$val" | head -c 30)" o.out "\$C export $q $opt \"\$(cat $WORK/value)\" -o o.out"
    done
  done
  for opt in --size --max-cells --opacity --title --gradient --scale --width; do
    for val in "${values[@]}"; do
      printf '%s' "$val" > "$WORK/value"
      case_run "bin $opt $(printf '%q' "$val" | head -c 30)" o.out "\$C bin $q --format svg $opt \"\$(cat $WORK/value)\" -o o.out"
    done
  done
  for val in "${values[@]}" '95,10' '1,400' '1,2,3' ',' '1e308,1e308'; do
    printf '%s' "$val" > "$WORK/value"
    case_run "hit --at $(printf '%q' "$val" | head -c 30)" - "\$C hit \$IN/quakes.geojson --at \"\$(cat $WORK/value)\""
  done
  for s in 'custom:-1' 'custom:3,2,1' 'custom:1,1' 'custom:1e9' 'probability:0.5' 'quantile' 'log'; do
    case_run "spacing $s" o.out "\$C export $q --spacing $s -o o.out"
  done
  for s in 1e-6 1e-8 1e-300 1e300 0.001; do
    case_run "bin --size $s" o.out "\$C bin $q --size $s --format csv -o o.out"
  done
  case_run "planar 1.7e308" o.out "printf 'x,y\\n-1.7e308,-1.7e308\\n1.7e308,1.7e308\\n' | \$C bin --planar - -o o.out"
  case_run "planar 1e-300" o.out "printf 'x,y\\n0,0\\n1e-300,1e-300\\n' | \$C bin --planar - -o o.out"
  case_run "planar 1.7e308 export" o.out "printf 'x,y\\n-1.7e308,-1.7e308\\n1.7e308,1.7e308\\n' | \$C export --planar - -o o.out"
  case_run "planar 1e-300 export" o.out "printf 'x,y\\n0,0\\n1e-300,1e-300\\n' | \$C export --planar - -o o.out"
}

kind_h3() {
  # H3 cells as a shape and as pre-aggregated input (--h3 COLUMN).
  local q="$IN/quakes.csv" r
  for r in -1 16 1e308 nan '' $'1\n2' 3.5 99999999999999999999; do
    printf '%s' "$r" > "$WORK/value"
    case_run "bin --shape h3 --h3-resolution $(printf '%q' "$r")" o.out "\$C bin $q --shape h3 --h3-resolution \"\$(cat $WORK/value)\" -o o.out"
  done
  [ -s "$IN/cells.csv" ] || return 0
  truncations "$IN/cells.csv" 80 '$C export INPUT --h3 h3 --weight count'
  flips "$IN/cells.csv" 20 6 '$C bin INPUT --h3 h3 --weight count'
  for id in 0 ffffffffffffffff 8f2830828052d25 zz 839a04fffffffff0 -1 ''; do
    printf 'h3,count\n%s,1\n' "$id" > "$WORK/cell.csv"
    case_run "--h3 id '$id'" o.out "\$C export $WORK/cell.csv --h3 h3 --weight count -o o.out"
  done
}

kind_tiff() {
  # Rasters as INPUT: a GeoTIFF of ours cut at every few bytes and with bytes
  # changed (header, directories, compressed tiles), an ESRI grid, and the
  # committed refusals (truncated, ZSTD, rotated, not a TIFF).
  truncations "$IN/small.tif" 150 '$C export INPUT --smooth none'
  flips "$IN/small.tif" 80 7 '$C export INPUT --smooth none'
  truncations "$IN/small.asc" 40 '$C export INPUT'
  flips "$IN/small.asc" 20 8 '$C export INPUT'
  local f
  for f in bad truncated zstd rotated uint16_packbits_nocrs bng_27700; do
    case_run "raster $f" o.out "\$C export $PWD/Tests/Fixtures/Rasters/$f.tif -o o.out"
  done
}

kind_cells() {
  # Cells tables of 'contours sql' as INPUT: cut and flipped.
  truncations "$IN/table.cells.csv" 100 '$C grid INPUT --input-format cells'
  flips "$IN/table.cells.csv" 40 9 '$C export INPUT'
}

# CHECK_KINDS="paths streams" runs only those kinds.
KINDS=(${CHECK_KINDS:-csv geojson contours h3 tiff cells streams signals memory paths options})

# ---- run --------------------------------------------------------------------

make_inputs
checksums() { (cd "$IN" && sha256sum $(ls | sort)) ; sha256sum "$DATA"/*; }
before="$(checksums)"
for kind in "${KINDS[@]}"; do
  start=$cases
  "kind_$kind"
  echo "$kind: $((cases - start)) cases" >&2
done
after="$(checksums)"
changed=$inputs_changed
if [ "$before" != "$after" ]; then
  changed=$((changed + $(diff <(echo "$before") <(echo "$after") | grep -c '^>')))
  fail "inputs changed: $(diff <(echo "$before") <(echo "$after") | grep '^>' | head -3 | tr '\n' ' ')"
fi

for f in "${failures[@]}"; do echo "FAIL $f"; done
echo "cases $cases, crashes $crashes, hangs $hangs, partial files $partials, temporary files left $leftovers," \
     "other exit statuses $badstatus, multi-line stderr $multiline, inputs changed $changed"
[ ${#failures[@]} = 0 ]
