# shellcheck shell=bash
# Shared by the scripts that install npm packages into a cache folder under .tmp/ and run them
# (conformance.sh, test-ai-sdk-7.sh). Source it: `source "$ROOT/scripts/npm-cache.sh"` (ROOT: the
# repository). Progress goes to stderr.
#
# Environment:
#   TOOLHOST_NODE22_CACHE   where node22 installs Node 22 (default .tmp/node22)

# cache_version <cache> <package>: the version of <package> installed in <cache>, or nothing.
cache_version() {
  node -e 'try{console.log(require(process.argv[1]).version)}catch{}' "$1/node_modules/$2/package.json"
}

# cache_install <cache> <spec>...: makes <cache> an npm prefix holding exactly these packages.
cache_install() {
  local cache="$1"
  shift
  echo "Installing $* into $cache" >&2
  mkdir -p "$cache"
  echo '{"private":true}' > "$cache/package.json"
  npm install --prefix "$cache" --no-audit --no-fund --loglevel=error --save-exact "$@" >&2
}

# node22: prints the path of a Node 22 binary, from the `node@22` npm package, installed once.
node22() {
  local cache="${TOOLHOST_NODE22_CACHE:-$ROOT/.tmp/node22}"
  local bin="$cache/node_modules/node/bin/node"
  [[ -x "$bin" ]] || cache_install "$cache" node@22
  if [[ ! -x "$bin" ]]; then
    # `node` installs its binary from an install script; when scripts are disabled, use the
    # platform package directly.
    local platform_pkg
    platform_pkg="node-$(node -p 'process.platform')-$(node -p 'process.arch')"
    [[ -x "$cache/node_modules/$platform_pkg/bin/node" ]] ||
      npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "$platform_pkg@22" >&2
    bin="$cache/node_modules/$platform_pkg/bin/node"
  fi
  local version
  version="$("$bin" --version)"
  [[ "$version" == v22.* ]] || { echo "$bin is Node $version, not 22: delete $cache and run again" >&2; return 1; }
  echo "$bin"
}
