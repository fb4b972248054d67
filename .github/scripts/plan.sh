#!/usr/bin/env bash
# Emits the benchmark matrix from benchmarks.json, so no variant or scenario is ever repeated in workflow YAML.
# Writes matrix=<json>, profile=<name>, scenarios=<csv> to $GITHUB_OUTPUT (stdout when unset).
#
# Without sharding: one job benchmarks every variant (interleaved, as ./bench does locally).
# With "sharding": {"enabled": true}: one job per variant, each on an identical runner of the same hardware class;
# the publish job merges their results.
# Inputs (environment): MANIFEST (default benchmarks.json), EVENT_NAME, PROFILE_INPUT, VARIANTS_INPUT,
# SCENARIOS_INPUT (comma-separated; empty = the profile's "scenarios", else all).
set -euo pipefail

manifest=${MANIFEST:-benchmarks.json}
fail() {
  echo "plan: $*" >&2
  exit 1
}
[[ -f "$manifest" ]] || fail "$manifest not found"
jq empty "$manifest" 2>/dev/null || fail "$manifest is not valid JSON"

all_variants=$(jq -r '[.variants[].name] | join(",")' "$manifest")
all_scenarios=$(jq -r '[.scenarios[].name] | join(",")' "$manifest")

pick() { # pick <requested csv> <available csv> <what> [default csv, else all available]
  local requested=$1 available=$2 what=$3 default=${4:-$2} name
  if [[ -z "$requested" ]]; then
    echo "$default"
    return
  fi
  IFS=, read -ra names <<<"$requested"
  for name in "${names[@]}"; do
    [[ ",$available," == *",$name,"* ]] || fail "unknown $what '$name' (known: $available)"
  done
  echo "$requested"
}

profile=${PROFILE_INPUT:-}
if [[ -z "$profile" ]]; then
  # Pull requests run the A/B comparison, which runs every cell twice: the quick profile keeps it under an hour.
  if [[ "${EVENT_NAME:-}" == pull_request_target ]]; then profile=quick; else profile=full; fi
fi
jq -e --arg p "$profile" '.profiles | has($p)' "$manifest" >/dev/null || fail "unknown profile '$profile'"

# No scenarios asked for: the profile's own list (as ./bench run does), else every scenario.
profile_scenarios=$(jq -r --arg p "$profile" '.profiles[$p].scenarios // [] | join(",")' "$manifest")
variants=$(pick "${VARIANTS_INPUT:-}" "$all_variants" variant)
scenarios=$(pick "${SCENARIOS_INPUT:-}" "$all_scenarios" scenario "${profile_scenarios:-$all_scenarios}")

# A/B runs (pull requests) are never sharded: base and head must share one machine for the drift to cancel.
if [[ "${EVENT_NAME:-}" != pull_request_target ]] && jq -e '.sharding.enabled == true' "$manifest" >/dev/null; then
  matrix=$(jq -c -n --arg v "$variants" '{include: ($v | split(",") | map({shard: ., variants: .}))}')
else
  matrix=$(jq -c -n --arg v "$variants" '{include: [{shard: "all", variants: $v}]}')
fi

out=${GITHUB_OUTPUT:-/dev/stdout}
{
  echo "matrix=$matrix"
  echo "profile=$profile"
  echo "scenarios=$scenarios"
} >>"$out"
echo "plan: profile=$profile scenarios=$scenarios matrix=$matrix" >&2
