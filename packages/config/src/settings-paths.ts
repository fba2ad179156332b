import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

/** Where a setting comes from. Precedence, lowest first: `user`, `project`, `system`. */
export type SettingsScope = 'system' | 'user' | 'project';

/** The scopes that `addServer` and `removeServer` edit. */
export type WritableSettingsScope = 'user' | 'project';

/** The scopes in merge order: each one replaces the entries of the ones before it. */
export const SETTINGS_SCOPES: readonly SettingsScope[] = ['user', 'project', 'system'];

/** Default folder name of the settings, under the home directory and under the project. */
export const DEFAULT_APP_DIR = '.toolhost';

/** Name of the settings file inside `appDir`. */
export const SETTINGS_FILE_NAME = 'settings.json';

/** Name of the file in `~/<appDir>` that records servers the user disabled. */
export const ENABLEMENT_FILE_NAME = 'mcp-server-enablement.json';

/** Name of the file in `~/<appDir>` that records the folders the user trusts. */
export const TRUSTED_FOLDERS_FILE_NAME = 'trusted-folders.json';

/** Where the settings files are. */
export interface SettingsLocation {
  /** Folder name of the settings; pass `.gemini` or `.qwen` to read those CLIs' files. @default '.toolhost' */
  readonly appDir?: string;
  /** The project (workspace) folder; without it the project scope is not read and cannot be edited. */
  readonly projectDir?: string;
  /** The user's home folder. @default os.homedir() */
  readonly homeDir?: string;
  /** Full path of the system settings file; without it the system scope is not read. */
  readonly systemSettingsPath?: string;
}

/** Returns the settings file of a scope, or `undefined` when that scope has no file in `location`. */
export function getSettingsFilePath(scope: SettingsScope, location: SettingsLocation = {}): string | undefined {
  const appDir = location.appDir ?? DEFAULT_APP_DIR;
  switch (scope) {
    case 'system':
      return location.systemSettingsPath === undefined ? undefined : resolve(location.systemSettingsPath);
    case 'user':
      return join(resolve(location.homeDir ?? homedir()), appDir, SETTINGS_FILE_NAME);
    case 'project':
      return location.projectDir === undefined ? undefined : join(resolve(location.projectDir), appDir, SETTINGS_FILE_NAME);
  }
}

/** Path of the persisted enable/disable file, `~/<appDir>/mcp-server-enablement.json`. */
export function getEnablementFilePath(location: SettingsLocation = {}): string {
  return join(resolve(location.homeDir ?? homedir()), location.appDir ?? DEFAULT_APP_DIR, ENABLEMENT_FILE_NAME);
}

/** Path of the trusted-folders store, `~/<appDir>/trusted-folders.json`. */
export function getTrustedFoldersFilePath(location: Pick<SettingsLocation, 'appDir' | 'homeDir'> = {}): string {
  return join(resolve(location.homeDir ?? homedir()), location.appDir ?? DEFAULT_APP_DIR, TRUSTED_FOLDERS_FILE_NAME);
}

/** True when both paths name the same folder (symbolic links resolved when the folders exist). */
export function isSameDirectory(a: string, b: string): boolean {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return real(a) === real(b);
}

/**
 * True when the project folder is the home folder (symbolic links resolved), so that the project
 * settings file would be the user settings file. False without a project folder.
 */
export function isProjectInHome(location: SettingsLocation): boolean {
  return location.projectDir !== undefined && isSameDirectory(location.projectDir, location.homeDir ?? homedir());
}

/**
 * Returns the file to edit for a scope. Throws `PROJECT_DIR_MISSING` for project scope without a
 * project folder, and `PROJECT_SCOPE_IN_HOME` when the project folder is the home folder (its
 * project file would be the user file).
 */
export function getWritableSettingsFilePath(scope: WritableSettingsScope, location: SettingsLocation = {}): string {
  if (scope === 'project') {
    if (location.projectDir === undefined) {
      throw new ConfigError({
        code: 'PROJECT_DIR_MISSING',
        message: 'Project settings cannot be edited because no project directory was given. Pass projectDir, or edit the user scope.',
      });
    }
    if (isProjectInHome(location)) {
      throw new ConfigError({
        code: 'PROJECT_SCOPE_IN_HOME',
        filePath: getSettingsFilePath('project', location),
        message: `The project directory is the home directory (${resolve(location.homeDir ?? homedir())}), where project settings would be the user settings file. Edit the user scope instead.`,
      });
    }
  }
  return getSettingsFilePath(scope, location) as string;
}

/**
 * The usual system settings file of a toolhost-based program.
 *
 * @param platform - A `process.platform` value.
 * @param appName - Folder name to use. @default 'toolhost'
 */
export function getDefaultSystemSettingsPath(platform: string, appName = 'toolhost'): string {
  if (platform === 'win32') return `C:\\ProgramData\\${appName}\\settings.json`;
  if (platform === 'darwin') return `/Library/Application Support/${appName}/settings.json`;
  return `/etc/${appName}/settings.json`;
}
