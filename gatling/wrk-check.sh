#!/usr/bin/env bash
# Cross-checks the runner against an independent load generator: the capacity of one endpoint (GET one item with
# its category, the point-read scenario) measured by ./bench (Gatling, closed model) and by wrk (Debian package),
# in the same session, with the same pinning (benchmarks.json "pinning": the service alone on CPU 1; the load
# generator and PostgreSQL on CPU 0), the same concurrency (8), the same uniformly random item ids, the same JVM
# options and pool sizes, and the quick profile's warmup and window (20 s, 10 s).
#   gatling/wrk-check.sh [variant …]          (default: all three)
# Prints one line per variant and tool. Expect wrk to be somewhat higher: it is a C event loop sharing CPU 0 with
# PostgreSQL, where Gatling is a JVM that also checks every response (status + a JSON path).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk-check: wrk missing (apt-get install wrk)" >&2; exit 1; }
command -v jq >/dev/null || { echo "wrk-check: jq missing (apt-get install jq)" >&2; exit 1; }
variants=("$@")
((${#variants[@]})) || variants=(jersey spring-mvc spring-data-rest)

warmup=20 window=10 connections=8 items=100000
db_port=54391 port=18091
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

echo "1/2 runner: ./bench run --profile quick --scenarios point-read (capacity: $connections users, closed model)"
csv=$(IFS=,; echo "${variants[*]}")
./bench run --profile quick --scenarios point-read --variants "$csv" --results "$work/results" --no-history \
  --no-tables || echo "(the runner reported failed cells: they show as FAILED below)"
run_json=$(ls "$work"/results/*/run.json)

echo "2/2 wrk: same pinning, -t1 -c$connections, ${warmup} s warmup (discarded), ${window} s measured"
# The embedded PostgreSQL as the runner starts it (fsync and synchronous_commit on), pinned to CPU 0.
taskset -c 0 ./bench db --port "$db_port" --durable >"$work/db.log" 2>&1 &
pids+=($!)
until grep -q 'ready in' "$work/db.log"; do
  kill -0 "${pids[0]}" 2>/dev/null || { cat "$work/db.log" >&2; exit 1; }
  sleep 0.5
done

# Uniformly random ids 1..items, one per request: the point-read scenario's feeder.
cat >"$work/random-item.lua" <<EOF
math.randomseed(os.time())
local suffix = os.getenv("SUFFIX") or ""
request = function()
  return wrk.format("GET", "/items/" .. math.random(1, $items) .. suffix)
end
EOF

results=()
for variant in "${variants[@]}"; do
  suffix=""
  [[ $variant == spring-data-rest ]] && suffix='?projection=itemWithCategory'
  PORT=$port BIND_ADDRESS=127.0.0.1 DB_URL="jdbc:postgresql://127.0.0.1:$db_port/bench" DB_USER=postgres \
    DB_PASSWORD=postgres DB_POOL_SIZE=16 HTTP_THREADS=64 \
    taskset -c 1 java -Xms512m -Xmx512m -XX:+UseG1GC -jar "services/$variant/target/$variant.jar" \
    >"$work/$variant.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  until curl -sf "http://127.0.0.1:$port/actuator/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "$variant exited:" >&2; tail -5 "$work/$variant.log" >&2; exit 1; }
    sleep 0.1
  done
  SUFFIX=$suffix taskset -c 0 wrk -t1 -c"$connections" -d"${warmup}s" -s "$work/random-item.lua" \
    "http://127.0.0.1:$port" >/dev/null
  out=$(SUFFIX=$suffix taskset -c 0 wrk -t1 -c"$connections" -d"${window}s" --latency -s "$work/random-item.lua" \
    "http://127.0.0.1:$port")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  results+=("$(printf '%-17s %-8s %10s %10s %10s %s' "$variant" wrk "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    "$(awk '$1 == "50%" {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")" \
    "${non2xx:+non-2xx: $non2xx}")")
done

echo
printf '%-17s %-8s %10s %10s %10s\n' variant tool "req/s" p50 p99
for variant in "${variants[@]}"; do
  jq -r --arg v "$variant" '.cells[] | select(.variant == $v and .scenario == "point-read" and .regime == "capacity")
    | if .status == "ok" then
        [.variant, "gatling", (.metrics.throughput.median | tostring),
         ((.metrics.latency_p50.median | tostring) + "ms"), ((.metrics.latency_p99.median | tostring) + "ms")]
      else [.variant, "gatling", "FAILED: " + .reason, "", ""] end
    | @tsv' "$run_json" | awk -F'\t' '{printf "%-17s %-8s %10s %10s %10s\n", $1, $2, $3, $4, $5}'
  for line in "${results[@]}"; do
    [[ $line == "$variant "* ]] && echo "$line"
  done
done
