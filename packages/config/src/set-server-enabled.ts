import { ConfigError } from './config-error.js';
import { removeJsoncProperty, setJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';
import { loadSettings, type LoadSettingsOptions } from './load-settings.js';
import { normalizeServerName } from './server-access-policy.js';

/** Options of {@link setServerEnabled}. */
export interface SetServerEnabledOptions extends LoadSettingsOptions {
  /** Server to change; letter case and surrounding spaces do not matter. */
  readonly name: string;
  /** `false` records the server as disabled; `true` removes that record. */
  readonly enabled: boolean;
}

/** What {@link setServerEnabled} did. */
export interface SetServerEnabledResult {
  /** The server's name as configured. */
  readonly name: string;
  /** The enablement file. */
  readonly filePath: string;
  /** False when the server was already in the requested state. */
  readonly changed: boolean;
}

/**
 * Enables or disables a configured server persistently, in `~/<appDir>/mcp-server-enablement.json`
 * (`{ "<name>": { "enabled": false } }`, keys normalized, as Gemini CLI does).
 * Throws `SERVER_NOT_FOUND` for a name no scope configures, and `SERVER_BLOCKED` when enabling a
 * server that is blocked (by `mcp.allowed`/`mcp.excluded`, or because its project folder is not trusted).
 */
export async function setServerEnabled(options: SetServerEnabledOptions): Promise<SetServerEnabledResult> {
  const settings = await loadSettings(options);
  const server = settings.getServer(options.name);
  if (server === undefined) {
    throw new ConfigError({
      code: 'SERVER_NOT_FOUND',
      serverName: options.name,
      message: `Server '${options.name}' not found in any settings file. Check the name against the configured servers.`,
    });
  }
  if (options.enabled && server.blockReason !== undefined) {
    throw new ConfigError({
      code: 'SERVER_BLOCKED',
      serverName: server.name,
      message:
        server.blockReason.code === 'UNTRUSTED_PROJECT' || server.blockReason.code === 'CHANGED_SINCE_TRUSTED'
          ? server.blockReason.message
          : `${server.blockReason.message} Change mcp.allowed or mcp.excluded before enabling it.`,
    });
  }
  const filePath = settings.enablementFilePath;
  const key = normalizeServerName(server.name);
  const matches = (candidate: string): boolean => normalizeServerName(candidate) === key;
  return editTextFile(filePath, (text) => {
    const cleared =
      text === undefined ? { text: undefined, removed: 0 } : removeJsoncProperty(text, { objectPath: [], key, filePath, matches });
    if (options.enabled) return { text: cleared.text, result: { name: server.name, filePath, changed: cleared.removed > 0 } };
    const written = setJsoncProperty(cleared.text ?? '', { objectPath: [], key, value: { enabled: false }, filePath });
    return { text: written.text, result: { name: server.name, filePath, changed: server.enabled } };
  });
}
