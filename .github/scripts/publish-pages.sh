#!/usr/bin/env bash
# publish job: the one writer of gh-pages. Appends the run to the history in the gh-pages worktree at $1 and pushes,
# retrying on a rejected push: two publish jobs never wait for each other in a concurrency group (a group keeps only
# one pending run and would cancel the other), they race here, and the loser starts again from the new gh-pages.
# Every step is idempotent, so a retry or a re-run of the job never duplicates anything:
#   - `./bench history append` is the only writer of dev/bench/data.js (github-action-benchmark's exact format) and
#     of our run records; appending a run already present changes nothing;
#   - site/history-archive.mjs keeps data.js bounded (the newest $HISTORY_KEEP entries per suite) by moving older
#     entries, unchanged, to dev/bench/archive/YYYY-MM.json; nothing is deleted, and the site's pack (site/pack.mjs)
#     still draws the whole history;
#   - dev/bench/index.html, the dashboard github-action-benchmark wrote when it pushed itself, is removed: the site
#     at the root is the one dashboard;
#   - site/publish.mjs copies the site and packs the history.
# First use: when origin has no gh-pages (a new repository), the worktree becomes an empty orphan branch gh-pages
# (no commit of main, none of its files) and the push creates it. A push never forces: should another writer create
# gh-pages meanwhile, the push is rejected and the next attempt starts from theirs.
# The worktree may hold any checkout of this repository made with a token that may push (the workflow checks out
# the run's own commit, which always exists, unlike gh-pages): every attempt first makes it origin's gh-pages
# exactly, and `--prepare` does only that, pushing nothing, so that alert-input.sh reads the history as it is.
# usage: publish-pages.sh <gh-pages worktree> <merged results dir>
#        publish-pages.sh --prepare <gh-pages worktree>
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
(($# == 2)) || die "usage: publish-pages.sh <gh-pages worktree> <merged results dir> | --prepare <gh-pages worktree>"
prepare=false
if [[ "$1" == --prepare ]]; then
  prepare=true
  shift
fi
pages=$1
results=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
keep=${HISTORY_KEEP:-200}

# Every file of the worktree not in gh-pages is deleted: it must be a repository of its own, never this checkout.
[[ -d "$pages" && "$(git -C "$pages" rev-parse --show-toplevel 2>/dev/null)" == "$(cd "$pages" && pwd -P)" ]] ||
  die "$pages is not the top of a git worktree"
[[ "$(cd "$pages" && pwd -P)" != "$(cd "$root" && pwd -P)" ]] || die "$pages is this checkout, not a gh-pages worktree"

# to_gh_pages: the worktree becomes origin's gh-pages (its newest commit only: the history is never rewritten, so
# nothing older is needed), or, when origin has none, an empty orphan branch gh-pages: no commit, empty index, no
# file. Nothing else survives, not even an ignored file.
to_gh_pages() {
  local found=0
  git -C "$pages" ls-remote --quiet --exit-code --heads origin refs/heads/gh-pages >/dev/null || found=$?
  case $found in
    0)
      git -C "$pages" fetch --quiet --depth=1 origin +refs/heads/gh-pages:refs/remotes/origin/gh-pages
      git -C "$pages" checkout --quiet --force -B gh-pages refs/remotes/origin/gh-pages
      ;;
    2) # git ls-remote --exit-code: no such branch
      echo "publish: origin has no gh-pages yet: starting it as an empty orphan branch"
      git -C "$pages" update-ref -d refs/heads/gh-pages
      git -C "$pages" symbolic-ref HEAD refs/heads/gh-pages
      git -C "$pages" read-tree --empty
      ;;
    *) die "cannot list origin's branches (git ls-remote exited with $found)" ;;
  esac
  git -C "$pages" clean --quiet --force -d -x
}

if [[ "$prepare" == true ]]; then
  to_gh_pages
  exit 0
fi

published=false
for attempt in 1 2 3 4 5; do
  to_gh_pages
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
