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

/** Throws `INVALID_SERVER_NAME` for an empty name or a reserved key. */
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
