#!/usr/bin/env bash
# The runner's job-started hook on a benchmark host (ACTIONS_RUNNER_HOOK_JOB_STARTED in the runner's .env, set by
# provision.sh): it runs on the host before the first step of every job this runner takes, from a root-owned copy
# the job cannot change, and
#   1. refuses every job that is not the `benchmark` job of main's .github/workflows/benchmark.yml in this host's
#      repository, started by one of that workflow's own events. A fork's pull_request run uses the fork's workflow
#      files and can ask for `runs-on: [self-hosted, bench]`; a branch can carry its own copy of benchmark.yml; a
#      repository-level runner has no setting that keeps either off this machine, so the host does. A non-zero exit
#      fails the job before any step runs;
#   2. cleans up what an earlier job left (runner-cleanup.sh start), before the job's checkout.
# The identity comes from the runner's own GITHUB_* variables, which a workflow cannot override; the repository from
# host.conf next to this script (REPOSITORY=owner/name), written by provision.sh.
set -euo pipefail
here=$(dirname "$(realpath "$0")")

refuse() {
  echo "::error::restbench host: refusing this job: $*. This machine runs only the benchmark job of main's .github/workflows/benchmark.yml (docs/runner-host.md)." >&2
  exit 1
}

repository=$(sed -n 's/^REPOSITORY=\([A-Za-z0-9_.-]*\/[A-Za-z0-9_.-]*\)$/\1/p' "$here/host.conf" 2>/dev/null || true)
[[ -n "$repository" ]] || refuse "$here/host.conf names no REPOSITORY=owner/name (run provision.sh)"

[[ "${GITHUB_REPOSITORY:-}" == "$repository" ]] ||
  refuse "repository '${GITHUB_REPOSITORY:-}' is not $repository"
want_ref="$repository/.github/workflows/benchmark.yml@refs/heads/main"
[[ "${GITHUB_WORKFLOW_REF:-}" == "$want_ref" ]] ||
  refuse "workflow '${GITHUB_WORKFLOW_REF:-}' is not $want_ref"
case "${GITHUB_EVENT_NAME:-}" in
  push | schedule | workflow_dispatch | pull_request_target) ;;
  *) refuse "event '${GITHUB_EVENT_NAME:-}' does not start a benchmark" ;;
esac
[[ "${GITHUB_JOB:-}" == benchmark ]] || refuse "job '${GITHUB_JOB:-}' is not the benchmark job"

echo "restbench host: $GITHUB_WORKFLOW_REF ($GITHUB_EVENT_NAME, job $GITHUB_JOB) accepted"
exec "$here/runner-cleanup.sh" start
