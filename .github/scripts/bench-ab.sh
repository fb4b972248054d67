#!/usr/bin/env bash
# The A/B of a pull request, and the only call site of `./bench ab`.
#
# The harness is this checkout: the run's $GITHUB_SHA, i.e. main's commit (pull_request_target and a dispatch on main
# both check out main), so ./bench, benchmarks.json, the Gatling simulations and the verdict code are main's. Only
# the variants come from the pull request: `./bench ab` builds the variant modules of two git worktrees, the merge
# base of main and the head, and the head itself, which the workflow checked out by SHA in $PR_HEAD_DIR.
#
# Measures only the profile's variants the head changes (./bench ab --measure changed, the default: build inputs or
# manifest entry; all of them after a harness change). A head that changes none writes pr-ab/scope.json instead of a
# run record, and the comment says there was nothing to measure.
# Writes pr-ab/run.json and pr-ab/ab.json (the interleaved run record and the design it was measured under: the data
# benchmark-comment.yml judges again with main's code, ./bench ab --from; this
# job's own rendering, pr-ab/comment.md, only feeds the job summary) and the job summary.
# --flamegraphs: the first round profiles every cell on both sides (one extra >= 10 s window each, no published figure
# from it) and writes base <-> head pages under results/ab/results/<run-id>/flamegraphs/ab/, which the comment names
# for every series that changed; the results-* artifact carries them.
# The pull request's code runs only as the host's service user (RESTBENCH_SERVICE_USER, see lib.sh's service_user):
# its builds (its poms and plugins, npm ci) and its services can neither write pr-ab/ and results/ nor read this job's
# processes. A host without one is named in a warning: there the record is only as good as the code it measured.
# Inputs (environment): HEAD_SHA, GITHUB_SHA, PROFILE, VARIANTS, SCENARIOS, PR_HEAD_DIR (default pr-head);
# RESTBENCH_SERVICE_USER from the runner's .env.
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

is_sha "${HEAD_SHA:-}" || die "HEAD_SHA '${HEAD_SHA:-}' is not a commit SHA"
is_sha "${GITHUB_SHA:-}" || die "GITHUB_SHA '${GITHUB_SHA:-}' is not a commit SHA"
head_dir=${PR_HEAD_DIR:-pr-head}
[[ "$(git rev-parse HEAD)" == "$GITHUB_SHA" ]] || die "the harness checkout is not at $GITHUB_SHA"
[[ "$(git -C "$head_dir" rev-parse HEAD)" == "$HEAD_SHA" ]] || die "$head_dir is not at the approved $HEAD_SHA"

# The head's history into the harness repository (a local fetch: no network, no credentials).
git fetch --quiet --no-tags "$head_dir" HEAD
[[ "$(git rev-parse FETCH_HEAD)" == "$HEAD_SHA" ]] || die "fetched $(git rev-parse FETCH_HEAD), expected $HEAD_SHA"
base=$(git merge-base "$GITHUB_SHA" "$HEAD_SHA") || die "$HEAD_SHA shares no history with $GITHUB_SHA"
echo "bench-ab: harness $GITHUB_SHA, base (merge base) $base, head $HEAD_SHA" >&2

private_maven pr
service_user || echo "::warning::this host has no service user (RESTBENCH_SERVICE_USER; .github/host/provision.sh makes one): the pull request's builds and services run as the runner's user and could rewrite their own A/B record"
rm -rf pr-ab results/ab
mkdir -p pr-ab
status=0
"${BENCH:-./bench}" ab --base "$base" --head "$HEAD_SHA" --profile "${PROFILE:?}" --variants "${VARIANTS:?}" \
  --scenarios "${SCENARIOS:?}" --workdir results/ab --output pr-ab/comment.md --flamegraphs || status=$?

# A head that changes no variant of the profile and not the harness: ./bench ab measured nothing and said so.
[[ ! -f results/ab/scope.json ]] || cp results/ab/scope.json pr-ab/scope.json
runs=()
if [[ -d results/ab/results ]]; then
  mapfile -t runs < <(find results/ab/results -name run.json)
fi
if ((${#runs[@]} == 1)); then
  cp "${runs[0]}" pr-ab/run.json
  design=$(dirname "${runs[0]}")/ab.json
  [[ ! -f "$design" ]] || cp "$design" pr-ab/ab.json
elif ((${#runs[@]} > 1)); then
  die "more than one run record under results/ab/results: ${runs[*]}"
fi
if [[ -f pr-ab/comment.md && -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  cat pr-ab/comment.md >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
