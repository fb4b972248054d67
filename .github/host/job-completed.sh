#!/usr/bin/env bash
# The runner's job-completed hook on a benchmark host (ACTIONS_RUNNER_HOOK_JOB_COMPLETED, set by provision.sh): after
# the last step of every job, also a failed, cancelled or refused one, stops what the job left running and removes
# what it left on disk (runner-cleanup.sh end), so nothing of it is still using a core or a file when the next job
# starts. job-started.sh cleans up again before the next job: this one only makes the idle machine quiet.
set -euo pipefail
exec "$(dirname "$(realpath "$0")")/runner-cleanup.sh" end
