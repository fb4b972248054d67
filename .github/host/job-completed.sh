#!/usr/bin/env bash
# The runner's job-completed hook on a benchmark host (ACTIONS_RUNNER_HOOK_JOB_COMPLETED, set by provision.sh): after
# the last step of every job, also a failed or cancelled one, stops what the job left running and removes what it
# left on disk (runner-cleanup.sh end), so nothing of it is still using a core or a file when the next job starts.
# job-started.sh cleans up again before the next job: this one only makes the idle machine quiet. Nothing to do where
# host.conf says CLEANUP=no (a fresh container per job, whose HOME is the runner's own directory).
set -euo pipefail
here=$(dirname "$(realpath "$0")")
if grep -qx 'CLEANUP=no' "$here/host.conf" 2>/dev/null; then
  echo "restbench host: no cleanup (host.conf: CLEANUP=no, a fresh runner per job)"
  exit 0
fi
exec "$here/runner-cleanup.sh" end
