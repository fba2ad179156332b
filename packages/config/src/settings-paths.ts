import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, posix, resolve, win32 } from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * Where a setting comes from. Precedence, lowest first: `system-defaults` (the administrator's
 * defaults), `user`, `project`, `system` (the administrator's overrides).
 */
export type SettingsScope = 'system-defaults' | 'system' | 'user' | 'project';

/** The scopes that `addServer` and `removeServer` edit. */
export type WritableSettingsScope = 'user' | 'project';

/** The scopes in merge order: each one replaces the entries of the ones before it. */
export const SETTINGS_SCOPES: readonly SettingsScope[] = ['system-defaults', 'user', 'project', 'system'];

/** Default folder name of the settings, under the home directory and under the project. */
export const DEFAULT_APP_DIR = '.toolhost';

/** Name of the settings file inside `appDir`. */
export const SETTINGS_FILE_NAME = 'settings.json';

/** Name of the file in `~/<appDir>` that records servers the user disabled. */
export const ENABLEMENT_FILE_NAME = 'mcp-server-enablement.json';

/** Name of the file in `~/<appDir>` that records the folders the user trusts (toolhost's own format). */
export const TRUSTED_FOLDERS_FILE_NAME = 'trusted-folders.json';

/** Name of the trusted-folders file of Gemini CLI (`~/.gemini`) and Qwen Code (`~/.qwen`). */
export const GEMINI_TRUSTED_FOLDERS_FILE_NAME = 'trustedFolders.json';

/**
 * Name of toolhost's own file next to Gemini CLI's or Qwen Code's `trustedFolders.json`, holding
 * the servers `trustFolder` pinned (that file takes trust levels only).
 */
export const PINNED_SERVERS_FILE_NAME = 'toolhost-pinned-servers.json';

/**
 * Environment variable that names the settings folder, like the `--app-dir` option of the
 * `toolhost` command line (which wins over it): `TOOLHOST_APP_DIR=.gemini`. Read by the command
 * line and by `McpToolHost` when no `appDir` is given; the functions of this package take
 * `appDir` only as an option.
 */
export const APP_DIR_ENV_VAR = 'TOOLHOST_APP_DIR';

/** The value of {@link APP_DIR_ENV_VAR} (surrounding spaces removed), or `undefined` when it is unset or empty. */
export function getAppDirFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const value = env[APP_DIR_ENV_VAR]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The npm package of the `toolhost` command line, as `npx` names it in hints. */
export const TOOLHOST_CLI_PACKAGE = '@toolhost/cli';

/** Options of {@link formatToolhostCommand}. */
export interface FormatToolhostCommandOptions {
  /**
   * How the hint starts the command line. `'toolhost'`: its binary, for the command line's own
   * messages (whoever reads them has it). `'npx'`: `npx @toolhost/cli`, for a program that embeds
   * toolhost, whose user may not have `toolhost` on the PATH: npx runs the project's
   * `@toolhost/cli` when it is installed (npm or pnpm), else the registry's, and never another
   * package that happens to be called `toolhost`. @default 'toolhost'
   */
  readonly runner?: 'toolhost' | 'npx';
}

/**
 * A `toolhost` command line for hints, with `--app-dir <appDir>` when `appDir` is not the default
 * `.toolhost` (quoted for a POSIX shell when needed), so that the command acts on the same files.
 *
 * @example formatToolhostCommand('mcp auth github', '.gemini') // 'toolhost --app-dir .gemini mcp auth github'
 * @example formatToolhostCommand('trust', undefined, { runner: 'npx' }) // 'npx @toolhost/cli trust'
 */
export function formatToolhostCommand(command: string, appDir?: string, options: FormatToolhostCommandOptions = {}): string {
  const program = options.runner === 'npx' ? `npx ${TOOLHOST_CLI_PACKAGE}` : 'toolhost';
  if (appDir === undefined || appDir === DEFAULT_APP_DIR) return `${program} ${command}`;
  return `${program} --app-dir ${quoteShellWord(appDir)} ${command}`;
}

/** One word for a POSIX shell: as it is when it holds only safe characters, else single-quoted. */
export function quoteShellWord(word: string): string {
  return /^[\w./~+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The format of a trusted-folders store: toolhost's own, or the one of Gemini CLI and Qwen Code. */
export type TrustStoreFormat = 'toolhost' | 'gemini';

/** Where the folder-trust decisions of an `appDir` are kept, and how (see {@link getTrustStore}). */
export interface TrustStore {
  /**
   * `toolhost`: `~/<appDir>/trusted-folders.json`, decisions and pins in one file.
   * `gemini`: the `trustedFolders.json` of Gemini CLI (`.gemini`) or Qwen Code (`.qwen`),
   * `{ "<path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }`, with toolhost's pins in a
   * separate file next to it.
   */
  readonly format: TrustStoreFormat;
  /** The file holding the decisions. */
  readonly filePath: string;
  /** The file holding the pinned servers: `filePath` itself in `toolhost` format, else `toolhost-pinned-servers.json` next to it. */
  readonly pinsFilePath: string;
  /** The program whose store this is: `Gemini CLI`, `Qwen Code`, or `toolhost`. */
  readonly program: string;
  /**
   * The variable that trusts or distrusts every folder (`"true"` / `"false"`), as the program itself
   * reads it: `GEMINI_CLI_TRUST_WORKSPACE` for `.gemini`; none otherwise.
   */
  readonly trustEnvVar: string | undefined;
}

const GEMINI_FAMILY: Readonly<Record<string, { program: string; pathEnvVar: string; trustEnvVar: string | undefined }>> = {
  '.gemini': { program: 'Gemini CLI', pathEnvVar: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', trustEnvVar: 'GEMINI_CLI_TRUST_WORKSPACE' },
  '.qwen': { program: 'Qwen Code', pathEnvVar: 'QWEN_CODE_TRUSTED_FOLDERS_PATH', trustEnvVar: undefined },
};

/**
 * The trusted-folders store of an `appDir`. For `.gemini` and `.qwen` it is the program's own
 * `~/<appDir>/trustedFolders.json`, or the file its variable names (`GEMINI_CLI_TRUSTED_FOLDERS_PATH`,
 * `QWEN_CODE_TRUSTED_FOLDERS_PATH`, read from `env`); for any other `appDir`, toolhost's
 * `~/<appDir>/trusted-folders.json`.
 */
export function getTrustStore(
  location: Pick<SettingsLocation, 'appDir' | 'homeDir'> & { readonly env?: Readonly<Record<string, string | undefined>> } = {},
): TrustStore {
  const appDir = location.appDir ?? DEFAULT_APP_DIR;
  const family = Object.hasOwn(GEMINI_FAMILY, appDir) ? GEMINI_FAMILY[appDir] : undefined;
  const userDir = join(resolve(location.homeDir ?? homedir()), appDir);
  if (family === undefined) {
    const filePath = join(userDir, TRUSTED_FOLDERS_FILE_NAME);
    return { format: 'toolhost', filePath, pinsFilePath: filePath, program: 'toolhost', trustEnvVar: undefined };
  }
  const configured = (location.env ?? process.env)[family.pathEnvVar];
  const filePath = configured ? resolve(configured) : join(userDir, GEMINI_TRUSTED_FOLDERS_FILE_NAME);
  return {
    format: 'gemini',
    filePath,
    pinsFilePath: join(dirname(filePath), PINNED_SERVERS_FILE_NAME),
    program: family.program,
    trustEnvVar: family.trustEnvVar,
  };
}

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
  /**
   * Full path of the system defaults file (Gemini CLI's `system-defaults.json`, lowest precedence);
   * without it that scope is not read. {@link getAppSettingsLocation} gives the usual one.
   */
  readonly systemDefaultsPath?: string;
}

/** Returns the settings file of a scope, or `undefined` when that scope has no file in `location`. */
export function getSettingsFilePath(scope: SettingsScope, location: SettingsLocation = {}): string | undefined {
  const appDir = location.appDir ?? DEFAULT_APP_DIR;
  switch (scope) {
    case 'system':
      return location.systemSettingsPath === undefined ? undefined : resolve(location.systemSettingsPath);
    case 'system-defaults':
      return location.systemDefaultsPath === undefined ? undefined : resolve(location.systemDefaultsPath);
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

/**
 * Path of the trusted-folders store: `~/<appDir>/trusted-folders.json`, or for `.gemini` and
 * `.qwen` the program's own `trustedFolders.json` (see {@link getTrustStore}).
 */
export function getTrustedFoldersFilePath(
  location: Pick<SettingsLocation, 'appDir' | 'homeDir'> & { readonly env?: Readonly<Record<string, string | undefined>> } = {},
): string {
  return getTrustStore(location).filePath;
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

/** Name of the system defaults file, next to the system settings file. */
export const SYSTEM_DEFAULTS_FILE_NAME = 'system-defaults.json';

/** Where one program keeps its system files, and the variables that move them. */
interface SystemFiles {
  readonly settingsVariable: string;
  readonly defaultsVariable: string;
  readonly linux: string;
  readonly darwin: string;
  readonly win32: string;
}

// Gemini CLI and Qwen Code: packages/cli/src/config/settings.ts getSystemSettingsPath/getSystemDefaultsPath.
const KNOWN_SYSTEM_FILES: ReadonlyMap<string, SystemFiles> = new Map(
  Object.entries({
    '.gemini': {
      settingsVariable: 'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
      defaultsVariable: 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH',
      linux: '/etc/gemini-cli/settings.json',
      darwin: '/Library/Application Support/GeminiCli/settings.json',
      win32: 'C:\\ProgramData\\gemini-cli\\settings.json',
    },
    '.qwen': {
      settingsVariable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH',
      defaultsVariable: 'QWEN_CODE_SYSTEM_DEFAULTS_PATH',
      linux: '/etc/qwen-code/settings.json',
      darwin: '/Library/Application Support/QwenCode/settings.json',
      win32: 'C:\\ProgramData\\qwen-code\\settings.json',
    },
  }),
);

/** Options of {@link getAppSettingsLocation}. */
export interface AppSettingsLocationOptions {
  /** Folder name of the settings. @default '.toolhost' */
  readonly appDir?: string;
  /** Variables that may move the system files (`TOOLHOST_SYSTEM_SETTINGS_PATH`, ...). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A `process.platform` value. @default process.platform */
  readonly platform?: string;
  /** The system settings file, when the caller chose it; the defaults file is then looked for next to it. */
  readonly systemSettingsPath?: string;
  /** The system defaults file, when the caller chose it. */
  readonly systemDefaultsPath?: string;
}

/**
 * The system files of the program whose settings folder is `appDir`, with exactly the sources and
 * precedence that program uses, so that a host and the `toolhost` command line read the same files:
 *
 * - `.gemini` (Gemini CLI): `$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else `/etc/gemini-cli/settings.json`
 *   (`/Library/Application Support/GeminiCli/settings.json` on macOS,
 *   `C:\ProgramData\gemini-cli\settings.json` on Windows); defaults
 *   `$GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else `system-defaults.json` in the same folder.
 * - `.qwen` (Qwen Code): the same with `QWEN_CODE_SYSTEM_SETTINGS_PATH`,
 *   `QWEN_CODE_SYSTEM_DEFAULTS_PATH` and `qwen-code` / `QwenCode`.
 * - Any other folder (`.toolhost` by default): `$TOOLHOST_SYSTEM_SETTINGS_PATH`, else
 *   {@link getDefaultSystemSettingsPath} with the folder name without its leading dots
 *   (`/etc/toolhost/settings.json`); defaults `$TOOLHOST_SYSTEM_DEFAULTS_PATH`, else
 *   `system-defaults.json` in the same folder.
 *
 * An empty variable counts as unset. Paths given in the options win over everything.
 *
 * @example
 * const location = getAppSettingsLocation({ appDir: '.gemini', platform: 'linux', env: {} });
 * // { appDir: '.gemini', systemSettingsPath: '/etc/gemini-cli/settings.json',
 * //   systemDefaultsPath: '/etc/gemini-cli/system-defaults.json' }
 */
export function getAppSettingsLocation(
  options: AppSettingsLocationOptions = {},
): Required<Pick<SettingsLocation, 'appDir' | 'systemSettingsPath' | 'systemDefaultsPath'>> {
  const appDir = options.appDir ?? DEFAULT_APP_DIR;
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const known = KNOWN_SYSTEM_FILES.get(appDir);
  const variable = (name: string): string | undefined => env[name] || undefined;
  const systemSettingsPath =
    options.systemSettingsPath ??
    (known
      ? (variable(known.settingsVariable) ?? (platform === 'win32' ? known.win32 : platform === 'darwin' ? known.darwin : known.linux))
      : (variable('TOOLHOST_SYSTEM_SETTINGS_PATH') ??
        getDefaultSystemSettingsPath(platform, basename(appDir).replace(/^\.+/, '') || 'toolhost')));
  const paths = platform === 'win32' ? win32 : posix;
  const systemDefaultsPath =
    options.systemDefaultsPath ??
    variable(known ? known.defaultsVariable : 'TOOLHOST_SYSTEM_DEFAULTS_PATH') ??
    paths.join(paths.dirname(systemSettingsPath), SYSTEM_DEFAULTS_FILE_NAME);
  return { appDir, systemSettingsPath, systemDefaultsPath };
}
