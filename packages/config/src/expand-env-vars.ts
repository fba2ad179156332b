/** Environment variables to expand from, e.g. `process.env`. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

// $NAME, ${NAME} and ${NAME:-default}, where the default may hold references itself
// (`${A:-${B:-x}}`). Anything else after `$` (`$(`, `${A B}`, `$1`) is literal text.
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function lookup(env: EnvironmentVariables, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
}

/** Index of the `}` that closes a default starting at `from`, skipping nested `${...}`; -1 if there is none. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let index = from; index < text.length; index++) {
    if (text.startsWith('${', index)) {
      depth++;
      index++;
    } else if (text[index] === '}') {
      if (depth === 0) return index;
      depth--;
    }
  }
  return -1;
}

/**
 * Expands `$VAR`, `${VAR}` and `${VAR:-default}` in one string (the default is expanded too, only
 * when it is used), calling `onUnset` for each variable that has no value and no default.
 * Internal: the public entry is {@link expandEnvVars}.
 */
export function expandString(text: string, env: EnvironmentVariables, onUnset?: (name: string) => void): string {
  if (!text.includes('$')) return text;
  const variable = (name: string): string => {
    const value = lookup(env, name);
    if (value === undefined) onUnset?.(name);
    return value ?? '';
  };
  let out = '';
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$', index);
    if (dollar < 0) break;
    out += text.slice(index, dollar);
    index = dollar + 1;
    const bare = NAME.exec(text.slice(index));
    if (bare !== null) {
      out += variable(bare[0]);
      index += bare[0].length;
      continue;
    }
    const braced = text[index] === '{' ? NAME.exec(text.slice(index + 1)) : null;
    if (braced === null) {
      out += '$';
      continue;
    }
    const after = index + 1 + braced[0].length;
    if (text[after] === '}') {
      out += variable(braced[0]);
      index = after + 1;
      continue;
    }
    const close = text.startsWith(':-', after) ? closingBrace(text, after + 2) : -1;
    if (close < 0) {
      out += '$';
      continue;
    }
    const value = lookup(env, braced[0]);
    out += value === undefined || value === '' ? expandString(text.slice(after + 2, close), env, onUnset) : value;
    index = close + 1;
  }
  return out + text.slice(index);
}

/**
 * Replaces environment variable references in a string, or in every string value of an
 * array or plain object (object keys are left alone), without ever running a shell.
 *
 * - `$VAR` and `${VAR}` become the variable's value.
 * - `${VAR:-default}` becomes `default` when `VAR` is unset or empty. The default is expanded the
 *   same way (only when it is used), so `${A:-${B:-x}}` and `${A:-$B}` work as in a POSIX shell.
 * - An unset variable with no default becomes the empty string, as in a POSIX shell.
 * - `$(cmd)`, backticks, `$1` and a `$` followed by anything else stay literal text.
 *
 * @param value - A string, or an array/object containing strings. Other values are returned as is.
 * @param env - The variables to read; pass `process.env` for the current process.
 * @example expandEnvVars('Bearer ${TOKEN}', { TOKEN: 'abc' }) // 'Bearer abc'
 * @example expandEnvVars(['--port', '${PORT:-8080}'], {}) // ['--port', '8080']
 * @example expandEnvVars('${API_URL:-${BASE_URL}/api}', { BASE_URL: 'http://h' }) // 'http://h/api'
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
