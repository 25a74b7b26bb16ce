#!/usr/bin/env bash
# Checks `contours sql` against real engines: for each engine and case,
# contours sql -> the engine -> CSV -> contours grid must match contours grid
# of the raw rows (same columns, rows, origin and spacing; every node within
# 1e-3 x max), and contours export of the cells the raw run's thresholds.
#
#   Scripts/check-engines.sh [ENGINE...]     engines: duckdb postgres spark (default: all three)
#   N=500000 Scripts/check-engines.sh duckdb  fewer generated points (default 5,000,000)
#   ONLY="geo_auto storms_auto" Scripts/check-engines.sh spark   some cases only
#
# Needs: python3 with numpy and duckdb (pip), pyspark (pip) and a Java 17
# runtime (Debian openjdk-17-jre-headless) for spark, PostgreSQL's initdb,
# pg_ctl and psql (Debian postgresql) for postgres: a throwaway cluster is
# started on a Unix socket in the work folder and stopped at the end.
# PYTHON picks the interpreter (default: the bench venv, else python3).
# .ci/run runs the DuckDB part on a small N when duckdb and numpy import.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ENGINES=${*:-duckdb postgres spark}
N=${N:-5000000}
PY=${PYTHON:-$( "$ROOT/Benchmarks/setup.sh" 2>/dev/null || command -v python3 )}
GEN=${GEN:-$ROOT/Benchmarks/points.py}
DATA=$ROOT/Samples/data
RUN="$PY $ROOT/Scripts/engines/run_sql.py"
COMPARE="$PY $ROOT/Scripts/engines/compare.py"

swift build -c release --product contours >/dev/null
B=$ROOT/.build/release/contours
W=$(mktemp -d /tmp/check-engines.XXXXXX)
PG=""
cleanup() {
    if [ -n "$PG" ]; then runuser -u postgres -- pg_ctl -D "$PG/data" stop -m fast >/dev/null 2>&1 || true; fi
    rm -rf "$W"
}
trap cleanup EXIT

# Inputs: odd column names (a comma, quotes, a space, a non-ASCII sign).
$PY "$GEN" "$N" --geo -o "$W/geo_plain.csv"
{ echo '"Lon, X",lat-y,W'; tail -n +2 "$W/geo_plain.csv"; } > "$W/geo.csv"; rm "$W/geo_plain.csv"
$PY "$GEN" 1000000 -o "$W/planar.csv"
{ echo 'name,year,month,day,hour,Lat (°),"Long ""W""",status,wind kt,pressure'; tail -n +2 "$DATA/storms.csv"; } > "$W/storms.csv"
awk -F, 'NR > 1 && $2 < 0 { $2 += 360 } { print }' OFS=, "$DATA/quakes_fiji.csv" > "$W/fiji.csv"   # 0...360
{ echo 'lat,lon,w'; tail -n +2 "$DATA/quakes_fiji.csv" | awk -F, '{print $1","$2","$4}'
  printf 'NaN,178.1,1\n-20.5,,1\n-95,178.2,1\n-20.6,361,1\n-20.7,178.3,-2\n-20.8,Inf,1\n-20.9,178.4,\n'; } > "$W/bad.csv"

STORMS=(--lat 'Lat (°)' --lon 'Long "W"')
CASES=(
    "geo_auto|geo.csv|auto|--lat|lat-y|--lon|Lon, X|--weight|W"
    "storms_auto|storms.csv|auto|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--weight|wind kt"
    "planar_auto|planar.csv|auto|--planar|--weight|w"
    "storms_mean|storms.csv|auto|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--weight|wind kt|--value|pressure"
    "storms_scott|storms.csv|scott|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--radius|scott"
    "storms_silverman|storms.csv|silverman|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--weight|wind kt|--radius|silverman"
    "storms_300km|storms.csv|fixed|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--radius|300km|--resolution|200"
    "storms_mercator|storms.csv|auto|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--projection|web-mercator"
    "fiji_0_360|fiji.csv|fixed|--lon|long|--radius|50km"
    "planar_fixed|planar.csv|fixed|--planar|--radius|30|--padding|2"
    "bad_rows|bad.csv|auto|--weight|w"
    "geo_quartic|geo.csv|auto|--lat|lat-y|--lon|Lon, X|--weight|W|--kernel|quartic"
    "storms_quartic_wide|storms.csv|fixed|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--kernel|quartic|--radius|800km|--resolution|300"
    "storms_epan_mean|storms.csv|auto|${STORMS[0]}|${STORMS[1]}|${STORMS[2]}|${STORMS[3]}|--weight|wind kt|--value|pressure|--kernel|epanechnikov"
    "planar_tri_raw|planar.csv|fixed|--planar|--radius|30|--resolution|100|--kernel|triangular:0.5|--kernel-values|raw"
    "fiji_triweight|fiji.csv|fixed|--lon|long|--radius|300km|--resolution|160|--kernel|triweight"
)

if [[ " $ENGINES " == *" postgres "* ]]; then
    PG=$W/pg
    mkdir -p "$PG" && chown postgres "$PG" && chmod 755 "$W"
    runuser -u postgres -- initdb -D "$PG/data" -A trust -U postgres >/dev/null
    runuser -u postgres -- pg_ctl -D "$PG/data" -l "$PG/log" -w \
        -o "-k $PG -c listen_addresses='' -c fsync=off -c shared_buffers=256MB -c max_parallel_workers_per_gather=2" \
        start >/dev/null
fi

failures=0
declare -A RAWTIME
for case in "${CASES[@]}"; do
    IFS='|' read -r -a parts <<< "$case"
    name=${parts[0]} file=$W/${parts[1]} rule=${parts[2]}
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
    options=("${parts[@]:3}")
    start=$(date +%s.%N)
    (ulimit -v 6000000; "$B" grid "$file" "${options[@]}" --skip-invalid -o "$W/$name.raw.json" 2>/dev/null)
    RAWTIME[$name]=$(echo "$(date +%s.%N) - $start" | bc)
    (ulimit -v 6000000; "$B" export "$file" "${options[@]}" --skip-invalid -o "$W/$name.raw.geojson" 2>/dev/null)
    raw_rejected=$("$B" info "$file" "${options[@]}" --skip-invalid --format json 2>/dev/null \
        | $PY -c 'import json,sys; print(sum(json.load(sys.stdin)["rejected"].values()))')
    for engine in $ENGINES; do
        case $engine in
            duckdb) table="read_csv('$file')" ;;
            *) table=points ;;
        esac
        "$B" sql --dialect "$engine" --table "$table" "${options[@]}" > "$W/$name.$engine.sql"
        cells=$W/$name.$engine.cells.csv
        log=$W/$name.$engine.log
        (ulimit -v 12000000; $RUN "$engine" "$W/$name.$engine.sql" "$file" "$cells" $PG) >/dev/null 2>"$log" || true
        timing=$(grep "^$engine load" "$log" || echo "$engine FAILED")
        if [[ $timing == *FAILED* ]]; then
            why=$(grep -E "Error|Exception|ERROR" "$log" | tail -1 | cut -c1-300)
            echo "FAIL  $engine $name: the engine failed: ${why:-see its log}"; failures=$((failures + 1)); continue
        fi
        "$B" grid "$cells" -o "$W/$name.$engine.json" 2>/dev/null
        "$B" export "$cells" -o "$W/$name.$engine.geojson" 2>/dev/null
        rejected=$("$B" info "$cells" --format json 2>/dev/null \
            | $PY -c 'import json,sys; print(sum(json.load(sys.stdin)["rejected"].values()))')
        result=$($COMPARE "$W/$name.$engine.json" "$W/$name.raw.json" "$W/$name.$engine.geojson" \
            "$W/$name.raw.geojson" --rule "$rule") || true
        if [ "$rejected" != "$raw_rejected" ]; then result="FAIL  rejected $rejected, raw run $raw_rejected; $result"; fi
        printf '%-8s %-16s %s  [%s; contours grid of the raw CSV %.2f s]\n' "$engine" "$name" "$result" \
            "${timing#"$engine "}" "${RAWTIME[$name]}"
        [[ $result == ok* ]] || failures=$((failures + 1))
        rm -f "$cells"
    done
done
if [ "$failures" -gt 0 ]; then echo "check-engines: $failures failure(s)"; exit 1; fi
echo "check-engines: all passed"
