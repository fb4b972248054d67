#!/usr/bin/env bash
# The host's cleanup between two jobs, run by the runner's job hooks (job-started.sh before the first step of a job,
# job-completed.sh after its last, also when it failed or was cancelled), from the root-owned copy provision.sh
# installs: a job cannot rewrite it, and it runs before any checkout. With an ephemeral runner (docs/runner-host.md)
# every job also starts from a fresh user; this still runs and finds little.
#
# What approved pull-request code may leave behind, and what would then bias or taint later main measurements:
#   1. processes: every process of the runner's user except this script's own ancestors (the runner's listener,
#      worker and the hook's shell) gets SIGTERM, then SIGKILL, until none is left;
#   2. $HOME: every entry (~/.m2, ~/.cache, ~/.java, ~/.gitconfig with a core.hooksPath, ~/.mavenrc, ...) except one
#      that holds the runner itself or the job's workspace;
#   3. temporary files: every entry owned by this user in /tmp, /var/tmp, /dev/shm and $TMPDIR;
#   4. the tool cache ($RUNNER_TOOL_CACHE), so nothing installed there by one job is reused by the next;
#   5. the user's crontab;
#   6. at job start, the workspace ($GITHUB_WORKSPACE): actions/checkout reuses an existing .git, hooks included, so
#      an earlier job's .git/hooks would run during this job's checkout;
#   7. at job end, the actions the runner downloaded (_work/_actions: a job can edit them) and the workspace.
# It cannot restore the runner's own binaries, which the runner's user can write: a determined pull request can change
# those on a persistent runner, which is why docs/runner-host.md makes the ephemeral runner the default.
#
# usage: runner-cleanup.sh start|end
# Environment: HOME, RUNNER_TOOL_CACHE, RUNNER_WORKSPACE, GITHUB_WORKSPACE, RUNNER_TEMP (set by the runner);
# RUNNER_CLEANUP_TMP overrides the temporary directories (space-separated; the tests use their own).
set -euo pipefail
die() {
  echo "${0##*/}: $*" >&2
  exit 1
}

phase=${1:-start}
[[ "$phase" == start || "$phase" == end ]] || die "usage: runner-cleanup.sh start|end"
uid=$(id -u)
((uid != 0)) || die "refusing to run as root: it would signal every root process (run the runner as its own user)"

# Paths that must survive: the runner's installation (two levels above its _work/<repo> directory) and the job's
# own directories. An entry is kept when one of them lies inside it. Entries are compared as they are named, never
# through a symbolic link (a ~/.m2 that links into the runner's directory is a link, and goes), and a link is never
# kept.
protected=()
for path in "${RUNNER_WORKSPACE:-}" "${GITHUB_WORKSPACE:-}" "${RUNNER_TEMP:-}"; do
  [[ -n "$path" ]] && protected+=("$(realpath -m "$path")")
done
if [[ -n "${RUNNER_WORKSPACE:-}" ]]; then
  protected+=("$(realpath -m "$RUNNER_WORKSPACE/../..")")
fi
keeps() { # keeps <entry>: true when a protected path is the entry or lies inside it, and the entry is no link
  local entry p
  [[ ! -L "$1" ]] || return 1
  entry=$(realpath -s -m "$1")
  for p in "${protected[@]}"; do
    [[ "$p" == "$entry" || "$p" == "$entry"/* ]] && return 0
  done
  return 1
}

# 1. Processes. The ancestors of this shell are the runner and this step; everything else of this user is left over.
# Process 1 is never signalled: in a container it is the runner itself (and would ignore the signal anyway).
# Only shell builtins below: listing must not start processes that would then be listed themselves.
ancestors=" 1 "
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
removed=0 unremovable=()
# remove <path>: gone, also a tree a job made unwritable (chmod 0500) to make every later cleanup fail; what still
# cannot go (another user's file inside it) is reported, and the cleanup goes on.
remove() {
  [[ -L "$1" ]] || chmod -R u+rwX -- "$1" 2>/dev/null || true
  if rm -rf -- "$1" 2>/dev/null; then
    removed=$((removed + 1))
  else
    unremovable+=("$1")
  fi
}
remove_entries() { # remove_entries <dir> [find tests]
  local dir=$1 entry
  shift
  [[ -d "$dir" ]] || return 0
  while IFS= read -r -d '' entry; do
    keeps "$entry" && continue
    remove "$entry"
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

# 6.-7. The workspace (emptied, not removed: the runner created it and expects it), and after a job the actions it
# downloaded (the runner downloads them again for the next job).
empty_dir() { # empty_dir <dir>: every entry in it, hidden ones included
  local entry
  [[ -n "$1" && -d "$1" ]] || return 0
  while IFS= read -r -d '' entry; do
    remove "$entry"
  done < <(find "$1" -mindepth 1 -maxdepth 1 -print0)
}
empty_dir "${GITHUB_WORKSPACE:-}"
if [[ "$phase" == end && -n "${RUNNER_WORKSPACE:-}" ]]; then
  empty_dir "$(realpath -m "$RUNNER_WORKSPACE/../_actions")"
fi

# 5. Scheduled jobs.
if command -v crontab >/dev/null; then
  crontab -r 2>/dev/null || true
fi

echo "runner-cleanup ($phase): stopped $killed left-over process(es), removed $removed file(s) or directories"
if ((${#unremovable[@]} > 0)); then
  printf 'runner-cleanup: could not remove (not this user'"'"'s to remove): %s\n' "${unremovable[@]}" >&2
fi
