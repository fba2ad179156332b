import { ConfigError } from './config-error.js';
import { removeJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';
import { getWritableSettingsFilePath, type SettingsLocation, type WritableSettingsScope } from './settings-paths.js';

/** Options of {@link removeServer}. */
export interface RemoveServerOptions extends SettingsLocation {
  /** Settings file to edit: `user` or `project`. */
  readonly scope: WritableSettingsScope;
  /** Key under `mcpServers`, matched exactly. */
  readonly name: string;
}

/** What {@link removeServer} did. */
export interface RemoveServerResult {
  /** The file that was written. */
  readonly filePath: string;
}

/**
 * Removes `mcpServers[name]` from the user or project settings file, keeping every comment
 * outside that entry, the formatting and all other settings. Throws `SERVER_NOT_FOUND` (and
 * leaves the file alone) when that file has no such entry.
 */
export async function removeServer(options: RemoveServerOptions): Promise<RemoveServerResult> {
  const filePath = getWritableSettingsFilePath(options.scope, options);
  return editTextFile(filePath, (text) => {
    const edited =
      text === undefined ? { text, removed: 0 } : removeJsoncProperty(text, { objectPath: ['mcpServers'], key: options.name, filePath });
    if (edited.removed === 0) {
      throw new ConfigError({
        code: 'SERVER_NOT_FOUND',
        filePath,
        jsonPath: 'mcpServers',
        serverName: options.name,
        message: `Server "${options.name}" not found in ${options.scope} settings. Nothing was removed from ${filePath}.`,
      });
    }
    return { text: edited.text, result: { filePath } };
  });
}
