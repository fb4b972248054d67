# Shared by the workflow scripts (sourced, never run). Every decision a workflow makes lives in these scripts, so
# the tests in .github/validate can replay recorded events through exactly the code GitHub runs.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the constants are used by the scripts that source this file

# The branch whose code is trusted: the harness, the guard and the comment rendering always come from here.
MAIN_BRANCH=main
# The hidden first line of the one pull-request comment this repository writes (PrComment.MARKER in the runner).
COMMENT_MARKER='<!-- restbench-pr-comment -->'
# The account GITHUB_TOKEN writes as; only its comments carrying the marker are ever updated.
COMMENT_BOT='github-actions[bot]'

die() {
  echo "${0##*/}: $*" >&2
  exit 1
}

# out <name> <value>: one step output. A line break in a value would let it write a second output (for example a
# forged matrix=), so such a value is refused instead of written.
out() {
  local name=$1 value=$2
  [[ "$name" =~ ^[a-z][a-z_]*$ ]] || die "bad output name '$name'"
  if [[ "$value" == *$'\n'* || "$value" == *$'\r'* ]]; then
    die "output $name would contain a line break; refusing to write it"
  fi
  printf '%s=%s\n' "$name" "$value" >>"${GITHUB_OUTPUT:-/dev/stdout}"
}

# summary <markdown line>: appended to the job summary (stderr outside Actions).
summary() {
  if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
    printf '%s\n' "$1" >>"$GITHUB_STEP_SUMMARY"
  else
    printf '%s\n' "$1" >&2
  fi
}

# event <jq path>: a string from the event payload GitHub wrote to $GITHUB_EVENT_PATH ("" when absent or null).
event() {
  jq -r "($1) // \"\" | tostring" "${GITHUB_EVENT_PATH:?GITHUB_EVENT_PATH is not set}"
}

is_sha() { [[ "$1" =~ ^[0-9a-f]{40}$ ]]; }
is_pr_number() { [[ "$1" =~ ^[1-9][0-9]{0,9}$ ]]; }

# private_maven <name>: this job's builds use their own Maven repository and wrapper home under $RUNNER_TEMP (which
# the runner empties for every job), never ~/.m2: nothing a pull request's build downloads or alters is seen by a
# later run, and no dependency cache is shared between pull-request runs and main.
private_maven() {
  local home=${RUNNER_TEMP:?RUNNER_TEMP is not set}/maven-$1
  mkdir -p "$home/repository"
  export MAVEN_USER_HOME="$home"
  export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Dmaven.repo.local=$home/repository"
}

# service_user: when the host has a service user (RESTBENCH_SERVICE_USER in the runner's .env, made by provision.sh),
# ./bench builds and starts every variant as that user (BENCH_SERVICE_USER), which can write neither the results nor
# this checkout nor the runner's processes; this job's own files are then created writable by their owner only
# (umask 022: ./bench refuses results another user could write). Returns 1 on a host without one.
service_user() {
  [[ -n "${RESTBENCH_SERVICE_USER:-}" ]] || return 1
  umask 022
  export BENCH_SERVICE_USER=$RESTBENCH_SERVICE_USER
}

# pull_request_at <number> <sha>: prints nothing when pull request <number> is open, targets $MAIN_BRANCH and has
# <sha> as its head right now (GitHub's API, via gh and GH_TOKEN); else prints why not.
pull_request_at() {
  local pull state base head
  pull=$(gh api "repos/${GITHUB_REPOSITORY:?}/pulls/$1") || die "cannot read pull request #$1"
  state=$(jq -r '.state // ""' <<<"$pull")
  base=$(jq -r '.base.ref // ""' <<<"$pull")
  head=$(jq -r '.head.sha // ""' <<<"$pull")
  if [[ "$state" != open ]]; then
    echo "pull request #$1 is $state"
  elif [[ "$base" != "$MAIN_BRANCH" ]]; then
    echo "pull request #$1 targets '$base', not $MAIN_BRANCH"
  elif [[ "$head" != "$2" ]]; then
    echo "pull request #$1 moved on: its head is now $head, not $2"
  fi
}
