#!/usr/bin/env bash
# benchmark-comment.yml, step 2: the comment text, rendered by main's code (this checkout) from the A/B run record
# the benchmark job left, and the only call site of `./bench ab --from`. The record is untrusted data: it must parse,
# name only main's variants and scenarios, and hold both sides; anything else gives a short notice instead of a table.
#
# The record is ONE interleaved run (./bench ab runs <variant>--base and <variant>--head alternately, in paired
# rounds) plus ab.json, the design it was measured under (the verdict's level, each metric's rules). `./bench ab
# --from` judges it with main's verdict code exactly as the measuring run did (paired per-round ratios, the same α);
# the commits come from the run's title and the API here, not from the record.
# Inputs (environment): ACT (results|nothing|failed, from comment-target.sh), HEAD_SHA, BASE_SHA, ARTIFACT_DIR, RUN_URL,
# COMMENT_FILE (where the markdown goes).
set -euo pipefail
# shellcheck source=.github/scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out_file=${COMMENT_FILE:?}
is_sha "${HEAD_SHA:-}" || die "HEAD_SHA '${HEAD_SHA:-}' is not a commit SHA"
run_url=${RUN_URL:?}

# shellcheck disable=SC2016 # backticks are markdown here
notice() {
  printf '%s\n**%s** for head `%s`. %s See [the run](%s).\n' "$COMMENT_MARKER" "$1" "$HEAD_SHA" "$2" "$run_url" >"$out_file"
}

case "${ACT:-}" in
  failed)
    notice "❌ The benchmark run failed" "It left no A/B results."
    exit 0
    ;;
  nothing)
    notice "➖ Nothing to measure" "It changes no variant of the profile (no build input, no manifest entry) and not the harness, so no A/B ran."
    exit 0
    ;;
  results) ;;
  *) die "ACT '${ACT:-}' is not results, nothing or failed" ;;
esac
is_sha "${BASE_SHA:-}" || die "BASE_SHA '${BASE_SHA:-}' is not a commit SHA"
record=${ARTIFACT_DIR:?}/run.json

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ab"
# Shape and names only; the runner checks the rest (both sides, the design's ranges) and rejects with exit 2.
# (Chained with &&: inside `if !` errexit is off, so a failing first command would not stop the function.)
check() {
  jq --slurpfile manifest benchmarks.json '
    ($manifest[0].variants | map(.name)) as $variants
    | ($manifest[0].scenarios | map(.name)) as $scenarios
    | def known: type == "string" and test("^[a-z0-9-]+--(base|head)$") and (sub("--(base|head)$"; "") | IN($variants[]));
      if (.variants | type) != "array" or (.cells | type) != "array" then error("no variants or cells") else . end
    | if all(.variants[]; .name | known) and all(.cells[]; (.variant | known) and (.scenario | IN($scenarios[])))
      then . else error("names a variant or scenario main does not know") end' "$record" >"$work/ab/run.json" &&
    jq -e 'type == "object"' "${ARTIFACT_DIR:?}/ab.json" >"$work/ab/ab.json"
}
if ! check 2>"$work/error"; then
  echo "comment-render: the A/B record is unusable: $(cat "$work/error")" >&2
  notice "⚠️ The A/B results could not be read" "The run record did not have the expected shape."
  exit 0
fi

# main's runner (the harness's own build would be pull-request code's output; this one is built here).
if [[ -z "${BENCH:-}" ]]; then
  private_maven comment
  ./mvnw -B -q -ntp package -DskipTests -pl runner -am
fi
if ! BENCH_SKIP_BUILD=1 "${BENCH:-./bench}" ab --from "$work/ab" --base "$BASE_SHA" --head "$HEAD_SHA" \
  --reports-url "$run_url" --output "$out_file" >/dev/null; then
  notice "⚠️ The A/B results could not be compared" "The verdict code rejected the run record."
fi
[[ "$(head -n 1 "$out_file")" == "$COMMENT_MARKER" ]] || die "the rendered comment does not start with the marker"
