#!/usr/bin/env bash
# Validates every compose file with compose's own loader (compose-go v2; no Docker engine needed), and checks that
# the loader does reject a broken file, so this check cannot pass vacuously.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v go >/dev/null; then
  echo "compose/validate.sh: Go is required (https://go.dev/dl/)" >&2
  exit 1
fi
mkdir -p validate/target
(cd validate && go build -o target/validate .)
validate/target/validate compose.yaml
if validate/target/validate validate/testdata/broken.yaml 2>/tmp/compose-broken.$$; then
  echo "compose/validate.sh: the loader accepted validate/testdata/broken.yaml" >&2
  exit 1
fi
echo "broken.yaml rejected as expected: $(head -c 300 /tmp/compose-broken.$$)"
rm -f /tmp/compose-broken.$$
