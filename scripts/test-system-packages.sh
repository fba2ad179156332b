#!/usr/bin/env bash
# Installs the system packages the test suite needs when they are missing (Debian/Ubuntu, apt-get):
# - chromium: the OAuth end-to-end and browser tests drive it through playwright-core (skipped
#   when TOOLHOST_CHROMIUM or CHROME_PATH names a browser, or one is on PATH);
# - redis-server and postgresql: the @toolhost/stores tests (and examples/multi-user-server's)
#   start a real Redis and PostgreSQL on loopback.
# Run by `npm test` and by .ci/run. Without apt-get, or without the rights to use it, it says what
# to install and fails.
set -euo pipefail
missing=()
if [ -z "${TOOLHOST_CHROMIUM:-}${CHROME_PATH:-}" ] && ! command -v chromium chromium-browser google-chrome google-chrome-stable >/dev/null 2>&1; then
  missing+=(chromium)
fi
if [ -z "${TOOLHOST_REDIS_SERVER:-}" ] && ! command -v redis-server >/dev/null 2>&1; then missing+=(redis-server); fi
if [ -z "${TOOLHOST_PG_BIN:-}" ] && ! compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null; then missing+=(postgresql); fi
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "installing the system packages the tests need: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo_cmd=(sudo -n)
if command -v apt-get >/dev/null 2>&1 \
  && "${sudo_cmd[@]}" apt-get update -qq \
  && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null; then
  exit 0
fi
echo "could not install ${missing[*]}: install them (Debian/Ubuntu: apt-get install ${missing[*]}), or set TOOLHOST_CHROMIUM, TOOLHOST_REDIS_SERVER, TOOLHOST_PG_BIN" >&2
exit 1
