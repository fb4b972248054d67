#!/usr/bin/env bash
# The runner's job-started hook on a benchmark host (ACTIONS_RUNNER_HOOK_JOB_STARTED in the runner's .env, set by
# provision.sh): the runner runs it (`bash -e <this file>`) before the first step of every job it takes, from a
# root-owned copy the job cannot change, and
#   1. refuses every job that is not the `benchmark` job of main's .github/workflows/benchmark.yml in this host's
#      repository, started by one of that workflow's own events, and for pull_request_target only from this
#      repository's own branches. A fork's pull_request run uses the fork's workflow files and can ask for
#      `runs-on: [self-hosted, bench]`; a branch can carry its own copy of benchmark.yml; a repository-level runner has
#      no setting that keeps either off this machine, so the host does;
#   2. cleans up what an earlier job left (runner-cleanup.sh start), before the job's checkout.
#
# A failing hook only fails its own "Set up runner" step: the runner still runs the job's `if: always()` steps and its
# actions' `pre:` scripts (actions/runner JobExtension adds the hook as an ordinary always() step; StepsRunner goes
# on). So a refusal also ends the job's Runner.Worker, this script's parent, with SIGKILL before any other step: the
# listener then records the job as failed ("the runner worker crashed") and takes the next one.
#
# The identity comes from the runner's own GITHUB_* variables, which a workflow cannot set for a hook (the hook gets
# the github and runner contexts only, not the job's env:). The host's settings come from host.conf next to this
# script, written by provision.sh: REPOSITORY=owner/name, and CLEANUP=no where every job gets a fresh container
# (actions-runner-controller: there HOME is the runner's own directory, and nothing of an earlier job is left).
set -euo pipefail
here=$(dirname "$(realpath "$0")")

refuse() {
  echo "::error::restbench host: refusing this job: $*. This machine runs only the benchmark job of main's .github/workflows/benchmark.yml (docs/runner-host.md)." >&2
  # Only the runner's own worker: run any other way (the tests, by hand) nothing but this script ends.
  local worker=${PPID:-0}
  if [[ "$worker" =~ ^[0-9]+$ ]] && ((worker > 1)) && [[ "$(cat "/proc/$worker/comm" 2>/dev/null)" == Runner.Worker ]]; then
    echo "restbench host: ending this job's runner worker ($worker) so that no step of it runs" >&2
    kill -KILL "$worker" 2>/dev/null || true
  fi
  exit 1
}

conf() { # conf <key> <pattern>: the value of <key> in host.conf when it matches <pattern> as a whole, else nothing
  sed -n "s|^$1=\\($2\\)\$|\\1|p" "$here/host.conf" 2>/dev/null | tail -n 1 || true
}
repository=$(conf REPOSITORY '[A-Za-z0-9_.-]*/[A-Za-z0-9_.-]*')
[[ -n "$repository" ]] || refuse "$here/host.conf names no REPOSITORY=owner/name (run provision.sh)"

[[ "${GITHUB_REPOSITORY:-}" == "$repository" ]] ||
  refuse "repository '${GITHUB_REPOSITORY:-}' is not $repository"
want_ref="$repository/.github/workflows/benchmark.yml@refs/heads/main"
[[ "${GITHUB_WORKFLOW_REF:-}" == "$want_ref" ]] ||
  refuse "workflow '${GITHUB_WORKFLOW_REF:-}' is not $want_ref"
case "${GITHUB_EVENT_NAME:-}" in
  push | schedule | workflow_dispatch) ;;
  pull_request_target)
    # The workflow's guard refuses a fork's pull request (a maintainer approves one commit by a dispatch instead);
    # the host refuses it too, from the event GitHub wrote.
    head=$(jq -r '.pull_request.head.repo.id // "none"' "${GITHUB_EVENT_PATH:-/nonexistent}" 2>/dev/null || echo none)
    base=$(jq -r '.repository.id // "none"' "${GITHUB_EVENT_PATH:-/nonexistent}" 2>/dev/null || echo none)
    [[ "$head" != none && "$head" == "$base" ]] ||
      refuse "a pull_request_target run whose head is not a branch of $repository (head repository id $head)"
    ;;
  *) refuse "event '${GITHUB_EVENT_NAME:-}' does not start a benchmark" ;;
esac
[[ "${GITHUB_JOB:-}" == benchmark ]] || refuse "job '${GITHUB_JOB:-}' is not the benchmark job"

echo "restbench host: $GITHUB_WORKFLOW_REF ($GITHUB_EVENT_NAME, job $GITHUB_JOB) accepted"
if [[ "$(conf CLEANUP 'no')" == no ]]; then
  echo "restbench host: no cleanup (host.conf: CLEANUP=no, a fresh runner per job)"
  exit 0
fi
exec "$here/runner-cleanup.sh" start
