import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { z } from 'zod';
import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { expandString, type EnvironmentVariables } from './expand-env-vars.js';
import { formatJsonPath, type JsonPathSegment } from './json-path.js';
import { errorAtNode, nodeToValue, type JsoncDocument } from './read-jsonc.js';
import { McpOAuthConfigSchema, McpServerConfigSchema, type McpServerConfig } from './server-config-schema.js';

/** The outcome of checking one `mcpServers` entry. */
export interface ServerEntryResult {
  /** The checked and expanded entry; `undefined` when the entry has an error. */
  readonly config: McpServerConfig | undefined;
  /** The checked entry as written, before environment expansion (safe to display). */
  readonly configAsWritten: McpServerConfig | undefined;
  /** Problems that stopped this entry from loading. */
  readonly errors: ConfigError[];
  /** Problems that did not. */
  readonly warnings: ConfigWarning[];
}

const SERVER_FIELDS = new Set(Object.keys(McpServerConfigSchema.shape));
const OAUTH_FIELDS = new Set(Object.keys(McpOAuthConfigSchema.shape));
const EXPANDED_STRING_FIELDS = ['url', 'httpUrl', 'cwd'] as const;
const EXPANDED_RECORD_FIELDS = ['env', 'headers'] as const;

/**
 * Checks the entry `mcpServers[name]` of a parsed settings file: shape and types, at least one
 * of `command`/`url`/`httpUrl`, unknown fields (warnings), then expands environment variables
 * in `env`, `headers`, `args`, `url`, `httpUrl` and `cwd`.
 */
export function validateServerEntry(options: {
  document: JsoncDocument;
  valueNode: Node;
  serverName: string;
  env: EnvironmentVariables;
}): ServerEntryResult {
  const { document, valueNode, serverName, env } = options;
  const base: JsonPathSegment[] = ['mcpServers', serverName];
  const errors: ConfigError[] = [];
  const warnings: ConfigWarning[] = [];
  const warn = (code: ConfigWarning['code'], path: readonly JsonPathSegment[], text: string): void => {
    const jsonPath = formatJsonPath(path);
    warnings.push({ code, filePath: document.filePath, jsonPath, serverName, message: `${document.filePath}: ${jsonPath}: ${text}` });
  };
  const raw = nodeToValue(valueNode, base, { filePath: document.filePath, warnings, serverName });

  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push(
      errorAtNode(document, valueNode, {
        code: 'INVALID_TYPE',
        path: base,
        serverName,
        problem: `must be an object such as { "command": "npx", "args": [] }, not ${describe(raw)}. The server "${serverName}" was not loaded.`,
      }),
    );
    return { config: undefined, configAsWritten: undefined, errors, warnings };
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!SERVER_FIELDS.has(key)) warn('UNKNOWN_FIELD', [...base, key], `unknown field "${key}" is ignored. Check its spelling.`);
  }
  const oauth = entry['oauth'];
  if (oauth !== null && typeof oauth === 'object' && !Array.isArray(oauth)) {
    for (const key of Object.keys(oauth)) {
      if (!OAUTH_FIELDS.has(key))
        warn('UNKNOWN_FIELD', [...base, 'oauth', key], `unknown OAuth field "${key}" is ignored. Check its spelling.`);
    }
  }

  const parsed = McpServerConfigSchema.safeParse(entry);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors.push(issueToError(document, valueNode, base, serverName, issue));
    return { config: undefined, configAsWritten: undefined, errors, warnings };
  }
  const config = parsed.data;
  if (!config.command && !config.url && !config.httpUrl) {
    errors.push(
      errorAtNode(document, valueNode, {
        code: 'MISSING_TRANSPORT',
        path: base,
        serverName,
        problem: `the server "${serverName}" has none of "command", "url" or "httpUrl", so there is nothing to start or connect to. Add one of them; the server was not loaded.`,
      }),
    );
    return { config: undefined, configAsWritten: undefined, errors, warnings };
  }
  const used = config.httpUrl ? 'httpUrl' : config.url ? 'url' : 'command';
  const ignored = (['httpUrl', 'url', 'command'] as const).filter((key) => key !== used && config[key]);
  if (ignored.length > 0) {
    warn(
      'CONFLICTING_TRANSPORT',
      base,
      `"${used}" is used and ${ignored.map((key) => `"${key}"`).join(' and ')} ignored. Keep only one of them.`,
    );
  }
  return { config: expandEntry(config, base, env, warn), configAsWritten: config, errors, warnings };
}

function expandEntry(
  config: McpServerConfig,
  base: JsonPathSegment[],
  env: EnvironmentVariables,
  warn: (code: ConfigWarning['code'], path: readonly JsonPathSegment[], text: string) => void,
): McpServerConfig {
  const out: McpServerConfig = { ...config };
  const expand = (value: string, path: JsonPathSegment[]): string =>
    expandString(value, env, (name) =>
      warn(
        'UNSET_ENV_VAR',
        path,
        `the environment variable "${name}" is not set and has no default, so it became an empty string. Set it, or write \${${name}:-default}.`,
      ),
    );
  for (const field of EXPANDED_STRING_FIELDS) {
    const value = out[field];
    if (value !== undefined) out[field] = expand(value, [...base, field]);
  }
  if (out.args !== undefined) out.args = out.args.map((arg, index) => expand(arg, [...base, 'args', index]));
  for (const field of EXPANDED_RECORD_FIELDS) {
    const record = out[field];
    if (record === undefined) continue;
    const expanded: Record<string, string> = {};
    for (const [key, value] of Object.entries(record)) expanded[key] = expand(value, [...base, field, key]);
    out[field] = expanded;
  }
  return out;
}

function issueToError(
  document: JsoncDocument,
  valueNode: Node,
  base: JsonPathSegment[],
  serverName: string,
  issue: z.core.$ZodIssue,
): ConfigError {
  const relative = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  const node = findNodeAtLocation(valueNode, relative) ?? valueNode;
  return errorAtNode(document, node, {
    code: issue.code === 'invalid_type' ? 'INVALID_TYPE' : 'INVALID_VALUE',
    path: [...base, ...relative],
    serverName,
    problem: `${issue.message}. Fix this value; the server "${serverName}" was not loaded.`,
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
