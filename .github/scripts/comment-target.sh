#!/usr/bin/env bash
# benchmark-comment.yml, step 1: which pull request and commit a finished benchmark run is about, and whether there
# is anything to post. Trusts only what pull-request code cannot write:
#   - the run's display title, set by benchmark.yml's `run-name` from the event before any job ran:
#     "benchmark PR #<number> @ <head sha>" (pull_request_target: the pull request's number and head; dispatch: the
#     maintainer's pr and sha inputs). NOT workflow_run.head_sha: for a pull_request_target run that is main's
#     commit, never the pull request's head;
#   - the run's event, workflow file, branch and conclusion, and the GitHub API.
# The artifact is data written by a job that ran pull-request code; it is only downloaded here.
# Writes to $GITHUB_OUTPUT: act=results|nothing|failed|skip, pr, sha (the benchmarked head), base (its merge base with the
# harness commit, from the API), dir (the downloaded artifact), run_url, reason.
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

repo=${GITHUB_REPOSITORY:?}
run_event=$(event .workflow_run.event)
run_path=$(event .workflow_run.path)
run_branch=$(event .workflow_run.head_branch)
conclusion=$(event .workflow_run.conclusion)
title=$(event .workflow_run.display_title)
run_id=$(event .workflow_run.id)
harness=$(event .workflow_run.head_sha)
run_url=$(event .workflow_run.html_url)

skip() {
  out act skip
  out reason "$1"
  echo "comment-target: nothing to post: $1" >&2
  exit 0
}

# (Some payloads add "@<ref>" to the path.)
[[ "${run_path%%@*}" == .github/workflows/benchmark.yml ]] || skip "run of '$run_path', not .github/workflows/benchmark.yml"
case "$run_event" in
  pull_request_target) ;;
  workflow_dispatch)
    [[ "$run_branch" == "$MAIN_BRANCH" ]] || skip "dispatched on '$run_branch': only $MAIN_BRANCH's harness judges pull requests"
    ;;
  *) skip "a $run_event run has no pull request to comment on" ;;
esac
title_pattern='^benchmark PR #([1-9][0-9]{0,9}) @ ([0-9a-f]{40})$'
[[ "$title" =~ $title_pattern ]] || skip "the run's title does not name a pull request and commit"
pr=${BASH_REMATCH[1]}
sha=${BASH_REMATCH[2]}
[[ "$run_id" =~ ^[0-9]+$ ]] || die "workflow_run.id '$run_id' is not a run id"
is_sha "$harness" || die "workflow_run.head_sha '$harness' is not a commit SHA"
[[ "$run_url" =~ ^https://[A-Za-z0-9./_-]+$ ]] || die "workflow_run.html_url '$run_url' is not a plain https URL"
case "$conclusion" in
  success | failure) ;;
  *) skip "the run for pull request #$pr ended '$conclusion'" ;;
esac

# Only while the pull request's head is still the benchmarked commit: an older run's verdict never replaces a newer one.
why=$(pull_request_at "$pr" "$sha")
[[ -z "$why" ]] || skip "$why"

dir=${RUNNER_TEMP:?}/pr-ab
rm -rf "$dir"
act=""
if gh run download "$run_id" --repo "$repo" --name pr-ab --dir "$dir" && [[ -f "$dir/run.json" ]]; then
  act=results
elif [[ "$conclusion" == success && -f "$dir/scope.json" ]] && jq -e '.measured == []' "$dir/scope.json" >/dev/null 2>&1; then
  # ./bench ab found no variant of the profile changed and the harness unchanged: it measured nothing, on purpose.
  act=nothing
elif [[ "$conclusion" == failure ]]; then
  act=failed
else
  skip "run $run_id for pull request #$pr left no A/B results (its benchmark job did not run)"
fi
base=""
if [[ "$act" == results ]]; then
  base=$(gh api "repos/$repo/compare/$harness...$sha" --jq .merge_base_commit.sha) || base=""
  is_sha "$base" || base=$harness
fi

out act "$act"
out pr "$pr"
out sha "$sha"
out base "$base"
out dir "$dir"
out run_url "$run_url"
out reason "run $run_id benchmarked pull request #$pr at $sha ($conclusion)"
echo "comment-target: $act for pull request #$pr at $sha (run $run_id, $conclusion)" >&2
