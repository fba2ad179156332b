import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { z } from 'zod';
import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { expandString, expandValue, type EnvironmentVariables } from './expand-env-vars.js';
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

/** Reports an unset variable met while expanding the string at `path`. */
export type UnsetVariableReporter = (name: string, path: readonly JsonPathSegment[]) => void;

/**
 * Expands every string of a settings value (object keys and non-strings left alone), reporting
 * each unset `$VAR` with the JSON path of its string. Internal.
 */
export function expandSettingsValue(
  value: unknown,
  base: readonly JsonPathSegment[],
  env: EnvironmentVariables,
  platform: string,
  onUnset: UnsetVariableReporter,
): unknown {
  return expandValue(value, (text, path) => expandString(text, env, (name) => onUnset(name, path), platform), base);
}

/** The text of an `UNSET_ENV_VAR` warning. */
export function unsetVariableText(name: string): string {
  return `the environment variable "${name}" is not set and has no default, so it became an empty string. Set it (in the environment or a .env file), or write \${${name}:-default}.`;
}

/**
 * Checks the entry `mcpServers[name]` of a parsed settings file: expands environment variables in
 * every string of it (as Gemini CLI does at settings load), then checks shape and types, at least
 * one of `command`/`url`/`httpUrl` as written, and unknown fields (warnings).
 */
export function validateServerEntry(options: {
  document: JsoncDocument;
  valueNode: Node;
  serverName: string;
  env: EnvironmentVariables;
  /** A `process.platform` value: `win32` also expands `%VAR%`. @default process.platform */
  platform?: string;
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

  // Every string is expanded before the checks, as Gemini CLI does (so `"type": "${T}"` works);
  // the entry as written is kept for display and for pinning.
  const expanded = expandSettingsValue(entry, [], env, options.platform ?? process.platform, (name, path) =>
    warn('UNSET_ENV_VAR', [...base, ...path], unsetVariableText(name)),
  );
  const parsed = McpServerConfigSchema.safeParse(expanded);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors.push(issueToError(document, valueNode, base, serverName, issue));
    return { config: undefined, configAsWritten: undefined, errors, warnings };
  }
  const config = parsed.data;
  // Same types as `config` (expansion only changes the text of strings).
  const written = entry as McpServerConfig;
  if (!written.command && !written.url && !written.httpUrl) {
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
  const used = written.httpUrl ? 'httpUrl' : written.url ? 'url' : 'command';
  const ignored = (['httpUrl', 'url', 'command'] as const).filter((key) => key !== used && written[key]);
  if (ignored.length > 0) {
    warn(
      'CONFLICTING_TRANSPORT',
      base,
      `"${used}" is used and ${ignored.map((key) => `"${key}"`).join(' and ')} ignored. Keep only one of them.`,
    );
  }
  if (!config[used]) {
    errors.push(
      errorAtNode(document, findNodeAtLocation(valueNode, [used]) ?? valueNode, {
        code: 'INVALID_VALUE',
        path: [...base, used],
        serverName,
        problem: `"${written[used] ?? ''}" is empty once environment variables are expanded (see the UNSET_ENV_VAR warning). Set the variable, or give a default with \${NAME:-default}; the server "${serverName}" was not loaded.`,
      }),
    );
    return { config: undefined, configAsWritten: undefined, errors, warnings };
  }
  return { config, configAsWritten: written, errors, warnings };
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
