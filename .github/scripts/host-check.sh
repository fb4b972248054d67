#!/usr/bin/env bash
# The benchmark job's first check, after the harness checkout: is this runner a host prepared by
# .github/host/provision.sh? The protection itself is the host's job-started hook, which ran before the checkout; this
# step makes a host without it visible instead of silently measuring there.
#   1. ACTIONS_RUNNER_HOOK_JOB_STARTED and _COMPLETED name job-started.sh and job-completed.sh, root-owned with the
#      scripts they run and host.conf, in a root-owned directory, so this job cannot change them (else any workflow
#      could reach this machine, and nothing cleaned up before the checkout): otherwise it fails;
#   2. hooks that differ from this commit's .github/host fail too (run provision.sh again after changing them);
#   3. the runtimes the plan needs ($RUNTIMES, "jdk 17,jdk 25,node 20"): each where provision.sh puts it in the runner's
#      environment (JAVA_HOME_<v>_X64, NODE<v>_HOME). A missing one is a warning, not a failure: the runner looks in
#      the usual places too (shared/manifest Runtimes), and ./bench run records a variant whose runtime it does not
#      find as cells not measured, with the reason, and measures and publishes the others.
# Environment: RUNTIMES (the plan's), the runner's ACTIONS_RUNNER_HOOK_JOB_STARTED / _COMPLETED, JAVA_HOME_<v>_X64,
# NODE<v>_HOME.
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)

# Each hook by its name (job-started.sh as the STARTED hook: job-completed.sh there would clean up without refusing
# anything), the scripts it runs and its host.conf, root-owned in a root-owned directory, and the same as this
# commit's .github/host: a host whose hooks are older or changed is not the host the tests describe.
declare -A want_name=([STARTED]=job-started.sh [COMPLETED]=job-completed.sh)
for hook in STARTED COMPLETED; do
  var=ACTIONS_RUNNER_HOOK_JOB_$hook
  file=${!var:-}
  [[ -n "$file" ]] ||
    die "this runner has no $var: it would run any workflow's job that asks for it, and nothing cleaned up before this checkout; prepare the host with .github/host/provision.sh (docs/runner-host.md)"
  [[ "$(basename "$file")" == "${want_name[$hook]}" ]] || die "$var names $file, not a ${want_name[$hook]}"
  [[ -f "$file" ]] || die "$var names $file, which does not exist"
  dir=$(dirname "$file")
  for path in "$file" "$dir/runner-cleanup.sh" "$dir/host.conf" "$dir"; do
    # A link (a ConfigMap's files are links into its ..data) is as safe as the root-owned directory holding it.
    [[ -e "$path" && "$(stat -L -c %u "$path")" == 0 && ! -w "$path" ]] ||
      die "$path is not a root-owned file this job cannot write: a job could change what the next one runs"
  done
  for name in "${want_name[$hook]}" runner-cleanup.sh; do
    cmp -s "$dir/$name" "$repo/.github/host/$name" ||
      die "the host's $dir/$name differs from .github/host/$name of this commit: run .github/host/provision.sh again"
  done
done

missing=()
IFS=, read -ra needed <<<"${RUNTIMES:-}"
for runtime in "${needed[@]}"; do
  read -r name version <<<"$runtime"
  case "$name" in
    jdk) var=JAVA_HOME_${version}_X64 exe=bin/java ;;
    node) var=NODE${version}_HOME exe=bin/node ;;
    native)
      # A compiled executable needs no runtime; its build fetches its pinned toolchain with any go.
      echo "host: native needs no runtime"
      continue
      ;;
    *) die "the plan needs a runtime '$runtime' this check does not know" ;;
  esac
  home=${!var:-}
  if [[ -n "$home" && -x "$home/$exe" ]]; then
    echo "host: $runtime at $home"
  else
    missing+=("$runtime")
    echo "::warning::the host's runner environment names no $runtime (\$$var is '${home}'): run .github/host/provision.sh; the runner still looks in the usual places, and records the variants whose runtime it does not find as not measured (not failed), with the reason"
  fi
done
summary "Host: hooks in $(dirname "$ACTIONS_RUNNER_HOOK_JOB_STARTED"); runtimes needed: ${RUNTIMES:-none}${missing[*]:+; missing: ${missing[*]}}"
