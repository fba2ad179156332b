import {
  createServerAccessPolicy,
  formatToolhostCommand,
  getAppSettingsLocation,
  getServerTransport,
  loadSettings,
  parseSettingsText,
  type ConfigError,
  type ConfigWarning,
  type EnvironmentVariables,
  type LoadSettingsOptions,
  type McpServerConfig,
  type ServerBlockReason,
  type ServerTransportInfo,
} from '@toolhost/config';
import type { FolderTrustStore } from '@toolhost/config/trust';
import type { ServerDefinition } from '@toolhost/discovery';

/** MCP settings given directly to the host, in the shape of a settings file. */
export interface HostSettings {
  /** Server entries by name, as in `settings.json`. Checked and `$VAR`-expanded like a file. */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** Server allow and exclude lists, and the one-line server. */
  readonly mcp?: {
    /** Only these servers may be used; `[]` allows none. */
    readonly allowed?: readonly string[];
    /** These servers may never be used; wins over `allowed`. */
    readonly excluded?: readonly string[];
    /**
     * A command line (split like a shell's words, no shell run) that becomes the server named
     * `mcp`, replacing an `mcpServers` entry of that name, as in Gemini CLI.
     */
    readonly serverCommand?: string;
  };
}

/** Where to read settings files from when no `settings` object is given. */
export interface SettingsSource {
  /** Settings given directly; when set, no file is read. */
  readonly settings?: HostSettings;
  /**
   * Folder name of the settings files, under the home and the project folder. It also chooses
   * the OAuth token file (`~/<appDir>/mcp-oauth-tokens.json`), the enablement file and the
   * trusted-folders store; `.gemini` and `.qwen` read and write those programs' own files,
   * their `trustedFolders.json` included (see `getFolderTrust` of `@toolhost/config`).
   * @default `$TOOLHOST_APP_DIR` (read from `env`), else '.toolhost'
   */
  readonly appDir?: string;
  /** The project folder whose `<appDir>/settings.json` is read. */
  readonly projectDir?: string;
  /** The user's home folder. @default os.homedir() */
  readonly homeDir?: string;
  /**
   * Full path of the administrator's system settings file (highest precedence: its
   * `mcp.excluded` blocks a server whatever the user wrote); `false` reads none.
   * @default the file the program of `appDir` reads, exactly as the `toolhost` command line finds
   * it (`getAppSettingsLocation` of `@toolhost/config`): for `.gemini`
   * `$GEMINI_CLI_SYSTEM_SETTINGS_PATH` or `/etc/gemini-cli/settings.json`, for `.qwen`
   * `$QWEN_CODE_SYSTEM_SETTINGS_PATH` or `/etc/qwen-code/settings.json`, else
   * `$TOOLHOST_SYSTEM_SETTINGS_PATH` or `/etc/toolhost/settings.json` (macOS and Windows paths in
   * the settings reference); variables are read from `env`.
   */
  readonly systemSettingsPath?: string | false;
  /**
   * Full path of the system defaults file (lowest precedence); `false` reads none.
   * @default for `.gemini` `$GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, for `.qwen`
   * `$QWEN_CODE_SYSTEM_DEFAULTS_PATH`, else `$TOOLHOST_SYSTEM_DEFAULTS_PATH`; without the variable,
   * `system-defaults.json` next to the system settings file
   */
  readonly systemDefaultsPath?: string | false;
  /**
   * Variables for `$VAR` expansion (every string of the settings) and for finding the system
   * files. The `.env` file's variables are added for expansion only; `process.env` is never
   * changed. For the default token store, also the Gemini CLI / Qwen Code storage switches; and
   * where `oauth.assertionEnv` of a workload identity entry is read, at every grant.
   * @default process.env
   */
  readonly env?: EnvironmentVariables;
  /**
   * Whether to read a `.env` file for expansion as Gemini CLI does: from the project folder up
   * (only when the project is trusted), else `~/<appDir>/.env` or `~/.env`. Ignored when
   * `settings` is given. @default true
   */
  readonly envFile?: boolean;
  /**
   * Whether the servers of the project's settings file may start (folder trust). A project
   * settings file arrives with the project (`git clone`), so until the folder is trusted every
   * server whose winning entry comes from it is blocked with `blockedCode` `UNTRUSTED_PROJECT`.
   * With `'auto'`, trusting pins each project server's launch identity: one whose entry changed
   * (or was added) since the folder was trusted is blocked with `CHANGED_SINCE_TRUSTED` until the
   * folder is trusted again.
   * `'auto'` reads `stores.trust` when given, else the trusted-folders store
   * `~/<appDir>/trusted-folders.json`, or Gemini CLI's / Qwen Code's `trustedFolders.json` for
   * `.gemini` / `.qwen` (see `getFolderTrust` and `trustFolder` of `@toolhost/config`); `true` or `false` is the host's own decision (a host with its own trust
   * prompt passes the user's answer). Ignored when `settings` is given (no project file is read).
   * @default 'auto'
   * @example
   * ```ts
   * // The user answered "yes" to the host's own "Trust this folder?" prompt:
   * const host = await McpToolHost.create({ projectDir, trustProject: true });
   * ```
   */
  readonly trustProject?: boolean | 'auto';
  /**
   * The command named in `UNTRUSTED_PROJECT` and `CHANGED_SINCE_TRUSTED` messages, i.e. how the
   * user of this host trusts a folder (`"/trust"`, `"myapp trust"`). The default runs the
   * `toolhost` command line through npx, which works whether or not `toolhost` is on the PATH.
   * @default 'npx @toolhost/cli trust', or 'npx @toolhost/cli --app-dir <appDir> trust' for another `appDir`
   */
  readonly trustCommand?: string;
}

/** A settings source with the host's stores (only `stores.trust` is read here). @internal */
export type SettingsSourceWithStores = SettingsSource & {
  readonly stores?: { readonly trust?: FolderTrustStore | undefined } | undefined;
};

/** One server the host will manage. */
export interface ResolvedServer extends ServerDefinition {
  /** How the server is reached (for the status view). */
  readonly transport: ServerTransportInfo;
  /** Why the settings block the server, as the config's stable code (`EXCLUDED`, `NOT_ALLOWED`, `UNTRUSTED_PROJECT`, `CHANGED_SINCE_TRUSTED`, ...). */
  readonly blockedCode?: string | undefined;
  /** With `UNTRUSTED_PROJECT`: the project folder that would have to be trusted, and the command that trusts it. */
  readonly untrustedProject?: { readonly folder: string; readonly trustCommand: string } | undefined;
  /** The settings file the entry comes from; `undefined` for the `settings` option and servers added at runtime. */
  readonly filePath?: string | undefined;
}

/** The servers to manage, plus what went wrong reading them. */
export interface ResolvedServers {
  /** Servers in priority order. */
  readonly servers: readonly ResolvedServer[];
  /** Problems that stopped an entry or file from loading. */
  readonly errors: readonly ConfigError[];
  /** Problems that did not stop anything. */
  readonly warnings: readonly ConfigWarning[];
  /** Why `mcp.allowed` / `mcp.excluded` block a server of this name (for servers added at runtime). */
  readonly accessBlockReason: (name: string) => ServerBlockReason | undefined;
  /** False when the enablement file records a server of this name as disabled. */
  readonly isServerEnabled: (name: string) => boolean;
  /** Every file that was read (settings files, the enablement file, the trusted-folders store); empty for the `settings` option. */
  readonly files: readonly string[];
}

/** Turn a settings object or the settings files into the server list for discovery. */
export async function resolveServers(source: SettingsSourceWithStores): Promise<ResolvedServers> {
  const env = source.env ?? process.env;
  if (source.settings) {
    const parsed = parseSettingsText({
      text: JSON.stringify(source.settings),
      filePath: '(McpToolHost settings option)',
      scope: 'project',
      env,
    });
    const policy = createServerAccessPolicy({
      allowed: parsed.allowed,
      excluded: parsed.excluded,
      invalidListMessage: parsed.invalidList
        ? 'Every MCP server is blocked because mcp.allowed or mcp.excluded is malformed in the settings given to McpToolHost.'
        : undefined,
    });
    const servers: ResolvedServer[] = [];
    const command = parsed.serverCommand;
    // `mcp.serverCommand` is the server `mcp`, in place of an `mcpServers` entry of that name.
    const entries =
      command === undefined || !parsed.servers.some((entry) => entry.name === command.name)
        ? [...parsed.servers, ...(command === undefined ? [] : [command])]
        : parsed.servers.map((entry) => (entry.name === command.name ? command : entry));
    for (const entry of entries) {
      const transport = entry.config ? getServerTransport(entry.config) : undefined;
      if (!entry.config || !transport) continue;
      const blocked = policy.getServerBlockReason(entry.name);
      servers.push({ name: entry.name, config: entry.config, transport, blockedReason: blocked?.message, blockedCode: blocked?.code });
    }
    return {
      servers,
      errors: parsed.errors,
      warnings: parsed.warnings,
      accessBlockReason: (name) => policy.getServerBlockReason(name),
      isServerEnabled: () => true,
      files: [],
    };
  }
  const loaded = await loadSettings(settingsLoadOptions(source, env));
  return {
    servers: loaded.servers.map((server) => ({
      name: server.name,
      config: server.config,
      transport: server.transport,
      blockedReason: server.blockReason?.message,
      blockedCode: server.blockReason?.code,
      untrustedProject:
        server.blockReason?.code === 'UNTRUSTED_PROJECT' && server.blockReason.projectFolder !== undefined
          ? {
              folder: server.blockReason.projectFolder,
              trustCommand: server.blockReason.trustCommand ?? defaultTrustCommand(source.appDir),
            }
          : undefined,
      disabled: !server.enabled,
      filePath: server.filePath,
    })),
    errors: loaded.errors,
    warnings: loaded.warnings,
    accessBlockReason: (name) =>
      loaded.getServer(name) === undefined
        ? loaded.getServerBlockReason(name)
        : createServerAccessPolicy({ allowed: loaded.allowed, excluded: loaded.excluded }).getServerBlockReason(name),
    isServerEnabled: (name) => loaded.isServerEnabled(name),
    files: [
      ...loaded.files.map((file) => file.filePath),
      loaded.enablementFilePath,
      ...(loaded.trustedFoldersFilePath !== undefined ? [loaded.trustedFoldersFilePath] : []),
    ],
  };
}

/**
 * The `loadSettings` options of a file-based settings source: the same system files as the
 * `toolhost` command line (those of the program of `appDir`, see `getAppSettingsLocation`).
 */
export function settingsLoadOptions(
  source: SettingsSourceWithStores,
  env: Readonly<Record<string, string | undefined>>,
): LoadSettingsOptions {
  const location = getAppSettingsLocation({
    env,
    ...(source.appDir !== undefined ? { appDir: source.appDir } : {}),
    ...(typeof source.systemSettingsPath === 'string' ? { systemSettingsPath: source.systemSettingsPath } : {}),
    ...(typeof source.systemDefaultsPath === 'string' ? { systemDefaultsPath: source.systemDefaultsPath } : {}),
  });
  return {
    env,
    appDir: location.appDir,
    ...(source.projectDir !== undefined ? { projectDir: source.projectDir } : {}),
    ...(source.homeDir !== undefined ? { homeDir: source.homeDir } : {}),
    ...(source.systemSettingsPath !== false ? { systemSettingsPath: location.systemSettingsPath } : {}),
    ...(source.systemDefaultsPath !== false ? { systemDefaultsPath: location.systemDefaultsPath } : {}),
    ...(source.envFile !== undefined ? { envFile: source.envFile } : {}),
    ...(source.trustProject !== undefined ? { projectTrust: source.trustProject } : {}),
    trustCommand: source.trustCommand ?? defaultTrustCommand(location.appDir),
    ...(source.stores?.trust !== undefined ? { trustStore: source.stores.trust } : {}),
  };
}

/**
 * The default `trustCommand`: the `toolhost trust` command line through npx (`npx @toolhost/cli
 * trust`). The user of a program that embeds the host may not have `toolhost` on the PATH (a
 * project that installed `@toolhost/cli` has it in `node_modules/.bin` only, one that did not
 * lacks it), and a bare `npx toolhost` would run whatever package the registry holds under that name.
 */
export function defaultTrustCommand(appDir: string | undefined): string {
  return formatToolhostCommand('trust', appDir, { runner: 'npx' });
}
