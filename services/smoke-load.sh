#!/usr/bin/env bash
# A 10-second smoke load per variant with wrk (Debian package), outside Gatling: time to ready, RSS after start,
# and GET /items/{id} throughput. A figure for notes and sanity checks, not a benchmark result (./bench is).
# Needs the embedded database running: ./bench db  (127.0.0.1:54329). Pinning as in benchmarks.json:
# the service on CPU 1, wrk (the load) on CPU 0.
#   services/smoke-load.sh [variant …]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "smoke-load: wrk missing (apt-get install wrk)" >&2; exit 1; }
variants=("$@")
((${#variants[@]})) || variants=(jersey spring-mvc spring-data-rest)
port=18080
printf '%-17s %14s %10s %12s %10s %10s\n' variant "ready (ms)" "RSS (MB)" "req/s" "p50" "p99"
for variant in "${variants[@]}"; do
  start=$(date +%s%N)
  PORT=$port taskset -c 1 java -Xms512m -Xmx512m -XX:+UseG1GC -jar "services/$variant/target/$variant.jar" \
    >"/tmp/smoke-load-$variant.log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port/actuator/health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "$variant exited; see /tmp/smoke-load-$variant.log" >&2; exit 1; }
    sleep 0.05
  done
  ready_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  rss_mb=$(( $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") / 1024 ))
  path=/items/1
  [[ $variant == spring-data-rest ]] && path='/items/1?projection=itemWithCategory'
  taskset -c 0 wrk -t1 -c8 -d10s "http://127.0.0.1:$port$path" >/dev/null          # warmup, discarded
  out=$(taskset -c 0 wrk -t1 -c8 -d10s --latency "http://127.0.0.1:$port$path")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '%-17s %14s %10s %12s %10s %10s\n' "$variant" "$ready_ms" "$rss_mb" "$rps" "$p50" "$p99"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
done
