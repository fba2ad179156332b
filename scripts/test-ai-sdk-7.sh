#!/usr/bin/env bash
# Runs the test suite of @toolhost/ai-sdk (packages/ai-sdk/src/*.test.ts) with `ai` 7 and the
# `@ai-sdk/openai` that goes with it, under Node 22 (ai 7 needs it; the `node@22` npm package, see
# scripts/npm-cache.sh). The workspace itself tests `ai` 6 on Node 20; the peer range is `^6 || ^7`.
#
# Both packages are installed, at the exact versions below, into a cache folder (reinstalled when a
# version here changes); vitest.config.ts resolves `ai`, `ai/*` and `@ai-sdk/openai` from it when
# TOOLHOST_AI_SDK_MODULES is set, and src/ai-version.test.ts fails unless the loaded versions are
# these. Build first (`pnpm build`): the tests load the workspace packages' dist.
#
# Usage: scripts/test-ai-sdk-7.sh [vitest args...]   (e.g. src/openai-provider.e2e.test.ts)
# Environment:
#   TOOLHOST_AI_SDK_7_CACHE   where ai 7 is installed (default .tmp/ai-sdk-7)
#   TOOLHOST_NODE22_CACHE     where Node 22 is installed (default .tmp/node22)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${TOOLHOST_AI_SDK_7_CACHE:-$ROOT/.tmp/ai-sdk-7}"
AI_VERSION="7.0.173"
# The @ai-sdk/openai release on the same @ai-sdk/provider (4.0.38) and provider-utils (5.0.81) as
# ai 7.0.173 (`npm view ai@7.0.173 dependencies`, `npm view @ai-sdk/openai@4.0.118 dependencies`).
OPENAI_VERSION="4.0.118"

source "$ROOT/scripts/npm-cache.sh"
NODE22="$(node22)"
if [[ "$(cache_version "$CACHE" ai)" != "$AI_VERSION" || "$(cache_version "$CACHE" @ai-sdk/openai)" != "$OPENAI_VERSION" ]]; then
  # npm (on Node 20) would warn that ai 7 wants Node 22 (--loglevel=error hides it); the tests run on Node 22.
  cache_install "$CACHE" "ai@$AI_VERSION" "@ai-sdk/openai@$OPENAI_VERSION"
fi
echo "Node $("$NODE22" --version), ai $(cache_version "$CACHE" ai), @ai-sdk/openai $(cache_version "$CACHE" @ai-sdk/openai) (from $CACHE)" >&2

cd "$ROOT/packages/ai-sdk"
TOOLHOST_AI_SDK_MODULES="$CACHE" \
  TOOLHOST_EXPECT_AI_VERSION="$AI_VERSION" \
  TOOLHOST_EXPECT_AI_SDK_OPENAI_VERSION="$OPENAI_VERSION" \
  exec "$NODE22" "$ROOT/node_modules/vitest/vitest.mjs" run "$@"
