import { parse, type ParseEntry } from 'shell-quote';
import type { EnvironmentVariables } from './expand-env-vars.js';
import { expandString } from './expand-env-vars.js';
import type { McpServerConfig } from './server-config-schema.js';

/** Name of the server that `mcp.serverCommand` defines, as in Gemini CLI. */
export const SERVER_COMMAND_SERVER_NAME = 'mcp';

/** `mcp.serverCommand` split into a server entry, or why it cannot be. */
export type ParsedServerCommand =
  | {
      /** `{ command, args }` with environment variables expanded. */
      readonly config: McpServerConfig;
      /** `{ command, args }` as written (references kept, as `${NAME}`). */
      readonly configAsWritten: McpServerConfig;
      readonly problem?: undefined;
    }
  | { readonly config?: undefined; readonly configAsWritten?: undefined; /** What is wrong, in words. */ readonly problem: string };

const REFERENCE = /^[A-Za-z_][A-Za-z0-9_]*(?::-.*)?$/s;

function describeToken(token: Exclude<ParseEntry, string>): string {
  if ('comment' in token) return `a "#" comment`;
  if (token.op === 'glob') return `the pattern "${token.pattern}"`;
  return `the shell operator "${token.op}"`;
}

/**
 * Splits a `mcp.serverCommand` string into a command and its arguments the way a POSIX shell
 * splits words (quotes and backslashes, through the `shell-quote` package), without running a
 * shell: `$VAR`, `${VAR}` and `${VAR:-default}` are replaced inside each word (so a value with
 * spaces stays one argument), `%VAR%` too on Windows. Pipes, redirections, `;`, `&&`, globs and
 * comments are refused, as Gemini CLI refuses them. Returns `undefined` for an empty command.
 */
export function parseServerCommand(
  text: string,
  env: EnvironmentVariables,
  platform: string,
  onUnset: (name: string) => void,
): ParsedServerCommand | undefined {
  let tokens: ParseEntry[];
  try {
    // Each reference is put back as `${NAME}` (or as written when it is not a name), then expanded
    // per word below: a value is never split into words nor read as quotes.
    tokens = parse(text, (key: string) => (REFERENCE.test(key) ? `\${${key}}` : `$${key}`));
  } catch (error) {
    return { problem: `it cannot be split into words (${(error as Error).message})` };
  }
  const words: string[] = [];
  for (const token of tokens) {
    if (typeof token !== 'string') {
      return {
        problem: `it holds ${describeToken(token)}, which needs a shell, and no shell is run. Give one command and its arguments (quote any special character), or use an "mcpServers" entry`,
      };
    }
    words.push(token);
  }
  const [command, ...args] = words;
  if (command === undefined) return undefined;
  const expanded = words.map((word) => expandString(word, env, onUnset, platform));
  const [expandedCommand = '', ...expandedArgs] = expanded;
  if (expandedCommand === '') {
    return {
      problem: `its command "${command}" is empty once environment variables are expanded (see the UNSET_ENV_VAR warning). Set the variable, or give a default with \${NAME:-default}`,
    };
  }
  return { config: { command: expandedCommand, args: expandedArgs }, configAsWritten: { command, args } };
}
