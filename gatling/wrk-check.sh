#!/usr/bin/env bash
# Cross-checks the runner against an independent load generator: the capacity of one endpoint (GET one item with
# its category, the point-read scenario) measured by ./bench (Gatling, closed model) and by wrk (Debian package),
# in the same session, with what benchmarks.json says for the runner too: the pinning (service alone on
# pinning.service; the load generator and PostgreSQL on pinning.gatling / pinning.postgres), the concurrency (the
# point-read capacity users), the quick profile's warmup (its minimum), window and dataset, each variant's own
# command (`./bench start --print`: its JDK, JVM options and env), and uniformly random item ids.
#   gatling/wrk-check.sh [variant …]          (default: every variant in benchmarks.json)
# Prints one line per variant and tool.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in wrk jq curl taskset; do
  command -v "$tool" >/dev/null || { echo "wrk-check: $tool missing (apt-get install $tool)" >&2; exit 1; }
done
manifest=benchmarks.json
read_manifest() { jq -er "$1" "$manifest" || { echo "wrk-check: $manifest has no $1" >&2; exit 1; }; }
variants=("$@")
((${#variants[@]})) || mapfile -t variants < <(read_manifest '.variants[].name')

warmup=$(read_manifest '.profiles.quick.warmup.minSeconds')
window=$(read_manifest '.profiles.quick.windowSeconds')
items=$(read_manifest '.datasets[.profiles.quick.dataset].items')
connections=$(read_manifest '.scenarios[] | select(.name == "point-read") | .regimes.capacity.load.users')
service_cpus=$(read_manifest '.pinning.service')
load_cpus=$(read_manifest '.pinning.gatling')
db_cpus=$(read_manifest '.pinning.postgres')
health_timeout=$(read_manifest '.defaults.healthTimeoutSeconds')

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
run_json=$(find "$work/results" -name run.json | head -1)
[[ -n "$run_json" ]] || { echo "wrk-check: the runner wrote no run.json (see its output above)" >&2; exit 1; }

echo "2/2 wrk: -t1 -c$connections on CPU $load_cpus, service on CPU $service_cpus, ${warmup} s warmup (discarded), ${window} s measured"
# The embedded PostgreSQL as the runner starts it (fsync and synchronous_commit on), pinned like the runner's.
taskset -c "$db_cpus" ./bench db --port "$db_port" --durable --size "$(read_manifest '.profiles.quick.dataset')" \
  >"$work/db.log" 2>&1 &
pids+=($!)
until grep -q 'ready in' "$work/db.log"; do
  kill -0 "${pids[0]}" 2>/dev/null || { echo "wrk-check: ./bench db exited:" >&2; cat "$work/db.log" >&2; exit 1; }
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
  # An entry that extends another inherits its dialect and health path: ask the runner, not the raw manifest.
  IFS=$'\t' read -r _ dialect health < <(./bench start --list | awk -F'\t' -v v="$variant" '$1 == v')
  suffix=""
  [[ $dialect == hal ]] && suffix='?projection=itemWithCategory'
  mapfile -t launch < <(./bench start "$variant" --port "$port" --db-url "jdbc:postgresql://127.0.0.1:$db_port/bench" --print)
  taskset -c "$service_cpus" env "${launch[@]}" >"$work/$variant.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  deadline=$((SECONDS + health_timeout))
  until curl -sf "http://127.0.0.1:$port$health" >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "wrk-check: $variant exited:" >&2; tail -5 "$work/$variant.log" >&2; exit 1; }
    ((SECONDS < deadline)) || { echo "wrk-check: $variant not healthy after ${health_timeout} s" >&2; exit 1; }
    sleep 0.1
  done
  SUFFIX=$suffix taskset -c "$load_cpus" wrk -t1 -c"$connections" -d"${warmup}s" -s "$work/random-item.lua" \
    "http://127.0.0.1:$port" >/dev/null
  out=$(SUFFIX=$suffix taskset -c "$load_cpus" wrk -t1 -c"$connections" -d"${window}s" --latency \
    -s "$work/random-item.lua" "http://127.0.0.1:$port")
  kill -0 "$pid" 2>/dev/null || { echo "wrk-check: $variant died under wrk:" >&2; tail -5 "$work/$variant.log" >&2; exit 1; }
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
      else [.variant, "gatling", "FAILED: " + (.reason // "?"), "", ""] end
    | @tsv' "$run_json" | awk -F'\t' '{printf "%-17s %-8s %10s %10s %10s\n", $1, $2, $3, $4, $5}'
  for line in "${results[@]}"; do
    if [[ $line == "$variant "* ]]; then echo "$line"; fi
  done
done
