#!/usr/bin/env bash
# Decides whether an event may run code on the self-hosted benchmark runner. Writes run=true|false, kind=main|pr
# and a reason to $GITHUB_OUTPUT (stdout when unset).
#
# Policy (README "Continuous benchmarking"):
#   - push to main, the nightly schedule and manual dispatch run;
#   - pull requests from this repository run on every push;
#   - pull requests from forks run only when a maintainer applies the approval label (the `labeled` event itself:
#     a later push to the fork does not run until a maintainer applies the label again, after reading the new code).
#
# This script is read from the base branch (pull_request_target checks out the base by default), so a pull request
# cannot change the policy that judges it.
# Inputs (environment): EVENT_NAME, EVENT_ACTION, REPOSITORY, PR_HEAD_REPO, LABEL_NAME, APPROVE_LABEL.
set -euo pipefail

approve_label=${APPROVE_LABEL:-benchmark:approved}
run=false
kind=main
reason=""

case "${EVENT_NAME:-}" in
  push | schedule | workflow_dispatch)
    run=true
    reason="$EVENT_NAME"
    ;;
  pull_request_target)
    kind="pr"
    if [[ -z "${PR_HEAD_REPO:-}" || -z "${REPOSITORY:-}" ]]; then
      reason="pull request without head repository information"
    elif [[ "$PR_HEAD_REPO" == "$REPOSITORY" ]]; then
      case "${EVENT_ACTION:-}" in
        opened | synchronize | reopened)
          run=true
          reason="pull request from this repository"
          ;;
        *)
          reason="pull request from this repository: '${EVENT_ACTION:-}' does not change code"
          ;;
      esac
    elif [[ "${EVENT_ACTION:-}" == labeled && "${LABEL_NAME:-}" == "$approve_label" ]]; then
      run=true
      reason="fork pull request approved by a maintainer with the '$approve_label' label"
    else
      reason="fork pull request: waits for a maintainer to apply the '$approve_label' label"
    fi
    ;;
  *)
    reason="event '${EVENT_NAME:-}' never runs on the benchmark runner"
    ;;
esac

out=${GITHUB_OUTPUT:-/dev/stdout}
{
  echo "run=$run"
  echo "kind=$kind"
  echo "reason=$reason"
} >>"$out"
echo "guard: run=$run ($reason)" >&2
