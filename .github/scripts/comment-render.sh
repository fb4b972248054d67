#!/usr/bin/env bash
# benchmark-comment.yml, step 2: the comment text, rendered by main's code (this checkout) from the A/B run record
# the benchmark job left, and the only call site of `./bench compare`. The record is untrusted data: it must parse,
# name only main's variants and scenarios, and hold both sides; anything else gives a short notice instead of a table.
#
# The record is ONE interleaved run (./bench ab runs <variant>--base and <variant>--head alternately); it is split
# here into a base and a head record, as the runner's InterleavedRun.select does, and compared with `./bench compare`
# (the same verdict code ./bench ab uses, without a history).
# Inputs (environment): ACT (results|failed, from comment-target.sh), HEAD_SHA, BASE_SHA, ARTIFACT_DIR, RUN_URL,
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
  results) ;;
  *) die "ACT '${ACT:-}' is neither results nor failed" ;;
esac
is_sha "${BASE_SHA:-}" || die "BASE_SHA '${BASE_SHA:-}' is not a commit SHA"
record=${ARTIFACT_DIR:?}/run.json

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Both sides of the interleaved record: <variant>--<side> renamed to <variant>, commit id set to that side's commit.
split() { # split <side> <commit>
  mkdir -p "$work/$1"
  jq --arg side "$1" --arg commit "$2" --slurpfile manifest benchmarks.json '
    ($manifest[0].variants | map(.name)) as $variants
    | ($manifest[0].scenarios | map(.name)) as $scenarios
    | ("--" + $side) as $suffix
    | def own: type == "string" and endswith($suffix) and (rtrimstr($suffix) | IN($variants[]));
      if (.variants | type) != "array" or (.cells | type) != "array" then error("no variants or cells") else . end
    | if all(.variants[]; .name | type == "string" and test("^[a-z0-9-]+--(base|head)$"))
         and all(.cells[]; (.variant | type == "string" and test("^[a-z0-9-]+--(base|head)$"))
                           and (.scenario | IN($scenarios[])))
      then . else error("names a variant or scenario main does not know") end
    | .variants |= map(select(.name | own) | .name |= rtrimstr($suffix))
    | .cells |= map(select(.variant | own) | .variant |= rtrimstr($suffix))
    | if (.variants | length) == 0 then error("no " + $side + " side") else . end
    | .runId = ((.runId | tostring) + "-" + $side)
    | .commit.id = $commit' "$record" >"$work/$1/run.json"
}
if ! { split base "$BASE_SHA" && split head "$HEAD_SHA"; } 2>"$work/error"; then
  echo "comment-render: the A/B record is unusable: $(cat "$work/error")" >&2
  notice "⚠️ The A/B results could not be read" "The run record did not have the expected shape."
  exit 0
fi

# main's runner (the harness's own build would be pull-request code's output; this one is built here).
if [[ -z "${BENCH:-}" ]]; then
  private_maven comment
  ./mvnw -B -q -ntp package -DskipTests -pl runner -am
fi
if ! BENCH_SKIP_BUILD=1 "${BENCH:-./bench}" compare --reports-url "$run_url" --output "$out_file" \
  "$work/base" "$work/head" >/dev/null; then
  notice "⚠️ The A/B results could not be compared" "The verdict code rejected the run record."
fi
[[ "$(head -n 1 "$out_file")" == "$COMMENT_MARKER" ]] || die "the rendered comment does not start with the marker"
