#!/usr/bin/env bash
# benchmark-comment.yml, step 3: writes the comment to the pull request, updating in place the one comment this
# repository's bot wrote before (login github-actions[bot], type Bot, body starting with the hidden marker). A
# comment by anyone else that carries the marker is never touched.
# Inputs (environment): PR_NUMBER, COMMENT_FILE, GITHUB_REPOSITORY, GH_TOKEN.
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

repo=${GITHUB_REPOSITORY:?}
pr=${PR_NUMBER:-}
is_pr_number "$pr" || die "PR_NUMBER '$pr' is not a pull request number"
file=${COMMENT_FILE:?}
[[ "$(head -n 1 "$file")" == "$COMMENT_MARKER" ]] || die "$file does not start with the marker"

body=$(mktemp)
trap 'rm -f "$body"' EXIT
# GitHub refuses bodies over 65,536 characters.
jq -n --rawfile text "$file" '{body: (if ($text | length) > 65000
  then ($text[:65000] + "\n\n…truncated; the whole comment is in the job summary of the benchmark run.") else $text end)}' >"$body"

ids=$(gh api --paginate "repos/$repo/issues/$pr/comments?per_page=100" --jq "
  .[] | select(.user.login == \"$COMMENT_BOT\" and .user.type == \"Bot\"
               and (.body | startswith(\"$COMMENT_MARKER\"))) | .id")
ours=${ids%%$'\n'*}
if [[ -n "$ours" ]]; then
  [[ "$ours" =~ ^[0-9]+$ ]] || die "comment id '$ours' is not a number"
  gh api --method PATCH "repos/$repo/issues/comments/$ours" --input "$body" >/dev/null
  echo "comment-post: updated comment $ours on pull request #$pr"
else
  gh api --method POST "repos/$repo/issues/$pr/comments" --input "$body" >/dev/null
  echo "comment-post: created the comment on pull request #$pr"
fi
