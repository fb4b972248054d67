#!/usr/bin/env bash
# Checks the GitHub workflows: actionlint (with shellcheck for run: scripts) must report nothing, shellcheck on
# the repository's scripts, and the policy tests in .github/validate (fork guard, permissions, SHA pins,
# concurrency, matrix from benchmarks.json). Installs actionlint v1.7.12 (go install) and shellcheck (apt-get)
# when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.github/validate/target/bin
if [[ ! -x "$bin/actionlint" ]]; then
  command -v go >/dev/null || { echo "validate.sh: Go is required to install actionlint" >&2; exit 1; }
  GOBIN=$PWD/$bin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi
if ! command -v shellcheck >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq shellcheck) >/dev/null
  else
    echo "validate.sh: shellcheck missing (apt-get install shellcheck); run: scripts are not linted" >&2
  fi
fi

"$bin/actionlint" -no-color .github/workflows/*.yml
echo "actionlint: no findings in $(ls .github/workflows/*.yml | wc -l) workflows"
if command -v shellcheck >/dev/null; then
  shellcheck -S warning bench run-tests .ci/run .github/scripts/*.sh compose/validate.sh gatling/wrk-check.sh \
    services/smoke-load.sh
  echo "shellcheck: no findings"
fi
(cd .github/validate && go test -count=1 -v ./... 2>&1 | grep -E '^(=== RUN|--- |ok|FAIL|PASS)' )
