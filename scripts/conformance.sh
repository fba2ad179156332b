#!/usr/bin/env bash
# Runs the official MCP conformance suite (every client scenario) against
# examples/conformance-client, with Node 22 from the `node@22` npm package.
#
# Usage: scripts/conformance.sh [--suite all|core|auth|...] [--scenario NAME] [--verbose]
# Environment:
#   TOOLHOST_CONFORMANCE_CACHE   where Node 22 and the suite are installed (default .tmp/conformance)
#   TOOLHOST_CONFORMANCE_SKIP_BUILD=1   do not build the client first
#
# Exit status: non-zero when a scenario fails that is not listed, with a reason, under
# "Expected failures" in examples/conformance-client/README.md, or when a listed one passes
# (a stale entry). The suite enforces both through its --expected-failures baseline.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${TOOLHOST_CONFORMANCE_CACHE:-$ROOT/.tmp/conformance}"
CONFORMANCE_VERSION="0.1.16"
NODE_SPEC="node@22"
CLIENT_DIR="$ROOT/examples/conformance-client"
README="$CLIENT_DIR/README.md"

SUITE="all"
EXTRA=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --suite) SUITE="$2"; shift 2 ;;
    --scenario) EXTRA+=(--scenario "$2"); SUITE=""; shift 2 ;;
    --verbose) EXTRA+=(--verbose); shift ;;
    *) echo "conformance.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$CACHE"
NODE22="$CACHE/node_modules/node/bin/node"
SUITE_BIN="$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
installed_version() {
  node -e 'try{console.log(require(process.argv[1]).version)}catch{}' "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json"
}
if [[ ! -x "$NODE22" || ! -f "$SUITE_BIN" || "$(installed_version)" != "$CONFORMANCE_VERSION" ]]; then
  echo "Installing $NODE_SPEC and @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into $CACHE" >&2
  [[ -f "$CACHE/package.json" ]] || echo '{"private":true}' > "$CACHE/package.json"
  npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error \
    "$NODE_SPEC" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2
fi
if [[ ! -x "$NODE22" ]]; then
  # The `node` package installs its binary from a postinstall script; if scripts are disabled,
  # install the platform package directly.
  PLATFORM_PKG="node-$(node -p 'process.platform')-$(node -p 'process.arch')@22"
  npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "$PLATFORM_PKG" >&2
  NODE22="$CACHE/node_modules/${PLATFORM_PKG%@22}/bin/node"
fi
echo "Node: $("$NODE22" --version), suite: $(installed_version)" >&2

if [[ "${TOOLHOST_CONFORMANCE_SKIP_BUILD:-0}" != "1" ]]; then
  (cd "$ROOT" && pnpm --filter @toolhost-examples/conformance-client... build >&2)
fi

# Expected failures: lines "- `scenario`: reason" between the markers in the README.
BASELINE="$CACHE/expected-failures.yml"
EXPECTED="$(sed -n '/<!-- expected-failures:start -->/,/<!-- expected-failures:end -->/p' "$README" |
  sed -n 's/^- `\([^`]*\)`: *\(..*\)$/  - "\1"/p')"
if [[ -n "$EXPECTED" ]]; then printf 'client:\n%s\n' "$EXPECTED" > "$BASELINE"; else echo 'client: []' > "$BASELINE"; fi
echo "Expected failures: $(grep -c '^  - ' "$BASELINE" || true)" >&2

RESULTS="$CACHE/results"
rm -rf "$RESULTS"
ARGS=(client --command "$NODE22 $CLIENT_DIR/dist/index.js" -o "$RESULTS" --expected-failures "$BASELINE" --timeout 60000)
[[ -n "$SUITE" ]] && ARGS+=(--suite "$SUITE")
set +e
"$NODE22" "$SUITE_BIN" "${ARGS[@]}" "${EXTRA[@]}"
STATUS=$?
set -e
echo "Results: $RESULTS" >&2
exit "$STATUS"
