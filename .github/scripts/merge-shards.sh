#!/usr/bin/env bash
# publish job, step 1: builds main's runner (only the runner module and what it needs: the publish job never builds
# or runs a variant) and merges the shards' results into one run. Main runs only: every shard ran main's code.
# usage: merge-shards.sh <downloaded shards dir> <merged results dir>
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
(($# == 2)) || die "usage: merge-shards.sh <shards dir> <merged results dir>"
# A benchmark job that wrote no run (a plan refused for its budget, a runtime check that stopped it) leaves nothing to
# publish: say so here rather than in the merge's own words.
[[ -n "$(find "$1" -name run.json -print -quit 2>/dev/null)" ]] ||
  die "no shard wrote a run.json: the benchmark job measured nothing (its log says why); nothing to publish"
if [[ -z "${BENCH:-}" ]]; then
  ./mvnw -B -q -ntp package -DskipTests -pl runner -am
fi
BENCH_SKIP_BUILD=1 "${BENCH:-./bench}" merge --out "$2" "$1"
