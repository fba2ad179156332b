/** Environment variables to expand from, e.g. `process.env`. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

// $NAME, ${NAME} and ${NAME:-default}. Anything else after `$` (`$(`, `${A B}`, `$1`) is literal text.
const REFERENCE = /\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\})/g;

function lookup(env: EnvironmentVariables, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
}

/**
 * Expands `$VAR`, `${VAR}` and `${VAR:-default}` in one string, calling `onUnset` for each
 * variable that has no value and no default. Internal: the public entry is {@link expandEnvVars}.
 */
export function expandString(text: string, env: EnvironmentVariables, onUnset?: (name: string) => void): string {
  if (!text.includes('$')) return text;
  return text.replace(REFERENCE, (_match, bare: string | undefined, braced: string | undefined, fallback: string | undefined) => {
    const name = (bare ?? braced) as string;
    const value = lookup(env, name);
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
    if (value === undefined) {
      onUnset?.(name);
      return '';
    }
    return value;
  });
}

/**
 * Replaces environment variable references in a string, or in every string value of an
 * array or plain object (object keys are left alone), without ever running a shell.
 *
 * - `$VAR` and `${VAR}` become the variable's value.
 * - `${VAR:-default}` becomes `default` when `VAR` is unset or empty; the default is used as written.
 * - An unset variable with no default becomes the empty string, as in a POSIX shell.
 * - `$(cmd)`, backticks, `$1` and a `$` followed by anything else stay literal text.
 *
 * @param value - A string, or an array/object containing strings. Other values are returned as is.
 * @param env - The variables to read; pass `process.env` for the current process.
 * @example expandEnvVars('Bearer ${TOKEN}', { TOKEN: 'abc' }) // 'Bearer abc'
 * @example expandEnvVars(['--port', '${PORT:-8080}'], {}) // ['--port', '8080']
 */
export function expandEnvVars<T>(value: T, env: EnvironmentVariables): T {
  return expandValue(value, env) as T;
}

function expandValue(value: unknown, env: EnvironmentVariables): unknown {
  if (typeof value === 'string') return expandString(value, env);
  if (Array.isArray(value)) return value.map((item) => expandValue(item, env));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = expandValue(item, env);
    return out;
  }
  return value;
}
