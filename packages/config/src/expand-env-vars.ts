/** Environment variables to expand from, e.g. `process.env`. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** Options of {@link expandEnvVars}. */
export interface ExpandEnvVarsOptions {
  /**
   * A `process.platform` value. On `win32`, `%VAR%` is expanded too and names are looked up
   * without regard to case, as Windows does. @default process.platform
   */
  readonly platform?: string;
}

// $NAME, ${NAME} and ${NAME:-default}, where the default may hold references itself
// (`${A:-${B:-x}}`). Anything else after `$` (`$(`, `${A B}`, `$1`) is literal text.
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
// %NAME% (Windows only). Windows names may hold parentheses: %ProgramFiles(x86)%.
const PERCENT_NAME = /^%([A-Za-z_][A-Za-z0-9_()]*)%/;

function lookup(env: EnvironmentVariables, name: string, windows: boolean): string | undefined {
  if (Object.prototype.hasOwnProperty.call(env, name)) return env[name];
  if (!windows) return undefined;
  const upper = name.toUpperCase();
  for (const key of Object.keys(env)) if (key.toUpperCase() === upper) return env[key];
  return undefined;
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
 * when it is used), and `%VAR%` when `platform` is `win32`, calling `onUnset` for each `$`
 * variable that has no value and no default. A `%VAR%` that is not set stays as written.
 * Internal: the public entry is {@link expandEnvVars}.
 */
export function expandString(
  text: string,
  env: EnvironmentVariables,
  onUnset?: (name: string) => void,
  platform: string = process.platform,
): string {
  const windows = platform === 'win32';
  if (!text.includes('$') && !(windows && text.includes('%'))) return text;
  const variable = (name: string): string => {
    const value = lookup(env, name, windows);
    if (value === undefined) onUnset?.(name);
    return value ?? '';
  };
  let out = '';
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$', index);
    const percent = windows ? text.indexOf('%', index) : -1;
    if (percent >= 0 && (dollar < 0 || percent < dollar)) {
      out += text.slice(index, percent);
      const match = PERCENT_NAME.exec(text.slice(percent));
      const value = match === null ? undefined : lookup(env, match[1] as string, true);
      if (match !== null && value !== undefined) {
        out += value;
        index = percent + match[0].length;
      } else {
        out += '%';
        index = percent + 1;
      }
      continue;
    }
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
    const value = lookup(env, braced[0], windows);
    out += value === undefined || value === '' ? expandString(text.slice(after + 2, close), env, onUnset, platform) : value;
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
 * - On Windows (`platform` `win32`), `%VAR%` becomes the variable's value too, and names are
 *   compared without regard to case; a `%VAR%` that is not set stays as written, as in `cmd.exe`.
 * - `$(cmd)`, backticks, `$1` and a `$` followed by anything else stay literal text.
 * - A value is never expanded again.
 *
 * @param value - A string, or an array/object containing strings. Other values are returned as is.
 * @param env - The variables to read; pass `process.env` for the current process.
 * @param options - `platform` (default `process.platform`) decides whether `%VAR%` is expanded.
 * @example expandEnvVars('Bearer ${TOKEN}', { TOKEN: 'abc' }) // 'Bearer abc'
 * @example expandEnvVars(['--port', '${PORT:-8080}'], {}) // ['--port', '8080']
 * @example expandEnvVars('${API_URL:-${BASE_URL}/api}', { BASE_URL: 'http://h' }) // 'http://h/api'
 * @example expandEnvVars('%APPDATA%\\srv', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, { platform: 'win32' }) // 'C:\\Users\\me\\AppData\\Roaming\\srv'
 */
export function expandEnvVars<T>(value: T, env: EnvironmentVariables, options: ExpandEnvVarsOptions = {}): T {
  return expandValue(value, (text) => expandString(text, env, undefined, options.platform ?? process.platform)) as T;
}

/**
 * Applies `expand` to every string of a JSON-like value (arrays and plain objects walked, keys
 * kept), passing the path of each string. Internal.
 */
export function expandValue(
  value: unknown,
  expand: (text: string, path: readonly (string | number)[]) => string,
  path: readonly (string | number)[] = [],
): unknown {
  if (typeof value === 'string') return expand(value, path);
  if (Array.isArray(value)) return value.map((item, index) => expandValue(item, expand, [...path, index]));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = expandValue(item, expand, [...path, key]);
    return out;
  }
  return value;
}
