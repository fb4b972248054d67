#!/usr/bin/env bash
# The benchmark of a main, nightly or manual run: ./bench run of the checked-out commit (the workflow checks out
# $GITHUB_SHA) for this shard's variants. Inputs (environment): PROFILE, VARIANTS, SCENARIOS, SHARD.
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
private_maven main
"${BENCH:-./bench}" run --profile "${PROFILE:?}" --variants "${VARIANTS:?}" --scenarios "${SCENARIOS:?}" \
  --results "results/shard-${SHARD:?}"
