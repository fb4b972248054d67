#!/usr/bin/env bash
# publish job: prepares github-action-benchmark's alert check, which only ever compares like with like, and never
# twice for one run. Runs BEFORE publish-pages.sh appends the run.
#   - The action never touches gh-pages: it gets `external-data-json-path` (a file made here, not saved back), so
#     `./bench history append` stays the one writer of data.js and the action's own dev/bench/index.html is never
#     written.
#   - Like with like: the suite the action sees is named after the run's profile and environment fingerprint
#     ("throughput (main, env 45e99f3e9a36)") and holds only data.js entries of that profile and fingerprint (each
#     bench's `extra` names both), so a manual smoke run is never held against the nightly main run, nor one
#     machine against another.
#   - Never twice: a run the history already holds (a re-run of this job) gets no alert step at all.
# usage: alert-input.sh <gh-pages worktree> <merged results dir> <output dir>
# Writes to $GITHUB_OUTPUT: recorded=true|false, throughput_suite, throughput_data, costs_suite, costs_data (a suite
# name is empty when that step must not run: already recorded, or no numbers in that suite).
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
(($# == 3)) || die "usage: alert-input.sh <gh-pages worktree> <merged results dir> <output dir>"
pages=$1 results=$2 dir=$3
bench=$pages/dev/bench
prefix='window.BENCHMARK_DATA = '

run_id=$(jq -r '.runId // ""' "$results/run.json")
profile=$(jq -r '.profile // ""' "$results/run.json")
fingerprint=$(jq -r '.environment.fingerprint // "" | ltrimstr("sha256:")' "$results/run.json")
env12=${fingerprint:0:12}
[[ "$run_id" =~ ^[A-Za-z0-9._-]+$ ]] || die "runId '$run_id' is not a run id"
[[ "$profile" =~ ^[a-z0-9-]+$ ]] || die "profile '$profile' is not a profile name"
[[ "$env12" =~ ^[0-9a-f]{12}$ ]] || die "environment fingerprint '$fingerprint' is not hexadecimal"

recorded=false
if [[ -f "$bench/index.json" ]] && jq -e --arg id "$run_id" '.runs | any(.runId == $id)' "$bench/index.json" >/dev/null; then
  recorded=true
fi
out recorded "$recorded"

mkdir -p "$dir"
history="$dir/history.json"
if [[ -f "$bench/data.js" ]]; then
  [[ "$(head -c ${#prefix} "$bench/data.js")" == "$prefix" ]] || die "$bench/data.js is not github-action-benchmark data"
  tail -c +$((${#prefix} + 1)) "$bench/data.js" | sed 's/;[[:space:]]*$//' >"$history"
else
  echo '{"lastUpdate": 0, "repoUrl": "", "entries": {}}' >"$history"
fi

for suite in throughput costs; do
  name="" data=""
  if [[ "$recorded" == false ]] && jq -e 'length > 0' "$results/bench-$suite.json" >/dev/null 2>&1; then
    name="$suite ($profile, env $env12)"
    data="$dir/$suite.json"
    jq --arg suite "$suite" --arg name "$name" --arg profile "$profile" --arg env "$env12" '
      def like: (.extra // "") as $x
        | ($x | test("(^| )profile=" + $profile + "( |$)")) and ($x | test("(^| )env=" + $env + "( |$)"));
      {lastUpdate, repoUrl, entries: {($name): [(.entries[$suite] // [])[]
        | select((.benches | length) > 0 and all(.benches[]; like))]}}' "$history" >"$data"
  fi
  out "${suite}_suite" "$name"
  out "${suite}_data" "$data"
done
echo "alert-input: run $run_id, profile $profile, env $env12, already recorded: $recorded" >&2
