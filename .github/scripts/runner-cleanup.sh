#!/usr/bin/env bash
# Cleanup for a PERSISTENT self-hosted runner, run by the benchmark job as its first step after the (pinned, by-SHA)
# checkout and again as its last step, also when the job failed or was cancelled. An ephemeral runner
# (docs/runner-host.md, the default) starts every job from a fresh user and needs none of this; there it is harmless.
#
# What approved pull-request code may leave behind, and what would then bias or taint later main measurements:
#   1. processes: every process of the runner's user except this script's own ancestors (the runner's listener,
#      worker and the step's shell) gets SIGTERM, then SIGKILL, until none is left;
#   2. $HOME: every entry (~/.m2, ~/.cache, ~/.java, ~/.gitconfig, ~/.mavenrc, ...) except one that holds the
#      runner itself or the job's workspace;
#   3. temporary files: every entry owned by this user in /tmp, /var/tmp, /dev/shm and $TMPDIR;
#   4. the tool cache ($RUNNER_TOOL_CACHE: the JDK setup-java installs), so a modified JDK is never reused;
#   5. the user's crontab.
# It cannot restore the runner's own directory (its binaries, downloaded actions): a determined pull request can
# change those, which is why docs/runner-host.md makes the ephemeral runner the default.
#
# usage: runner-cleanup.sh start|end
# Environment: HOME, RUNNER_TOOL_CACHE, RUNNER_WORKSPACE, GITHUB_WORKSPACE, RUNNER_TEMP (set by the runner);
# RUNNER_CLEANUP_TMP overrides the temporary directories (space-separated; the tests use their own).
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

phase=${1:-start}
uid=$(id -u)
((uid != 0)) || die "refusing to run as root: it would signal every root process (run the runner as its own user)"

# Paths that must survive: the runner's installation (two levels above its _work/<repo> directory) and the job's
# own directories. An entry is kept when one of them lies inside it.
protected=()
for path in "${RUNNER_WORKSPACE:-}" "${GITHUB_WORKSPACE:-}" "${RUNNER_TEMP:-}"; do
  [[ -n "$path" ]] && protected+=("$(realpath -m "$path")")
done
if [[ -n "${RUNNER_WORKSPACE:-}" ]]; then
  protected+=("$(realpath -m "$RUNNER_WORKSPACE/../..")")
fi
keeps() { # keeps <entry>: true when a protected path is the entry or lies inside it
  local entry p
  entry=$(realpath -m "$1")
  for p in "${protected[@]}"; do
    [[ "$p" == "$entry" || "$p" == "$entry"/* ]] && return 0
  done
  return 1
}

# 1. Processes. The ancestors of this shell are the runner and this step; everything else of this user is left over.
# Only shell builtins below: listing must not start processes that would then be listed themselves.
ancestors=" "
pid=$$
while [[ "$pid" =~ ^[0-9]+$ ]] && ((pid > 1)); do
  ancestors+="$pid "
  parent=0
  while read -r key value _ && [[ "$key" != PPid: ]]; do :; done <"/proc/$pid/status" && parent=$value
  pid=$parent
done
victims=()
leftovers() {
  local dir
  victims=()
  for dir in /proc/[0-9]*; do
    [[ -O "$dir" && "$ancestors" != *" ${dir#/proc/} "* ]] && victims+=("${dir#/proc/}")
  done
  return 0
}
killed=0
for signal in TERM KILL KILL KILL; do
  leftovers
  ((${#victims[@]} > 0)) || break
  if [[ "$signal" == TERM ]]; then
    killed=${#victims[@]}
    ps -o pid=,args= -p "$(IFS=,; echo "${victims[*]}")" | sed 's/^/runner-cleanup: left over: /' >&2 || true
  fi
  kill -s "$signal" "${victims[@]}" 2>/dev/null || true
  sleep 1
done
leftovers
((${#victims[@]} == 0)) || die "processes survived SIGKILL: ${victims[*]}"

# 2.-4. Files.
removed=0
remove_entries() { # remove_entries <dir> [find tests]
  local dir=$1 entry
  shift
  [[ -d "$dir" ]] || return 0
  while IFS= read -r -d '' entry; do
    keeps "$entry" && continue
    rm -rf -- "$entry"
    removed=$((removed + 1))
  done < <(find "$dir" -mindepth 1 -maxdepth 1 "$@" -print0)
}
remove_entries "${HOME:?HOME is not set}"
# shellcheck disable=SC2086 # a list of directories
for dir in ${RUNNER_CLEANUP_TMP:-/tmp /var/tmp /dev/shm ${TMPDIR:-}}; do
  remove_entries "$dir" -user "$uid"
done
if [[ -n "${RUNNER_TOOL_CACHE:-}" ]]; then
  remove_entries "$RUNNER_TOOL_CACHE"
fi

# 5. Scheduled jobs.
if command -v crontab >/dev/null; then
  crontab -r 2>/dev/null || true
fi

echo "runner-cleanup ($phase): stopped $killed left-over process(es), removed $removed file(s) or directories"
