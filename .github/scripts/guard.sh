#!/usr/bin/env bash
# Decides whether an event may run code on the self-hosted benchmark runner, and which code. Reads the event GitHub
# wrote ($GITHUB_EVENT_NAME, $GITHUB_EVENT_PATH, $GITHUB_REF, $GITHUB_SHA, $GITHUB_REPOSITORY) and writes to
# $GITHUB_OUTPUT:
#   run=true|false   kind=main|pr   reason=<text>   publish=true|false (main runs of the main branch only)
#   pr=<number>      head_sha=<40 hex>   (pull-request A/B only: the one commit whose variants are measured)
#
# Policy (docs/ci.md):
#   - push to main, the nightly schedule and a manual dispatch without `pr` run the benchmark (kind main);
#   - a pull request from this repository runs the A/B on every push (opened, synchronize, reopened);
#   - a pull request from a fork never runs by itself. A maintainer reviews one commit and approves exactly that
#     commit with `gh workflow run benchmark.yml --ref main -f pr=<number> -f sha=<full sha>` (dispatching needs
#     write access); the run refuses unless that commit is still the pull request's head, and it checks out that
#     SHA, never a branch name, so a push after the review is never run under the approval.
# The harness (./bench, benchmarks.json, Gatling) is always the base revision's; only the variants come from the PR.
#
# This script is read from main (pull_request_target and workflow_dispatch on main run main's workflow file), so a
# pull request cannot change the policy that judges it. Dispatch approvals query the pull request with `gh api`
# (GH_TOKEN, pull-requests: read).
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

run=false
kind=main
publish=false
reason=""
pr=""
head_sha=""
main_ref="refs/heads/$MAIN_BRANCH"
event_name=${GITHUB_EVENT_NAME:-}

is_sha "${GITHUB_SHA:-}" || die "GITHUB_SHA '${GITHUB_SHA:-}' is not a commit SHA"

case "$event_name" in
  push)
    if [[ "${GITHUB_REF:-}" == "$main_ref" ]]; then
      run=true publish=true reason="push to $MAIN_BRANCH"
    else
      reason="push to ${GITHUB_REF:-?}: only $MAIN_BRANCH is benchmarked"
    fi
    ;;
  schedule)
    # Scheduled runs always run on the default branch's newest commit ($GITHUB_SHA).
    run=true publish=true reason="nightly schedule"
    ;;
  workflow_dispatch)
    pr=$(event .inputs.pr)
    head_sha=$(event .inputs.sha)
    if [[ -z "$pr" && -z "$head_sha" ]]; then
      run=true reason="manual run"
      if [[ "${GITHUB_REF:-}" == "$main_ref" ]]; then
        publish=true
      else
        reason="manual run on ${GITHUB_REF:-?} (not published: only $MAIN_BRANCH's runs enter the history)"
      fi
    else
      # A maintainer's approval of one reviewed commit of a pull request. Anything malformed fails the run loudly.
      kind="pr"
      is_pr_number "$pr" || die "input pr='$pr' is not a pull request number"
      is_sha "$head_sha" || die "input sha='$head_sha' is not a full 40-character commit SHA (abbreviations are ambiguous)"
      [[ "${GITHUB_REF:-}" == "$main_ref" ]] ||
        die "dispatch pull-request A/B runs from $MAIN_BRANCH (--ref $MAIN_BRANCH): its harness judges the pull request"
      why=$(pull_request_at "$pr" "$head_sha")
      [[ -z "$why" ]] || die "$why; a maintainer reviews the pull request's current head and approves that commit"
      run=true reason="pull request #$pr at $head_sha, approved by $(event .sender.login) (workflow_dispatch)"
    fi
    ;;
  pull_request_target)
    kind="pr"
    pr=$(event .pull_request.number)
    head_sha=$(event .pull_request.head.sha)
    action=$(event .action)
    base_ref=$(event .pull_request.base.ref)
    repo_id=$(event .repository.id)
    head_repo_id=$(event .pull_request.head.repo.id)
    if ! is_pr_number "$pr" || ! is_sha "$head_sha"; then
      reason="pull request event without a number or head SHA"
    elif [[ "$base_ref" != "$MAIN_BRANCH" ]]; then
      reason="pull request #$pr targets '$base_ref': only pull requests into $MAIN_BRANCH are benchmarked"
    elif [[ -z "$repo_id" || "$head_repo_id" != "$repo_id" ]]; then
      reason="pull request #$pr comes from a fork: a maintainer reviews a commit and approves exactly that commit"
      summary "**Fork pull request #$pr** is not benchmarked automatically. After reviewing commit \`$head_sha\`, a maintainer runs:"
      summary ""
      summary "    gh workflow run benchmark.yml --ref $MAIN_BRANCH -f pr=$pr -f sha=$head_sha"
    else
      case "$action" in
        opened | synchronize | reopened)
          run=true reason="pull request #$pr from this repository ($action)"
          ;;
        *)
          reason="pull request #$pr from this repository: '$action' does not change code"
          ;;
      esac
    fi
    ;;
  *)
    reason="event '$event_name' never runs on the benchmark runner"
    ;;
esac

if [[ "$run" != true ]]; then
  pr="" head_sha=""
fi
out run "$run"
out kind "$kind"
out publish "$publish"
out pr "$pr"
out head_sha "$head_sha"
out reason "$reason"
echo "guard: run=$run kind=$kind publish=$publish${pr:+ pr=#$pr}${head_sha:+ head=$head_sha} ($reason)" >&2
