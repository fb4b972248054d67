#!/usr/bin/env bash
# Checks the GitHub workflows:
#   1. actionlint must report nothing, with shellcheck checking every run: script;
#   2. shellcheck must report nothing on every shell script under .github/ (the workflow scripts, the test stand-ins)
#      and on the repository's own scripts;
#   3. the Go tests in .github/validate: the policy tests and the rehearsal, which replays recorded events through
#      the workflows' scripts (guard, plan, A/B, cleanup, publish, comment) and the workflows' own expressions.
# Installs what a fresh machine lacks: actionlint v1.7.12 (go install) and shellcheck (apt-get, as root), and fails
# when the latter is still missing: without it, actionlint silently skips the run: scripts.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.github/validate/target/bin
if [[ ! -x "$bin/actionlint" ]]; then
  command -v go >/dev/null || { echo "validate.sh: Go is required to install actionlint" >&2; exit 1; }
  GOBIN=$PWD/$bin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi
if ! command -v shellcheck >/dev/null && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
  (apt-get update -qq && apt-get install -y -qq shellcheck) >/dev/null
fi
shellcheck=$(command -v shellcheck) || {
  echo "validate.sh: shellcheck is required (apt-get install shellcheck)" >&2
  exit 1
}
for tool in jq git node; do
  command -v "$tool" >/dev/null || { echo "validate.sh: $tool is required by the workflow tests" >&2; exit 1; }
done

workflows=(.github/workflows/*.yml)
"$bin/actionlint" -no-color -shellcheck="$shellcheck" "${workflows[@]}"
echo "actionlint (with $("$shellcheck" --version | sed -n 's/^version: /shellcheck /p') on run: scripts): no findings in ${#workflows[@]} workflows"

mapfile -t github_scripts < <(grep -rlE --exclude-dir=target '^#!/usr/bin/env bash|^# shellcheck shell=bash' .github | sort)
"$shellcheck" -x -S style "${github_scripts[@]}"
"$shellcheck" -S warning bench run-tests .ci/run compose/validate.sh gatling/wrk-check.sh services/smoke-load.sh
echo "shellcheck: no findings in ${#github_scripts[@]} scripts under .github and the repository's 6 scripts"

(cd .github/validate && go test -count=1 -v ./... 2>&1 | grep -E '^(=== RUN|--- |\s+--- |ok|FAIL|PASS|\s+\S+_test\.go:)' )
