#!/usr/bin/env bash
# A 10-second smoke load per variant with wrk (Debian package), outside Gatling: time to ready, RSS after start,
# and GET one item's throughput. A figure for notes and sanity checks, not a benchmark result (./bench is).
# Variants, their commands and health paths come from benchmarks.json (`./bench start`), so every variant is
# covered. Needs the embedded database running: ./bench db (127.0.0.1:54329). Pinning as in benchmarks.json:
# the service on CPU 1, wrk (the load) on CPU 0.
#   services/smoke-load.sh [variant …]        (default: every variant in benchmarks.json)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "smoke-load: wrk missing (apt-get install wrk)" >&2; exit 1; }
./bench build >/dev/null # the variants' artifacts, built when stale
declare -A dialect health
while IFS=$'\t' read -r name variant_dialect variant_health; do
  dialect[$name]=$variant_dialect
  health[$name]=$variant_health
done < <(./bench start --list)
variants=("$@")
((${#variants[@]})) || mapfile -t variants < <(./bench start --list | cut -f1)
port=18080
printf '%-17s %14s %10s %12s %10s %10s\n' variant "ready (ms)" "RSS (MB)" "req/s" "p50" "p99"
for variant in "${variants[@]}"; do
  [[ -n "${dialect[$variant]:-}" ]] || { echo "smoke-load: no variant $variant in benchmarks.json" >&2; exit 1; }
  path=/items/1
  # The HAL dialect reads one item with its category through the excerpt projection.
  [[ ${dialect[$variant]} == hal ]] && path='/items/1?projection=itemWithCategory'
  mapfile -t launch < <(./bench start "$variant" --port "$port" --print)
  start=$(date +%s%N)
  taskset -c 1 env "${launch[@]}" >"/tmp/smoke-load-$variant.log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$port${health[$variant]}" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "$variant exited; see /tmp/smoke-load-$variant.log" >&2; exit 1; }
    sleep 0.05
  done
  ready_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  rss_mb=$(( $(awk '/VmRSS/ {print $2}' "/proc/$pid/status") / 1024 ))
  taskset -c 0 wrk -t1 -c8 -d10s "http://127.0.0.1:$port$path" >/dev/null          # warmup, discarded
  out=$(taskset -c 0 wrk -t1 -c8 -d10s --latency "http://127.0.0.1:$port$path")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '%-17s %14s %10s %12s %10s %10s\n' "$variant" "$ready_ms" "$rss_mb" "$rps" "$p50" "$p99"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
done
