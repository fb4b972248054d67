#!/usr/bin/env bash
# Emits what the benchmark job runs, from benchmarks.json and the dispatch inputs, so no variant or scenario is ever
# repeated in workflow YAML. Runs after guard.sh, in the same job (KIND, PR_NUMBER from its outputs).
# Writes to $GITHUB_OUTPUT:
#   matrix=<json>  profile=<name>  scenarios=<csv>  runtimes=<the runtimes the selected variants need, csv>
#   concurrency_group=<name>  cancel_superseded=true|false
#
# Profiles: a push, the nightly and a manual run without a profile run `main` (every variant, sized to fit one job's
# budget on one runner; `full` does not, and the run refuses a plan that cannot fit); a pull request's A/B runs `quick`. The
# variants are the profile's own list (every variant of the manifest when the profile has none, as ./bench run does);
# a manual run's `variants` input narrows that list and is refused when it names a variant outside it, so no input
# ever widens a profile (an A/B of every variant would not finish one round in a pull request's budget).
#
# Without sharding: one job benchmarks every variant (interleaved, as ./bench does locally).
# With "sharding": {"enabled": true}: one job per variant, each on an identical runner of the same hardware class;
# the publish job merges their results. A/B runs (pull requests) are never sharded.
#
# Concurrency: a concurrency group keeps at most ONE pending run and cancels the older pending one, so a group
# shared with any other run can silently drop a main or nightly run. Main runs therefore get a group of their own
# (the workflow adds the shard); only the A/B runs of one pull request share a group, where a newer push cancels
# the older, now pointless, run. The runner itself runs one job at a time, so no group is needed to keep two
# measurements apart.
#
# Inputs (environment): MANIFEST (default benchmarks.json), KIND, PR_NUMBER, GITHUB_RUN_ID, GITHUB_EVENT_NAME and,
# for workflow_dispatch, the inputs profile, variants and scenarios read from $GITHUB_EVENT_PATH (every line of
# them is validated: a line break can never reach $GITHUB_OUTPUT).
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

manifest=${MANIFEST:-benchmarks.json}
[[ -f "$manifest" ]] || die "$manifest not found"
jq empty "$manifest" 2>/dev/null || die "$manifest is not valid JSON"

kind=${KIND:?KIND (guard.sh output) is required}
profile="" variants="" scenarios=""
if [[ "${GITHUB_EVENT_NAME:-}" == workflow_dispatch ]]; then
  profile=$(event .inputs.profile)
  variants=$(event .inputs.variants)
  scenarios=$(event .inputs.scenarios)
fi

# csv <value> <what>: a comma-separated list of manifest names, checked as a whole (bash's =~ anchors ^ and $ at the
# ends of the string, and no character class below matches a line break).
csv() {
  [[ -z "$1" || "$1" =~ ^[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*)*$ ]] ||
    die "$2 '$1' is not a comma-separated list of names ([a-z0-9-], no spaces or line breaks)"
}
csv "$variants" variants
csv "$scenarios" scenarios
# A name twice would measure a variant twice in one shard, or give two shards the same artifact name.
for list in "$variants" "$scenarios"; do
  dup=$(tr , '\n' <<<"$list" | sort | uniq -d | head -n 1)
  [[ -z "$dup" ]] || die "'$dup' is named twice in '$list'"
done
[[ -z "$profile" || "$profile" =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "profile '$profile' is not a profile name"

all_scenarios=$(jq -r '[.scenarios[].name] | join(",")' "$manifest")

pick() { # pick <requested csv> <available csv> <what> <default csv>
  local requested=$1 available=$2 what=$3 default=$4 name
  if [[ -z "$requested" ]]; then
    echo "$default"
    return
  fi
  IFS=, read -ra names <<<"$requested"
  for name in "${names[@]}"; do
    [[ ",$available," == *",$name,"* ]] || die "unknown $what '$name' (known: $available)"
  done
  echo "$requested"
}

if [[ -z "$profile" ]]; then
  # Pull requests run the A/B comparison, which runs every cell twice: the quick profile keeps it under an hour.
  if [[ "$kind" == pr ]]; then profile=quick; else profile=main; fi
fi
jq -e --arg p "$profile" '.profiles | has($p)' "$manifest" >/dev/null || die "unknown profile '$profile'"

# A profile that filters by classification would need the runner's variant filter here: refused rather than guessed.
! jq -e --arg p "$profile" '.profiles[$p] | has("where")' "$manifest" >/dev/null ||
  die "profile '$profile' selects its variants with 'where', which the workflow cannot evaluate; list them instead"
# The profile's own variants and scenarios (as ./bench run does), else every one. The variants input only narrows
# the profile's variants; the scenarios input may name any scenario of the manifest (a scenario adds cells of the same
# variants, which a profile's budget is sized for less than its variants).
profile_variants=$(jq -r --arg p "$profile" '(.profiles[$p].variants // [.variants[].name]) | join(",")' "$manifest")
profile_scenarios=$(jq -r --arg p "$profile" '.profiles[$p].scenarios // [] | join(",")' "$manifest")
all_variants=$(jq -r '[.variants[].name] | join(",")' "$manifest")
variants=$(pick "$variants" "$all_variants" variant "$profile_variants")
IFS=, read -ra names <<<"$variants"
for name in "${names[@]}"; do
  [[ ",$profile_variants," == *",$name,"* ]] ||
    die "variant '$name' is not in profile $profile ($profile_variants): the variants input narrows a profile, it never widens it; choose a profile that holds it (matrix holds every variant)"
done
scenarios=$(pick "$scenarios" "$all_scenarios" scenario "${profile_scenarios:-$all_scenarios}")

# A/B runs are never sharded: base and head must share one machine for the drift to cancel.
# Each shard says which runtimes its variants need (runtimes.sh): the job prints them before it measures.
needs() { "$(dirname "$0")/runtimes.sh" "$1" | paste -sd, -; }
if [[ "$kind" == main ]] && jq -e '.sharding.enabled == true' "$manifest" >/dev/null; then
  shards=()
  for name in "${names[@]}"; do
    shards+=("$(jq -c -n --arg v "$name" --arg r "$(needs "$name")" '{shard: $v, variants: $v, runtimes: $r}')")
  done
  matrix=$(printf '%s\n' "${shards[@]}" | jq -c -s '{include: .}')
else
  matrix=$(jq -c -n --arg v "$variants" --arg r "$(needs "$variants")" '{include: [{shard: "all", variants: $v, runtimes: $r}]}')
fi
runtimes=$(needs "$variants")

if [[ "$kind" == pr ]]; then
  is_pr_number "${PR_NUMBER:-}" || die "PR_NUMBER '${PR_NUMBER:-}' is not a pull request number"
  group="benchmark-pr-$PR_NUMBER" cancel=true
else
  [[ "${GITHUB_RUN_ID:-}" =~ ^[0-9]+$ ]] || die "GITHUB_RUN_ID '${GITHUB_RUN_ID:-}' is not a run id"
  group="benchmark-run-$GITHUB_RUN_ID" cancel=false
fi

out matrix "$matrix"
out profile "$profile"
out scenarios "$scenarios"
out runtimes "$runtimes"
out concurrency_group "$group"
out cancel_superseded "$cancel"
echo "plan: kind=$kind profile=$profile scenarios=$scenarios runtimes=$runtimes matrix=$matrix group=$group" >&2
