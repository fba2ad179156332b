/**
 * Variable names always passed to a stdio server, even when they look like secrets
 * (they are needed to find programs, home folders, locales and temp folders).
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
  'NODE_EXTRA_CA_CERTS',
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
];

/**
 * Names removed from the inherited environment: anything containing TOKEN, SECRET, PASSWORD,
 * PASSWD, KEY, AUTH, CREDENTIAL, CREDS, PRIVATE, CERT or COOKIE (any case), plus
 * variables that hold connection strings or account ids (`*_URI`/`*_URL` with `DB`/`DATABASE`,
 * `CONNECTION_STRING`, `CLIENT_ID`, `WEBHOOK`, `ACCOUNT_SID`).
 */
export const SECRET_ENV_NAME_PATTERN =
  /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT|COOKIE|CONNECTION_STRING|CLIENT_ID|WEBHOOK|ACCOUNT_SID|DATABASE_URL|DB_URI|DB_URL/i;

/** Values removed whatever their name: private keys, URLs with a password, well-known token formats, JWTs. */
export const SECRET_ENV_VALUE_PATTERN =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----|[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@|\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}|\bAIza[0-9A-Za-z_-]{30,}|\bAKIA[0-9A-Z]{16}\b|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|\b[sr]k_(?:live|test)_[0-9A-Za-z]{20,}|\bxox[abpr]-[0-9A-Za-z-]{10,}|\bsk-[A-Za-z0-9_-]{20,}/;

/** Options of {@link sanitizeEnvironment}. */
export interface SanitizeEnvironmentOptions {
  /** Extra names to keep even if they look secret (exact names). */
  allow?: readonly string[];
  /** Extra names to remove (exact names). */
  block?: readonly string[];
}

/**
 * Returns a copy of `env` without secret-looking variables, for a stdio child. Names in
 * {@link ALWAYS_INHERITED_ENV_VARS} and `allow` are kept; names matching
 * {@link SECRET_ENV_NAME_PATTERN} or in `block`, values matching {@link SECRET_ENV_VALUE_PATTERN},
 * undefined values and exported shell functions (values starting with `()`) are removed.
 * The server entry's own `env` is added after this step by the caller and is never removed.
 */
export function sanitizeEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: SanitizeEnvironmentOptions = {},
): Record<string, string> {
  const allow = new Set([...ALWAYS_INHERITED_ENV_VARS, ...(options.allow ?? [])]);
  const block = new Set(options.block ?? []);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.startsWith('()')) continue;
    if (block.has(name)) continue;
    if (!allow.has(name) && (SECRET_ENV_NAME_PATTERN.test(name) || SECRET_ENV_VALUE_PATTERN.test(value))) continue;
    result[name] = value;
  }
  return result;
}
