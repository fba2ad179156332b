#!/usr/bin/env bash
# Runs the official MCP conformance suite (every client scenario) against
# examples/conformance-client, with Node 22 from the `node@22` npm package.
#
# Usage: scripts/conformance.sh [--suite all|core|auth|backcompat|draft|extensions] [--scenario NAME]
#                               [--parallel] [--verbose]
#   With the default suite (all), scenarios run one after another: the suite's parallel mode
#   starts every scenario at once, which on a small CI machine makes the timing checks of
#   `sse-retry` flaky. --parallel (or any other --suite) uses the suite's parallel mode.
# Environment:
#   TOOLHOST_CONFORMANCE_CACHE        where Node 22 and the suite are installed (default .tmp/conformance)
#   TOOLHOST_CONFORMANCE_SKIP_BUILD=1 do not build the client first
#
# Exit status is non-zero when a scenario fails (a failed or warning check) that is not listed,
# with a reason, under "Expected failures" in examples/conformance-client/README.md, or when a
# listed scenario passes (a stale entry). The suite enforces both through --expected-failures.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${TOOLHOST_CONFORMANCE_CACHE:-$ROOT/.tmp/conformance}"
CONFORMANCE_VERSION="0.1.16"
NODE_SPEC="node@22"
CLIENT_DIR="$ROOT/examples/conformance-client"
README="$CLIENT_DIR/README.md"

SUITE="all"
SCENARIO=""
PARALLEL=0
VERBOSE=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) SUITE="$2"; shift 2 ;;
    --scenario) SCENARIO="$2"; shift 2 ;;
    --parallel) PARALLEL=1; shift ;;
    --verbose) VERBOSE=(--verbose); shift ;;
    *) echo "conformance.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

# --- Node 22 and the suite, cached ---------------------------------------------------------
mkdir -p "$CACHE"
SUITE_PKG="$CACHE/node_modules/@modelcontextprotocol/conformance"
installed_version() {
  node -e 'try{console.log(require(process.argv[1]).version)}catch{}' "$SUITE_PKG/package.json"
}
NODE22="$CACHE/node_modules/node/bin/node"
if [[ ! -x "$NODE22" || "$(installed_version)" != "$CONFORMANCE_VERSION" ]]; then
  echo "Installing $NODE_SPEC and @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into $CACHE" >&2
  [[ -f "$CACHE/package.json" ]] || echo '{"private":true}' > "$CACHE/package.json"
  npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error \
    "$NODE_SPEC" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2
fi
if [[ ! -x "$NODE22" ]]; then
  # `node` installs its binary from an install script; when scripts are disabled, use the
  # platform package directly.
  PLATFORM_PKG="node-$(node -p 'process.platform')-$(node -p 'process.arch')"
  [[ -x "$CACHE/node_modules/$PLATFORM_PKG/bin/node" ]] ||
    npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "$PLATFORM_PKG@22" >&2
  NODE22="$CACHE/node_modules/$PLATFORM_PKG/bin/node"
fi
SUITE_BIN="$SUITE_PKG/dist/index.js"
echo "Node $("$NODE22" --version), @modelcontextprotocol/conformance $(installed_version)" >&2

# --- the client ------------------------------------------------------------------------------
if [[ "${TOOLHOST_CONFORMANCE_SKIP_BUILD:-0}" != "1" ]]; then
  (cd "$ROOT" && pnpm --filter "@toolhost-examples/conformance-client..." build >&2)
fi

# --- expected failures: lines "- `scenario`: reason" between the README markers -------------
BASELINE="$CACHE/expected-failures.yml"
EXPECTED="$(sed -n '/<!-- expected-failures:start -->/,/<!-- expected-failures:end -->/p' "$README" |
  sed -n 's/^- `\([^`]*\)`: *\(..*\)$/  - "\1"/p')"
if [[ -n "$EXPECTED" ]]; then printf 'client:\n%s\n' "$EXPECTED" > "$BASELINE"; else echo 'client: []' > "$BASELINE"; fi
echo "Expected failures listed: $(grep -c '^  - ' "$BASELINE" || true)" >&2

# --- run -------------------------------------------------------------------------------------
RESULTS="$CACHE/results"
rm -rf "$RESULTS"
COMMON=(client --command "$NODE22 $CLIENT_DIR/dist/index.js" -o "$RESULTS" --expected-failures "$BASELINE" --timeout 60000 "${VERBOSE[@]}")
STATUS=0
if [[ -n "$SCENARIO" ]]; then
  "$NODE22" "$SUITE_BIN" "${COMMON[@]}" --scenario "$SCENARIO" || STATUS=$?
elif [[ "$PARALLEL" == "1" || "$SUITE" != "all" ]]; then
  "$NODE22" "$SUITE_BIN" "${COMMON[@]}" --suite "$SUITE" || STATUS=$?
else
  mapfile -t SCENARIOS < <("$NODE22" "$SUITE_BIN" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
  FAILED=()
  for name in "${SCENARIOS[@]}"; do
    echo "--- $name" >&2
    if ! "$NODE22" "$SUITE_BIN" "${COMMON[@]}" --scenario "$name" > "$CACHE/last-run.log" 2>&1; then
      FAILED+=("$name")
      tail -n 25 "$CACHE/last-run.log" >&2
    fi
  done
  [[ ${#FAILED[@]} -eq 0 ]] || { STATUS=1; echo "Scenarios not matching the baseline: ${FAILED[*]}" >&2; }
fi

# --- summary from the saved checks -----------------------------------------------------------
"$NODE22" --input-type=module -e '
  import { readdirSync, readFileSync, existsSync } from "node:fs";
  import { join } from "node:path";
  const root = process.argv[1];
  const dirs = [];
  const walk = (dir) => { for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const p = join(dir, e.name);
    existsSync(join(p, "checks.json")) ? dirs.push(p) : walk(p);
  } };
  if (existsSync(root)) walk(root);
  let ok = 0, bad = 0, checks = { SUCCESS: 0, FAILURE: 0, WARNING: 0 };
  for (const dir of dirs.sort()) {
    const list = JSON.parse(readFileSync(join(dir, "checks.json"), "utf8"));
    const count = (s) => list.filter((c) => c.status === s).length;
    for (const s of Object.keys(checks)) checks[s] += count(s);
    const pass = count("FAILURE") === 0 && count("WARNING") === 0;
    pass ? ok++ : bad++;
    const name = dir.slice(root.length + 1).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    const note = list.length === 0 ? " (no checks recorded)" : "";
    console.log(`${pass ? "PASS" : "FAIL"} ${name}: ${count("SUCCESS")} passed, ${count("FAILURE")} failed, ${count("WARNING")} warnings${note}`);
  }
  console.log(`Scenarios: ${ok} passed, ${bad} failed of ${ok + bad}; checks: ${checks.SUCCESS} passed, ${checks.FAILURE} failed, ${checks.WARNING} warnings`);
' "$RESULTS" >&2
echo "Results: $RESULTS" >&2
exit "$STATUS"
