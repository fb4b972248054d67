#!/usr/bin/env bash
# Prints the path of a Prometheus server binary, installing Debian's package (prometheus, 2.42 on bookworm) when the
# machine has none: the contract suite's DashboardQueriesTest runs every panel query of the Grafana dashboard against
# a real Prometheus scraping every variant. The package's service is not started (policy-rc.d refuses it for the
# install): the test starts its own server, on a free port, with a throwaway configuration and storage.
set -euo pipefail

for candidate in "${PROMETHEUS_BIN:-}" "$(command -v prometheus 2>/dev/null || true)" /usr/bin/prometheus; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "install.sh: no prometheus here and no way to install it (needs root and apt-get): install Prometheus 2.x" \
    "and put it on PATH, or set PROMETHEUS_BIN" >&2
  exit 1
fi
echo "install.sh: no prometheus on this machine: installing Debian's package (its service is not started)" >&2
policy=/usr/sbin/policy-rc.d
created_policy=false
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod +x "$policy"
  created_policy=true
fi
trap 'if [ "$created_policy" = true ]; then rm -f "$policy"; fi' EXIT
install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus >&2
}
install || { apt-get update -q >&2 && install; }
command -v prometheus
