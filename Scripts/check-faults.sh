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
# files for `hit`; and (issue 32) the shell's idioms (`<(…)`, /dev/stdin,
# FIFOs, -o /dev/stdout into pipes, headers and appended logs), every
# terminating signal at several moments of a 6-second job, SIGKILL, file
# size and CPU limits, a folder renamed during the run, unbounded level
# and smoothing requests, and silently invalid inputs. Every case must end
# with exit status 0, 1, 2, 130 or 143 (or 128 + the signal it was sent),
# at most one line on stderr, within 20 s, and leave no partial output or
# temporary file behind (an old output stays as it was). The input files'
# checksums must be the same after the whole suite.
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

# Background jobs started as an interactive shell starts them (`set -m`:
# SIGINT and SIGQUIT not ignored), their stderr on fd 3 and the shell's own
# job reports dropped.
bg='exec 3>&2 2>/dev/null; set -m;'

# A case may set ALLOW to one more exit status it may end with (128 + the
# signal it sends); case_run resets it.
ALLOW=none
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
  elif [ "$status" = "$ALLOW" ]; then
    :
  elif [ $status = 124 ] || [ $status = 137 ]; then
    hangs=$((hangs + 1)); why="hang (over 20 s)"
  elif [ $status -gt 2 ] && [ $status != 130 ] && [ $status != 143 ] && [ "$status" != "$ALLOW" ]; then
    if [ $status -gt 128 ]; then crashes=$((crashes + 1)); why="signal $((status - 128))"
    else badstatus=$((badstatus + 1)); why="exit status $status"; fi
  fi
  local lines; lines=$(wc -l <"$WORK/stderr")
  local tail; tail=$(tail -c 1 "$WORK/stderr" | od -An -c | tr -d ' ')
  if [ "$lines" -gt 1 ] || { [ -s "$WORK/stderr" ] && [ "$tail" != '\n' ]; }; then
    multiline=$((multiline + 1)); why="$why stderr has $lines lines"
  fi
  if [ "$out" != - ]; then
    if { [ $status = 130 ] || [ $status = 143 ] || [ "$status" = "$ALLOW" ]; } && [ -e "$OUTD/$out" ] && [ "$(cat "$OUTD/$out")" != previous ]; then
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
  ALLOW=none
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
  cp "$DATA/nz_coastline.geojson" "$IN/nz.geojson"
  "$C" grid "$IN/quakes.csv" --resolution 60 -o "$IN/grid.json" 2>/dev/null
  python3 /work/shared/tools/gen_points.py 400000 --geo --seed 32 -o "$IN/big.csv"
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
      case_run "SIG$sig after $delay s" o.json "$bg \$C grid \$IN/quakes.csv --resolution 2500 -o o.json 2>&3 & p=\$!; sleep $delay; kill -$sig \$p; wait \$p"
      case_run "SIG$sig after $delay s, stdin" o.json "$bg \$C grid - --resolution 2500 -o o.json <\$IN/quakes.csv 2>&3 & p=\$!; sleep $delay; kill -$sig \$p; wait \$p"
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
  # Radii per point hold every point: refused by what holds them (no
  # advice about the resolution), or by the grid, or done.
  for v in 250000 300000 400000; do
    case_run "ulimit -v $v grid --adaptive" - "ulimit -v $v; \$C grid \$IN/big.csv --adaptive --kernel quartic --resolution 2000 >/dev/null 2>e; s=\$?; cat e >&2; ! grep -q 'points with a radius.*--resolution' e || exit 99; exit \$s"
  done
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


# ---- issue 32: idioms, every signal, limits, bounded work, invalid input ----

kind_idioms() {
  local q='$IN/quakes.csv' ok='|| exit 99'
  # Streams as INPUT give what the file gives (the input line names the path).
  case_run "info <(cat f)" - "diff <(\$C info <(cat $q) | tail -n +2) <(\$C info $q | tail -n +2) >/dev/null $ok"
  case_run "cat f | info /dev/stdin" - "diff <(cat $q | \$C info /dev/stdin | tail -n +2) <(\$C info $q | tail -n +2) >/dev/null $ok"
  case_run "info /dev/fd/0" - "diff <(\$C info /dev/fd/0 <$q | tail -n +2) <(\$C info $q | tail -n +2) >/dev/null $ok"
  case_run "FIFO as INPUT" - "mkfifo f; cat $q > f & \$C info f >/dev/null $ok"
  case_run "export <(cat f)" o.json "\$C export <(cat $q) -o o.json; cmp -s o.json <(\$C export $q) $ok"
  case_run "--basemap <(cat f)" o.svg "\$C export $q --format svg --basemap <(cat \$IN/nz.geojson) -o o.svg $ok"
  case_run "raster <(cat f.tif)" o.json "\$C export <(cat \$IN/small.tif) -o o.json $ok"
  case_run "raster on stdin" o.json "\$C export - -o o.json <\$IN/grid.json $ok"
  case_run "cells table <(cat f)" - "\$C info <(cat \$IN/table.cells.csv) | grep -q 'cells table' $ok"
  case_run "empty FIFO" - "mkfifo f; : > f & \$C info f"
  # -o naming a descriptor writes that descriptor: pipes, headers and logs keep what they had.
  case_run "-o /dev/stdout | head" - "\$C export $q -o /dev/stdout | head -c 40 | grep -q FeatureCollection $ok"
  case_run "-o /dev/stdout after a header" - "{ echo HEADER; \$C export $q -o /dev/stdout; } > got; test \"\$(head -1 got)\" = HEADER && grep -q Feature got $ok"
  case_run "-o /dev/stdout appended" - "echo OLD > got; \$C export $q -o /dev/stdout >> got; test \"\$(head -1 got)\" = OLD && grep -q Feature got $ok"
  case_run "-o /dev/fd/1 appended" - "echo OLD > got; \$C export $q -o /dev/fd/1 >> got; test \"\$(head -1 got)\" = OLD $ok"
  case_run "-o /proc/self/fd/1 appended" - "echo OLD > got; \$C export $q -o /proc/self/fd/1 >> got; test \"\$(head -1 got)\" = OLD $ok"
  case_run "-o /dev/fd/3" - "\$C export $q -o /dev/fd/3 3>got; grep -q Feature got $ok"
  case_run "-o /dev/fd/9 not open" - "\$C export $q -o /dev/fd/9"
  case_run "-o FIFO with a reader" - "mkfifo f; cat f > got & \$C export $q -o f; wait; grep -q Feature got $ok"
  case_run "-o FIFO without a reader, SIGINT" - "$bg mkfifo f; \$C export $q -o f 2>&3 & p=\$!; sleep 0.5; kill -INT \$p; wait \$p; test \$? = 130 $ok"
  case_run "-o socket" - "python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.bind(\"s.sock\"); s.listen(1); c,_=s.accept(); open(\"got\",\"wb\").write(c.makefile(\"rb\").read())' & sleep 1; \$C export $q -o s.sock; wait; grep -q Feature got $ok"
}

kind_termination() {
  # Every terminating signal at several moments of a 6-second export: no
  # temporary file, the old output untouched or the new one whole, and the
  # signal's own status (1 with one line for SIGXCPU). `set -m` starts the
  # job as an interactive shell does, with SIGINT and SIGQUIT not ignored.
  local sig delay n job="\$C export \$IN/big.csv --resolution 1600 --levels 30 -o o.json"
  for sig in INT TERM HUP QUIT USR1 USR2 ALRM XCPU VTALRM PROF TRAP SYS KILL; do
    n=$(kill -l "$sig")
    for delay in 0.05 0.4 1.5 3 4.5; do
      ALLOW=$((128 + n))
      case_run "SIG$sig after $delay s" o.json "$bg $job 2>&3 & p=\$!; sleep $delay; kill -$sig \$p; wait \$p"
    done
  done
  ALLOW=138
  # timeout exits 124 when it had to send the signal.
  case_run "timeout -s USR1" o.json "timeout -s USR1 2 $job; s=\$?; test \$s = 124 && exit 138; exit \$s"
  case_run "two quick SIGINTs" o.json "$bg $job 2>&3 & p=\$!; sleep 0.5; kill -INT \$p; kill -INT \$p; wait \$p; test \$? = 130 || exit 97; exit 130"
  # Without job control (set -m), a script's `cmd &` starts with SIGINT and
  # SIGQUIT ignored, and nohup ignores SIGHUP: they stay ignored, the job
  # finishes with its whole output. The short job may end before the
  # signals on a fast machine: the shell's own "no such process" is not
  # the tool's output.
  local short="\$C export \$IN/quakes.csv --resolution 1200 -o o.json"
  case_run "SIGINT and SIGQUIT ignored at start" o.json "$short & p=\$!; sleep 0.1; kill -INT \$p 2>/dev/null; kill -QUIT \$p 2>/dev/null; wait \$p"
  case_run "nohup, then SIGHUP" o.json "nohup $short >/dev/null 2>&1 & p=\$!; sleep 0.1; kill -HUP \$p 2>/dev/null; wait \$p"
  case_run "folder renamed during the run" - "mkdir d; \$C export \$IN/quakes.csv --resolution 1200 -o d/o.json & p=\$!; sleep 1; mv d e; wait \$p; s=\$?; test \$s != 0 || test -s e/o.json || exit 99; exit \$s"
  case_run "folder renamed, then SIGTERM" - "mkdir d; \$C export \$IN/big.csv --resolution 1600 --levels 30 -o d/o.json & p=\$!; sleep 1; mv d e; kill -TERM \$p; wait \$p"
}

kind_limits() {
  case_run "ulimit -f on the output" o.json "ulimit -f 200; \$C export \$IN/quakes.csv --resolution 1200 -o o.json"
  case_run "ulimit -f on the stdin spool" o.json "ulimit -f 200; \$C export - -o o.json <\$IN/big.csv"
  case_run "ulimit -t 2" o.json "ulimit -t 2; \$C export \$IN/big.csv --resolution 1600 --levels 30 -o o.json; test \$? = 1 || exit 97; exit 1"
  case_run "ulimit -t 1 on stdin" o.json "ulimit -t 1; \$C export - --resolution 1600 --levels 30 -o o.json <\$IN/big.csv"
}

kind_bounded() {
  local q='$IN/quakes.csv'
  case_run "--interval 1 --offset 1e16" o.json "\$C export $q --interval 1 --offset 1e16 -o o.json"
  case_run "--interval 1e-4 --offset 1e300" o.json "\$C export $q --interval 1e-4 --offset 1e300 -o o.json"
  case_run "--interval 1e-9" o.json "\$C export $q --interval 1e-9 -o o.json"
  case_run "--interval 1e-300 --offset -1e300" o.json "\$C export $q --interval 1e-300 --offset -1e300 -o o.json"
  case_run "--exp-base 10" o.json "\$C export $q --exp-base 10 -o o.json"
  case_run "--exp-base 1.0000001" o.json "\$C export $q --exp-base 1.0000001 -o o.json"
  case_run "--spacing probability:1e-300" o.json "\$C export $q --spacing probability:1e-300 -o o.json"
  case_run "--smooth chaikin:8" o.json "\$C export $q --smooth chaikin:8 -o o.json; test \$(wc -c <o.json) -lt 40000000 || exit 99"
  case_run "chaikin:8 is chaikin:5" - "cmp -s <(\$C export $q --smooth chaikin:8) <(\$C export $q --smooth chaikin:5) || exit 99"
  case_run "--levels 100 --smooth chaikin:8" o.json "\$C export $q --levels 100 --smooth chaikin:8 -o o.json"
  case_run "--levels 1000 --smooth chaikin:8" o.json "\$C export $q --levels 1000 --smooth chaikin:8 -o o.json"
  case_run "--levels 100 --smooth chaikin:8 svg" o.svg "\$C export $q --levels 100 --smooth chaikin:8 --format svg -o o.svg"
}

kind_invalid() {
  local q='$IN/quakes.csv'
  python3 - "$WORK" "$IN" <<'PY'
import json, sys, copy
w, i = sys.argv[1], sys.argv[2]
def text(name, t): open(f"{w}/{name}", "w").write(t)
text("pole.csv", "lat,lon\n90,0\n89.999,50\n")
text("southpole.csv", "lat,lon\n-90,0\n-89,0\n-90,120\n")
g = json.load(open(f"{i}/grid.json"))
a = copy.deepcopy(g); del a["projection"]; del a["crs"]; json.dump(a, open(f"{w}/noproj.json", "w"))
a = copy.deepcopy(g); del a["projection"]; json.dump(a, open(f"{w}/crsonly.json", "w"))
a = copy.deepcopy(g); a["values"] = [v > 0.001 if v is not None else None for v in a["values"]]; json.dump(a, open(f"{w}/bools.json", "w"))
t = open(f"{i}/grid.json").read()
import re
text("nancentre.json", re.sub(r'"centre_latitude":[^,]*', '"centre_latitude":"NaN"', t))
text("farcentre.json", re.sub(r'"centre_latitude":[^,]*', '"centre_latitude":200', t))
text("extra.asc", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5 6\n7\n")
text("past90.asc", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 150\ncellsize 50\n1 2 3\n4 5 6\n")
esri = 'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]'
text("past90.prj", esri)
text("esri.asc", "ncols 3\nnrows 3\nxllcorner 170\nyllcorner -40\ncellsize 1\n1 2 3\n4 9 6\n1 2 1\n"); text("esri.prj", esri)
text("esrimerc.asc", "ncols 3\nnrows 3\nxllcorner 1000000\nyllcorner -4000000\ncellsize 10000\n1 2 3\n4 9 6\n1 2 1\n")
text("esrimerc.prj", 'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",' + esri + ',PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]')
text("esriutm.asc", "ncols 3\nnrows 3\nxllcorner 500000\nyllcorner 6000000\ncellsize 1000\n1 2 3\n4 9 6\n1 2 1\n")
text("esriutm.prj", 'PROJCS["WGS_1984_UTM_Zone_33N",' + esri + ',PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",15.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]')
d = json.load(open(f"{i}/quakes.geojson"))
json.dump(d["features"][0], open(f"{w}/bare.geojson", "w"))
a = copy.deepcopy(d)
for f in a["features"]: del f["properties"]["threshold"]
json.dump(a, open(f"{w}/nothreshold.geojson", "w"))
a = copy.deepcopy(d); a["features"][0]["properties"]["threshold"] = "NaN"; json.dump(a, open(f"{w}/nanthreshold.geojson", "w"))
a = copy.deepcopy(d); g0 = a["features"][0]["geometry"]
(g0["coordinates"][0][0] if g0["type"] == "MultiPolygon" else g0["coordinates"][0]).pop()
json.dump(a, open(f"{w}/openring.geojson", "w"))
text("twolat.csv", "lat,lat,lon\n1,2,3\n4,5,6\n")
text("lonLON.csv", "lat,LON,lon\n1,2,3\n4,5,6\n")
open(f"{w}/ff.csv", "wb").write(b"lat,lon\n1\xff,2\n")
text("identical.csv", "lat,lon\n10,10\n10.000000000001,10\n10,10\n")
text("overflow.csv", "lat,lon,w\n1,2,1e308\n1,3,1e308\n")
t = open(f"{i}/table.cells.csv").read().split("\n"); t[2] = t[2].replace(',"",', ",,", 1); text("units.cells.csv", "\n".join(t))
PY
  local p
  for p in equirectangular equal-area web-mercator; do
    case_run "pole.csv --projection $p" o.json "\$C export $WORK/pole.csv --projection $p -o o.json"
    case_run "southpole.csv --projection $p" o.json "\$C export $WORK/southpole.csv --projection $p -o o.json"
  done
  for f in noproj crsonly bools nancentre farcentre; do
    case_run "JSON grid $f" o.json "\$C export $WORK/$f.json -o o.json"
  done
  for f in extra past90; do case_run "ESRI grid $f" o.json "\$C export $WORK/$f.asc -o o.json"; done
  for f in esri esrimerc esriutm; do case_run "ESRI WKT $f" o.json "\$C export $WORK/$f.asc -o o.json || exit 99"; done
  for f in bare nothreshold nanthreshold openring; do
    case_run "hit $f" - "\$C hit $WORK/$f.geojson --at -20,180"
  done
  case_run "two lat columns" - "\$C info $WORK/twolat.csv"
  case_run "lat,LON,lon" - "\$C info $WORK/lonLON.csv"
  case_run "byte 0xFF shown" - "\$C info $WORK/ff.csv 2>&1 >/dev/null | grep -q 'xff' || exit 99"
  case_run "identical points, automatic bin size" o.json "\$C bin $WORK/identical.csv -o o.json || exit 99"
  case_run "h3 --include-empty --max-cells 10" o.json "\$C bin $q --shape h3 --h3-resolution 2 --include-empty --max-cells 10 -o o.json"
  case_run "cells units \"\" and empty" - "\$C info $WORK/units.cells.csv >/dev/null || exit 99"
  # Two weights of 1e308: the total passes the largest double and so do
  # the grid's sums between them, which are refused in one line.
  case_run "weights overflowing the total" - "\$C info $WORK/overflow.csv --weight w 2>&1 | grep -q 'weights are too large: the grid' || exit 99"
}

# CHECK_KINDS="paths streams" runs only those kinds.
KINDS=(${CHECK_KINDS:-csv geojson contours h3 tiff cells streams signals memory paths options idioms termination limits bounded invalid})

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
