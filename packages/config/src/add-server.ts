import { escapeControlText } from '@toolhost/contract';
import { ConfigError } from './config-error.js';
import { setJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';
import { formatJsonPath } from './json-path.js';
import { FORBIDDEN_KEYS } from './read-jsonc.js';
import { McpServerConfigSchema, type McpServerConfig } from './server-config-schema.js';
import { getWritableSettingsFilePath, type SettingsLocation, type WritableSettingsScope } from './settings-paths.js';

/** Options of {@link addServer}. */
export interface AddServerOptions extends SettingsLocation {
  /** Settings file to write: `user` or `project`. */
  readonly scope: WritableSettingsScope;
  /** Key under `mcpServers`. */
  readonly name: string;
  /** The entry, written as given (no environment expansion). */
  readonly config: McpServerConfig;
}

/** What {@link addServer} did. */
export interface AddServerResult {
  /** The file that was written. */
  readonly filePath: string;
  /** True when an entry with this name existed in that file and was replaced. */
  readonly replaced: boolean;
}

/**
 * Adds or replaces `mcpServers[name]` in the user or project settings file, keeping every
 * comment, the formatting and all other settings. The file is created if needed and written
 * atomically. The entry is checked first; on any error the file is left unchanged.
 *
 * @example
 * await addServer({ scope: 'project', projectDir, name: 'github', config: { command: 'npx', args: ['-y', 'server-github'] } });
 */
export async function addServer(options: AddServerOptions): Promise<AddServerResult> {
  assertServerName(options.name);
  const filePath = getWritableSettingsFilePath(options.scope, options);
  checkEntry(options.name, options.config, filePath);
  return editTextFile(filePath, (text) => {
    const edited = setJsoncProperty(text ?? '', { objectPath: ['mcpServers'], key: options.name, value: options.config, filePath });
    return { text: edited.text, result: { filePath, replaced: edited.replaced } };
  });
}

/**
 * Throws `INVALID_SERVER_NAME` for a name a new entry cannot get: empty, a reserved key, or one
 * the tool naming cannot carry unchanged. A server name must use only letters, digits, `_`, `.`
 * and `-`, and must neither contain `__` nor end with `_`, so that `serverName__toolName` stays
 * readable and maps back to one server (`a__b` with tool `c` and `a` with tool `b__c` would both
 * give `a__b__c`).
 */
export function assertServerName(name: string): void {
  if (name.trim() === '' || FORBIDDEN_KEYS.has(name)) {
    throw new ConfigError({
      code: 'INVALID_SERVER_NAME',
      serverName: name,
      message:
        name.trim() === ''
          ? 'A server name cannot be empty. Choose a name such as "github".'
          : `"${name}" cannot be used as a server name. Choose another name.`,
    });
  }
  const problem = !SERVER_NAME_CHARACTERS.test(name)
    ? 'it may use only letters, digits, "_", "." and "-"'
    : name.includes('__')
      ? 'it cannot contain "__"'
      : name.endsWith('_')
        ? 'it cannot end with "_"'
        : undefined;
  if (problem !== undefined) {
    const suggestion = suggestServerName(name);
    throw new ConfigError({
      code: 'INVALID_SERVER_NAME',
      serverName: name,
      message: `"${escapeControlText(name, { maxLength: 100 })}" cannot be used as a server name: ${problem}, so that its tools can be named "<server>__<tool>" unambiguously.${suggestion ? ` Use a name such as "${suggestion}".` : ' Choose a name such as "github".'}`,
    });
  }
}

const SERVER_NAME_CHARACTERS = /^[A-Za-z0-9_.-]+$/;

function suggestServerName(name: string): string | undefined {
  const suggestion = name
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^-+|[-_]+$/g, '');
  return suggestion !== '' && !FORBIDDEN_KEYS.has(suggestion) ? suggestion : undefined;
}

/** A `$VAR` or `${VAR}` reference: such a URL is only known once the settings are loaded. */
const ENV_REFERENCE = /\$\{?[A-Za-z_]/;

/**
 * Why `value` is not a URL an MCP client can reach (`undefined` when it is one): it must parse,
 * use `http:` or `https:` and name a host. A value with `$VAR` references is not checked here:
 * it is expanded when the settings are loaded.
 */
export function describeInvalidServerUrl(value: string): string | undefined {
  if (ENV_REFERENCE.test(value)) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'it contains spaces or control characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    if (/^[a-z][a-z0-9+.-]*:\/\/(?:[/?#]|$)/i.test(value)) return 'it has no host (write it as "https://host/path")';
    return /^[a-z][a-z0-9+.-]*:/i.test(value) ? 'it is not a valid URL' : 'it is not a URL (it has no "https://" or "http://")';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `its scheme is "${url.protocol.slice(0, -1)}", not http or https`;
  // The WHATWG parser forgives `https:host` and `https:///host`; a settings entry should not rely on it.
  if (url.hostname === '' || !/^https?:\/\/[^/?#]/i.test(value)) return 'it has no host (write it as "https://host/path")';
  return undefined;
}

function checkEntry(name: string, config: McpServerConfig, filePath: string): void {
  const parsed = McpServerConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = formatJsonPath([
      'mcpServers',
      name,
      ...(issue?.path ?? []).filter((segment): segment is string | number => typeof segment !== 'symbol'),
    ]);
    throw new ConfigError({
      code: issue?.code === 'invalid_type' ? 'INVALID_TYPE' : 'INVALID_VALUE',
      filePath,
      jsonPath: path,
      serverName: name,
      message: `${path}: ${issue?.message ?? 'invalid entry'}. Fix the value; ${filePath} was not changed.`,
    });
  }
  for (const field of ['httpUrl', 'url'] as const) {
    const value = config[field];
    const problem = value ? describeInvalidServerUrl(value) : undefined;
    if (value && problem) {
      const path = formatJsonPath(['mcpServers', name, field]);
      throw new ConfigError({
        code: 'INVALID_VALUE',
        filePath,
        jsonPath: path,
        serverName: name,
        message: `${path}: "${escapeControlText(value, { maxLength: 200 })}" cannot be used: ${problem}. Give the server's full URL, such as "https://example.com/mcp"; ${filePath} was not changed.`,
      });
    }
  }
  if (!config.command && !config.url && !config.httpUrl) {
    throw new ConfigError({
      code: 'MISSING_TRANSPORT',
      filePath,
      jsonPath: formatJsonPath(['mcpServers', name]),
      serverName: name,
      message: `The server "${name}" needs a non-empty "command", "url" or "httpUrl". Give a command or a URL; ${filePath} was not changed.`,
    });
  }
}
