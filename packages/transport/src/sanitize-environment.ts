/**
 * The variable names a stdio server inherits from the host (besides `LC_*`, see
 * {@link INHERITED_ENV_NAME_PATTERN}, and the names given in `allow`): what is needed to find
 * programs, home and temp folders, the locale, the terminal, certificates and proxies. Nothing
 * else is inherited (`NODE_EXTRA_CA_CERTS` only by package runners, see
 * {@link PACKAGE_RUNNER_INHERITED_ENV_VARS}): in particular not `NODE_OPTIONS`, `LD_PRELOAD`, `DYLD_*` or
 * `PYTHONSTARTUP`, which would run code inside the server. An entry's own `env` can still set
 * any of them. On Windows names are compared without regard to case.
 */
export const ALWAYS_INHERITED_ENV_VARS: readonly string[] = [
  'PATH',
  'Path',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'LANG',
  'LANGUAGE',
  'TMPDIR',
  'TEMP',
  'TMP',
  'TZ',
  'PWD',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'PROGRAMFILES',
  'PROCESSOR_ARCHITECTURE',
  'USERNAME',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
];

/**
 * Names a stdio server started through a package runner (`npx`, `pnpm dlx`, `uvx`...; see
 * `packageRunnerOf`) inherits on top of {@link ALWAYS_INHERITED_ENV_VARS}: the runner may download
 * the package first, and behind a TLS-inspecting proxy that download needs the proxy's authority.
 * Other servers do not inherit it by default: every Node.js child given `NODE_EXTRA_CA_CERTS`
 * parses the whole bundle at start (about a quarter more CPU per start with a system bundle of
 * 140 certificates). A server that needs it gets it from its entry's `env`
 * (`"NODE_EXTRA_CA_CERTS": "$NODE_EXTRA_CA_CERTS"`) or from `environment.allow`.
 */
export const PACKAGE_RUNNER_INHERITED_ENV_VARS: readonly string[] = ['NODE_EXTRA_CA_CERTS'];

/** Inherited names matched by pattern rather than listed: the locale categories `LC_*`. */
export const INHERITED_ENV_NAME_PATTERN = /^LC_[A-Z_]+$/;

/**
 * Secret-looking names: anything containing TOKEN, SECRET, PASSWORD, PASSWD, KEY, AUTH,
 * CREDENTIAL, CREDS, PRIVATE, CERT or COOKIE (any case), plus variables that hold connection
 * strings or account ids (`*_URI`/`*_URL` with `DB`/`DATABASE`, `CONNECTION_STRING`,
 * `CLIENT_ID`, `WEBHOOK`, `ACCOUNT_SID`). {@link sanitizeEnvironment} no longer needs it (it
 * inherits only listed names); kept for callers that screen variables themselves.
 */
export const SECRET_ENV_NAME_PATTERN =
  /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT|COOKIE|CONNECTION_STRING|CLIENT_ID|WEBHOOK|ACCOUNT_SID|DATABASE_URL|DB_URI|DB_URL/i;

/** Values removed whatever their name (unless the name is in `allow`): private keys, URLs with a password, well-known token formats, JWTs. */
export const SECRET_ENV_VALUE_PATTERN =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----|[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@|\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}|\bAIza[0-9A-Za-z_-]{30,}|\bAKIA[0-9A-Z]{16}\b|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|\b[sr]k_(?:live|test)_[0-9A-Za-z]{20,}|\bxox[abpr]-[0-9A-Za-z-]{10,}|\bsk-[A-Za-z0-9_-]{20,}/;

/** Options of {@link sanitizeEnvironment}. */
export interface SanitizeEnvironmentOptions {
  /** Extra names to inherit besides {@link ALWAYS_INHERITED_ENV_VARS} (exact names), whatever their values. */
  allow?: readonly string[];
  /** Names never inherited, even listed ones (exact names). */
  block?: readonly string[];
  /** Platform whose name rules apply (Windows: case-insensitive names). @default process.platform */
  platform?: NodeJS.Platform;
}

/**
 * Returns the part of `env` a stdio child inherits: only the names in
 * {@link ALWAYS_INHERITED_ENV_VARS}, `LC_*` and `allow` (an allowlist, so `NODE_OPTIONS`,
 * `LD_PRELOAD` and the host's secrets stay out). Names in `block`, undefined values, exported
 * shell functions (values starting with `()`) and, for names not in `allow`, values matching
 * {@link SECRET_ENV_VALUE_PATTERN} (a proxy URL with a password...) are removed.
 * The server entry's own `env` is added after this step by the caller and is never removed.
 * @example
 * sanitizeEnvironment({ PATH: '/usr/bin', NODE_OPTIONS: '--require=x.js', GITHUB_TOKEN: 't' }); // { PATH: '/usr/bin' }
 */
export function sanitizeEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: SanitizeEnvironmentOptions = {},
): Record<string, string> {
  const windows = (options.platform ?? globalThis.process?.platform) === 'win32';
  const key = (name: string): string => (windows ? name.toUpperCase() : name);
  const listed = new Set(ALWAYS_INHERITED_ENV_VARS.map(key));
  const allow = new Set((options.allow ?? []).map(key));
  const block = new Set((options.block ?? []).map(key));
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.startsWith('()')) continue;
    const id = key(name);
    if (block.has(id)) continue;
    if (allow.has(id)) {
      result[name] = value;
      continue;
    }
    if (!listed.has(id) && !INHERITED_ENV_NAME_PATTERN.test(id)) continue;
    if (SECRET_ENV_VALUE_PATTERN.test(value)) continue;
    result[name] = value;
  }
  return result;
}
