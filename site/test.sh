#!/usr/bin/env bash
# Runs the site's browser tests: installs what is missing (Debian chromium, the npm dev dependencies), then
# `node --test`. Exits non-zero on any failure. Screenshots land in site/test-artifacts/.
set -euo pipefail
cd "$(dirname "$0")"

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "site/test.sh: $CHROMIUM missing; installing Debian chromium" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# npm ci only when node_modules does not match the lock file (it is fast to skip, slow to redo).
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.restbench-lock 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.restbench-lock
fi

# The vendored chart library must be the one the lock file pins (scripts/vendor.mjs copies it).
node -e '
  const fs = require("fs");
  const want = require("./node_modules/uplot/package.json").version;
  const head = fs.readFileSync("vendor/uplot/uPlot.esm.js", "utf8");
  const esm = fs.readFileSync("node_modules/uplot/dist/uPlot.esm.js", "utf8");
  if (head !== esm) { console.error(`site/vendor/uplot differs from uplot ${want}: run node site/scripts/vendor.mjs`); process.exit(1); }
'

mkdir -p test-artifacts
exec node --test --test-reporter=spec test/
