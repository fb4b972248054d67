#!/usr/bin/env bash
# publish job: the one writer of gh-pages. Appends the run to the history in the gh-pages worktree at $1 and pushes,
# retrying on a non-fast-forward push: two publish jobs never wait for each other in a concurrency group (a group
# keeps only one pending run and would cancel the other), they race here, and the loser starts again from the new
# gh-pages. Every step is idempotent, so a retry or a re-run of the job never duplicates anything:
#   - `./bench history append` is the only writer of dev/bench/data.js (github-action-benchmark's exact format) and
#     of our run records; appending a run already present changes nothing;
#   - site/history-archive.mjs keeps data.js bounded (the newest $HISTORY_KEEP entries per suite) by moving older
#     entries, unchanged, to dev/bench/archive/YYYY-MM.json; nothing is deleted, and the site's pack (site/pack.mjs)
#     still draws the whole history;
#   - dev/bench/index.html, the dashboard github-action-benchmark wrote when it pushed itself, is removed: the site
#     at the root is the one dashboard;
#   - site/publish.mjs copies the site and packs the history.
# usage: publish-pages.sh <gh-pages worktree, checked out with a token that may push> <merged results dir>
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
(($# == 2)) || die "usage: publish-pages.sh <gh-pages worktree> <merged results dir>"
pages=$1
results=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
keep=${HISTORY_KEEP:-200}

published=false
for attempt in 1 2 3 4 5; do
  git -C "$pages" fetch --quiet origin gh-pages
  git -C "$pages" reset --quiet --hard origin/gh-pages
  BENCH_SKIP_BUILD=1 "${BENCH:-$root/bench}" history append --history "$pages" "$results"
  node "$root/site/history-archive.mjs" "$pages" --keep "$keep"
  rm -f "$pages/dev/bench/index.html"
  node "$root/site/publish.mjs" "$pages"
  git -C "$pages" add -A
  if git -C "$pages" diff --cached --quiet; then
    echo "publish: nothing to publish (the run is already in the history)"
    published=true
    break
  fi
  git -C "$pages" -c user.name="github-actions[bot]" \
    -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
    commit --quiet -m "Publish benchmark run $(jq -r .runId "$results/run.json") of ${GITHUB_SHA:-local}"
  if git -C "$pages" push --quiet origin HEAD:gh-pages; then
    echo "publish: pushed on attempt $attempt"
    published=true
    break
  fi
  echo "publish: push rejected (attempt $attempt), starting again from the new gh-pages" >&2
  sleep $((attempt * 3))
done
[[ "$published" == true ]] || die "gave up after 5 attempts"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" && -f "$results/summary.md" ]]; then
  cat "$results/summary.md" >>"$GITHUB_STEP_SUMMARY"
fi
