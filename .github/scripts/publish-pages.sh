#!/usr/bin/env bash
# Publishes the site, our run records and the change-point analysis to the gh-pages worktree at $1 and pushes,
# retrying on a non-fast-forward push (github-action-benchmark pushes to the same branch just before us).
# Usage: publish-pages.sh <gh-pages worktree> <merged results dir>
set -euo pipefail
pages=$1
results=$2
root=$(cd "$(dirname "$0")/../.." && pwd)

for attempt in 1 2 3 4 5; do
  git -C "$pages" fetch --quiet origin gh-pages
  git -C "$pages" reset --quiet --hard origin/gh-pages
  # data.js belongs to github-action-benchmark (it appended this commit just before); we add our records,
  # latest.json, analysis.json and the site (publish.mjs also packs data.js per chart for fast first loads).
  "$root/bench" history append --skip-data-js --history "$pages" "$results"
  node "$root/site/publish.mjs" "$pages"
  git -C "$pages" add -A
  if git -C "$pages" diff --cached --quiet; then
    echo "publish: nothing to publish"
    exit 0
  fi
  git -C "$pages" -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
    commit --quiet -m "Publish benchmark site and records for ${GITHUB_SHA:-local}"
  if git -C "$pages" push --quiet origin HEAD:gh-pages; then
    echo "publish: pushed on attempt $attempt"
    exit 0
  fi
  echo "publish: push rejected (attempt $attempt), rebasing on the new gh-pages" >&2
  sleep $((attempt * 3))
done
echo "publish: gave up after 5 attempts" >&2
exit 1
