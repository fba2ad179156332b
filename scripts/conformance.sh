#!/usr/bin/env bash
# Runs the official MCP client conformance suite against examples/conformance-client, with Node 22
# from the `node@22` npm package (scripts/npm-cache.sh), in three runs:
#
#   v0.1     @modelcontextprotocol/conformance 0.1.16: every client scenario (`--suite all`).
#   default  @modelcontextprotocol/conformance 0.2.0-alpha.12: every client scenario, each at the
#            suite's default revision for it (2026-07-28 for scenarios introduced in it, else 2025-11-25).
#   2026     @modelcontextprotocol/conformance 0.2.0-alpha.12: every client scenario of
#            `--requirements 2026-07-28` (the required ones and the ones run but not scored), each with
#            `--spec-version 2026-07-28 --force` (--force: at an explicit --spec-version the suite skips
#            extension scenarios, which `--requirements` itself runs).
#
# Every scenario is a separate runner invocation (`client --scenario`), without a baseline, so the
# runner's exit status counts failed and warning checks, a client that exited non-zero where the
# scenario does not allow it, and a timeout. A scenario passes when the runner exited 0 and at least
# one of its checks succeeded (all checks skipped means nothing was tested). The runner sets
# MCP_CONFORMANCE_PROTOCOL_VERSION (0.2 only), which the client pins.
#
# Usage: scripts/conformance.sh [--run v0.1|default|2026]... [--scenario NAME] [--jobs N] [--verbose]
#   --run       only these runs (repeatable; default: all three)
#   --scenario  only this scenario, in every selected run that has it
#   --jobs      scenarios run at once (default 2). The suite's own parallel mode starts every scenario
#               at once, which on a small machine makes the timing checks of `sse-retry` flaky;
#               `sse-retry` itself always runs last, alone.
#   --verbose   the runner's --verbose (checks as JSON in the logs)
# Environment:
#   TOOLHOST_CONFORMANCE_CACHE        where the suites are installed (default .tmp/conformance)
#   TOOLHOST_NODE22_CACHE             where Node 22 is installed (default .tmp/node22)
#   TOOLHOST_CONFORMANCE_SKIP_BUILD=1 do not build the client first
#
# Exit status is non-zero when a scenario fails that is not listed in
# examples/conformance-client/expected-failures.txt, when a listed scenario passes (a stale entry),
# or when that file lists anything but an extension scenario of the 0.2 suite. The 0.1.16 run has no
# expected failures. Each run ends with a line "== <run>: P passed, F failed of N ...".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${TOOLHOST_CONFORMANCE_CACHE:-$ROOT/.tmp/conformance}"
V01_VERSION="0.1.16"
V02_VERSION="0.2.0-alpha.12"
REVISION="2026-07-28"
CLIENT_DIR="$ROOT/examples/conformance-client"
EXPECTED_FAILURES="$CLIENT_DIR/expected-failures.txt"
REPORT="$ROOT/scripts/conformance-report.mjs"
SCENARIO_TIMEOUT_MS=60000
# Scenarios whose checks time the client (reconnect delays): run alone after the others.
TIMING_SCENARIOS="sse-retry"

RUNS=()
SCENARIO=""
JOBS=2
VERBOSE=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --run) RUNS+=("$2"); shift 2 ;;
    --scenario) SCENARIO="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --verbose) VERBOSE=(--verbose); shift ;;
    *) echo "conformance.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ ${#RUNS[@]} -gt 0 ]] || RUNS=(v0.1 default 2026)
for run in "${RUNS[@]}"; do
  case "$run" in v0.1|default|2026) ;; *) echo "conformance.sh: unknown run $run (v0.1, default, 2026)" >&2; exit 2 ;; esac
done
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "conformance.sh: --jobs needs a positive number" >&2; exit 2; }

# --- Node 22 and both suites, cached (npm aliases, so that both versions live side by side) ----
source "$ROOT/scripts/npm-cache.sh"
NODE22="$(node22)"
SUITE_V01="$CACHE/node_modules/mcp-conformance-0.1"
SUITE_V02="$CACHE/node_modules/mcp-conformance-0.2"
if [[ "$(cache_version "$CACHE" mcp-conformance-0.1)" != "$V01_VERSION" || "$(cache_version "$CACHE" mcp-conformance-0.2)" != "$V02_VERSION" ]]; then
  cache_install "$CACHE" "mcp-conformance-0.1@npm:@modelcontextprotocol/conformance@$V01_VERSION" \
    "mcp-conformance-0.2@npm:@modelcontextprotocol/conformance@$V02_VERSION"
fi
echo "Node $("$NODE22" --version), @modelcontextprotocol/conformance $(cache_version "$CACHE" mcp-conformance-0.1) and $(cache_version "$CACHE" mcp-conformance-0.2)" >&2

# --- the client ------------------------------------------------------------------------------
if [[ "${TOOLHOST_CONFORMANCE_SKIP_BUILD:-0}" != "1" ]]; then
  (cd "$ROOT" && pnpm --filter "@toolhost-examples/conformance-client..." build >&2)
fi
CLIENT_COMMAND="$NODE22 $CLIENT_DIR/dist/index.js"

# --- scenario lists --------------------------------------------------------------------------
RESULTS="$CACHE/results"
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
# "  - name [tags]" lines of `list --client`.
client_scenarios() { "$NODE22" "$1/dist/index.js" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p'; }
# The client scenarios of a requirement set: the "Client scenarios" section and the not-scored
# entries tagged [client].
required_client_scenarios() {
  "$NODE22" "$SUITE_V02/dist/index.js" list --requirements "$1" | awk '
    /^Client scenarios/ { section = "client"; next }
    /^Server scenarios/ || /^Run and reported/ { section = ($0 ~ /^Run and reported/) ? "not-scored" : ""; next }
    section == "client" && /^  - / { print $2 }
    section == "not-scored" && /^    - .*\[client\]/ { print $2 }'
}
"$NODE22" "$SUITE_V02/dist/index.js" list --client | sed -n 's/^  - \([^ ]*\) \[extension\].*/\1/p' > "$RESULTS/v0.2-extensions.txt"

# --- one run -----------------------------------------------------------------------------------
STATUS=0
run_scenario() { # <run-dir> <suite-dir> <scenario> [runner args...]
  local dir="$1" suite="$2" scenario="$3"
  shift 3
  local base="$dir/${scenario//\//__}"
  local code=0
  "$NODE22" "$suite/dist/index.js" client --command "$CLIENT_COMMAND" --scenario "$scenario" -o "$base" \
    --timeout "$SCENARIO_TIMEOUT_MS" "${VERBOSE[@]}" "$@" > "$base.log" 2>&1 || code=$?
  echo "$code" > "$base.exit"
}
run() { # <run> <label> <suite-dir> <scenarios-file> <expected-failures|-> [runner args...]
  local name="$1" label="$2" suite="$3" list="$4" expected="$5"
  shift 5
  local dir="$RESULTS/$name"
  mkdir -p "$dir"
  if [[ -n "$SCENARIO" ]]; then
    grep -qxF "$SCENARIO" "$list" || { echo "== $label: no scenario $SCENARIO" >&2; return; }
    echo "$SCENARIO" > "$list"
  fi
  [[ -s "$list" ]] || { echo "== $label: the suite listed no scenarios" >&2; STATUS=1; return; }
  echo "--- $label: $(wc -l < "$list") scenarios, $JOBS at a time" >&2
  local scenario
  while read -r scenario; do
    if [[ " $TIMING_SCENARIOS " == *" $scenario "* ]]; then continue; fi
    while [[ $(jobs -rp | wc -l) -ge "$JOBS" ]]; do wait -n || true; done
    run_scenario "$dir" "$suite" "$scenario" "$@" &
  done < "$list"
  wait
  # Scenarios that time the client run last, alone, so that no other scenario competes for the CPU.
  while read -r scenario; do
    if [[ " $TIMING_SCENARIOS " == *" $scenario "* ]]; then run_scenario "$dir" "$suite" "$scenario" "$@"; fi
  done < "$list"
  local report=("$NODE22" "$REPORT" "$label" "$dir" "$list")
  [[ "$expected" == "-" ]] || report+=("$expected" "$RESULTS/v0.2-extensions.txt")
  "${report[@]}" >&2 || STATUS=1
}

start=$(date +%s)
for name in "${RUNS[@]}"; do
  case "$name" in
    v0.1)
      client_scenarios "$SUITE_V01" > "$RESULTS/v0.1-scenarios.txt"
      run v0.1 "conformance $V01_VERSION --suite all" "$SUITE_V01" "$RESULTS/v0.1-scenarios.txt" - ;;
    default)
      client_scenarios "$SUITE_V02" > "$RESULTS/default-scenarios.txt"
      run default "conformance $V02_VERSION, every client scenario at its default revision" "$SUITE_V02" \
        "$RESULTS/default-scenarios.txt" "$EXPECTED_FAILURES" ;;
    2026)
      required_client_scenarios "$REVISION" > "$RESULTS/2026-scenarios.txt"
      run 2026 "conformance $V02_VERSION --requirements $REVISION at --spec-version $REVISION" "$SUITE_V02" \
        "$RESULTS/2026-scenarios.txt" "$EXPECTED_FAILURES" --spec-version "$REVISION" --force ;;
  esac
done
echo "Results: $RESULTS ($(( $(date +%s) - start ))s)" >&2
exit "$STATUS"
