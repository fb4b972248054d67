#!/usr/bin/env bash
# The ephemeral runner loop of a benchmark host (docs/runner-host.md, section 4): one job per fresh user, for ever.
# Runs as root under systemd (Restart=always). Each turn removes the last job's user with everything it owned (its
# processes, crontab, temporary files, home: caches, ~/.m2, the runner copy it could write), creates the user again,
# copies the root-owned runner from $RUNNER_DIR (with the .env provision.sh wrote: the job hooks and the runtimes)
# and registers it just in time for exactly one job. The credential that registers runners stays root's. The service
# user (provision.sh's; the pull request's builds and services ran as it) loses its processes, its temporary files and
# everything in its home too, so nothing of one job's code is there for the next.
#
# Environment: REPOSITORY (owner/name, required), RUNNER_USER (default bench), RUNNER_UID (default 1500, fixed so that
# what the uid still owns can be found and removed), RUNNER_DIR (default
# /opt/actions-runner), TOKEN_FILE (default /etc/restbench-runner/token, mode 0600), RUNNER_GROUP_ID (default 1, a
# repository's default group; for an organisation's restricted group set ORG and its id), ORG (optional: register
# with the organisation instead of the repository), RESTBENCH_SERVICE_USER (default restbench-svc; none: skipped).
set -euo pipefail
repo=${REPOSITORY:?REPOSITORY=owner/name is required}
user=${RUNNER_USER:-bench}
uid=${RUNNER_UID:-1500}
service_user=${RESTBENCH_SERVICE_USER:-restbench-svc}
runner_dir=${RUNNER_DIR:-/opt/actions-runner}
token_file=${TOKEN_FILE:-/etc/restbench-runner/token}
group=${RUNNER_GROUP_ID:-1}
api=https://api.github.com/repos/$repo/actions/runners/generate-jitconfig
[[ -z "${ORG:-}" ]] || api=https://api.github.com/orgs/$ORG/actions/runners/generate-jitconfig
((EUID == 0)) || { echo "runner-loop.sh: run as root" >&2; exit 1; }

while true; do
  if id "$user" >/dev/null 2>&1; then
    pkill -KILL -u "$user" || true
    crontab -r -u "$user" 2>/dev/null || true
    find /tmp /var/tmp /dev/shm -mindepth 1 -user "$user" -delete 2>/dev/null || true
    userdel --remove "$user"
  fi
  if id "$service_user" >/dev/null 2>&1; then
    pkill -KILL -u "$service_user" || true
    find /tmp /var/tmp /dev/shm -mindepth 1 -user "$service_user" -delete 2>/dev/null || true
    service_home=$(getent passwd "$service_user" | cut -d: -f6)
    [[ ! -d "$service_home" || "$service_home" == / ]] || find "$service_home" -mindepth 1 -delete
  fi
  # One fixed uid for the runner's user, and whatever that uid still owns outside its home swept too (lock files,
  # System V IPC, at jobs): a new user would otherwise get the same uid and inherit them anyway.
  find /tmp /var/tmp /dev/shm /run/lock -xdev -mindepth 1 -uid "$uid" -delete 2>/dev/null || true
  for kind in m s q; do # shared memory, semaphores, message queues of the (deleted, so numeric) owner
    ipcs -"$kind" 2>/dev/null | awk -v uid="$uid" '$3 == uid {print $2}' | xargs -r -n1 ipcrm -"$kind" 2>/dev/null || true
  done
  if command -v atq >/dev/null; then atq | awk -v u="$user" '$NF == u {print $1}' | xargs -r atrm 2>/dev/null || true; fi
  useradd --create-home --shell /bin/bash --uid "$uid" "$user"
  cp -a "$runner_dir" "/home/$user/actions-runner"
  chown -R "$user:" "/home/$user/actions-runner"
  body=$(jq -n --arg name "bench-$(hostname)-$(date +%s)" --argjson group "$group" \
    '{name: $name, runner_group_id: $group, labels: ["self-hosted", "linux", "x64", "bench"], work_folder: "_work"}')
  # The credential in a header file, never on a command line (/proc/<pid>/cmdline is world-readable).
  headers=$(mktemp)
  printf 'Authorization: Bearer %s\nAccept: application/vnd.github+json\n' "$(cat "$token_file")" >"$headers"
  jit=$(curl -fsS -X POST "$api" -H @"$headers" -d "$body" | jq -r .encoded_jit_config) || jit=""
  rm -f "$headers"
  [[ -n "$jit" && "$jit" != null ]] || { sleep 30; continue; }
  # The runner takes its one-job configuration as an argument (it has no other way); it lives until the job ends.
  runuser -u "$user" -- "/home/$user/actions-runner/run.sh" --jitconfig "$jit" || sleep 30
done
