#!/usr/bin/env bash
# The runtimes a list of variants needs, from benchmarks.json: one line each, "<name> <major version>" (e.g.
# "jdk 25", "node 20"), or "native" alone for a compiled executable (it needs no runtime), sorted, each once. A variant's runtime is its own `runtime`, else the one of the variant it
# extends, else `defaults.runtime` (the rule of ManifestLoader, which the rehearsal checks this against).
#
# plan.sh puts them in the plan (the runtimes the benchmark job needs on the host); host/provision.sh installs every
# runtime of the manifest on the runner host. The runner itself finds them (shared/manifest Runtimes) and, in the
# workflow, records a variant whose runtime the host lacks as not measured instead of losing the run
# (./bench run --missing-runtimes record).
#
# usage: runtimes.sh [variants csv]   (empty or absent: every variant of the manifest)
# Environment: MANIFEST (default benchmarks.json).
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

manifest=${MANIFEST:-benchmarks.json}
[[ -f "$manifest" ]] || die "$manifest not found"
jq -r --arg variants "${1:-}" '
  . as $m
  | def runtime($name):
      ([$m.variants[] | select(.name == $name)] | first) as $v
      | if $v == null then error("unknown variant \($name)")
        elif $v.runtime != null then $v.runtime
        elif $v.extends != null then runtime($v.extends)
        else $m.defaults.runtime end;
  (if $variants == "" then [$m.variants[].name] else ($variants | split(",")) end)
  | map(runtime(.) | if .version == null then .name else "\(.name) \(.version)" end) | unique | .[]
' "$manifest" || die "cannot read the runtimes of '${1:-every variant}' from $manifest"
