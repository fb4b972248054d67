#!/usr/bin/env bash
# The benchmark of a main, nightly or manual run: ./bench run of the checked-out commit (the workflow checks out
# $GITHUB_SHA) for this shard's variants. A variant whose runtime this host lacks (host-check.sh named it) is recorded
# with its cells not measured and the reason, and the others are measured and published: one missing runtime never loses
# the run. The variants build and run as the host's service user when it has one (lib.sh's service_user). Inputs
# (environment): PROFILE, VARIANTS, SCENARIOS, SHARD, BUDGET_MINUTES (the time the job leaves for the run: a plan that
# cannot fit it is refused at once, exit 2); RESTBENCH_SERVICE_USER from the runner's .env.
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
private_maven main
service_user || true
"${BENCH:-./bench}" run --profile "${PROFILE:?}" --variants "${VARIANTS:?}" --scenarios "${SCENARIOS:?}" \
  --missing-runtimes record --budget-minutes "${BUDGET_MINUTES:?}" --results "results/shard-${SHARD:?}"
