import {
  createServerAccessPolicy,
  getServerTransport,
  loadSettings,
  parseSettingsText,
  type ConfigError,
  type ConfigWarning,
  type EnvironmentVariables,
  type McpServerConfig,
  type ServerBlockReason,
  type ServerTransportInfo,
} from '@toolhost/config';
import type { ServerDefinition } from '@toolhost/discovery';

/** MCP settings given directly to the host, in the shape of a settings file. */
export interface HostSettings {
  /** Server entries by name, as in `settings.json`. Checked and `$VAR`-expanded like a file. */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** Server allow and exclude lists. */
  readonly mcp?: {
    /** Only these servers may be used; `[]` allows none. */
    readonly allowed?: readonly string[];
    /** These servers may never be used; wins over `allowed`. */
    readonly excluded?: readonly string[];
  };
}

/** Where to read settings files from when no `settings` object is given. */
export interface SettingsSource {
  /** Settings given directly; when set, no file is read. */
  readonly settings?: HostSettings;
  /** Folder name of the settings files (`.gemini`, `.qwen` read those CLIs' files). @default '.toolhost' */
  readonly appDir?: string;
  /** The project folder whose `<appDir>/settings.json` is read. */
  readonly projectDir?: string;
  /** The user's home folder. @default os.homedir() */
  readonly homeDir?: string;
  /** Full path of a system settings file. */
  readonly systemSettingsPath?: string;
  /** Variables for `$VAR` expansion. @default process.env */
  readonly env?: EnvironmentVariables;
  /**
   * Whether the servers of the project's settings file may start (folder trust). A project
   * settings file arrives with the project (`git clone`), so until the folder is trusted every
   * server whose winning entry comes from it is blocked with `blockedCode` `UNTRUSTED_PROJECT`.
   * With `'auto'`, trusting pins each project server's launch identity: one whose entry changed
   * (or was added) since the folder was trusted is blocked with `CHANGED_SINCE_TRUSTED` until the
   * folder is trusted again.
   * `'auto'` reads the trusted-folders store `~/<appDir>/trusted-folders.json` (see `trustFolder`
   * of `@toolhost/config`); `true` or `false` is the host's own decision (a host with its own trust
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
   * The command named in `UNTRUSTED_PROJECT` messages, i.e. how the user of this host trusts a
   * folder (`"/trust"`, `"myapp trust"`). @default 'toolhost trust'
   */
  readonly trustCommand?: string;
}

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
export async function resolveServers(source: SettingsSource): Promise<ResolvedServers> {
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
    for (const entry of parsed.servers) {
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
  const loaded = await loadSettings({
    env,
    ...(source.appDir !== undefined ? { appDir: source.appDir } : {}),
    ...(source.projectDir !== undefined ? { projectDir: source.projectDir } : {}),
    ...(source.homeDir !== undefined ? { homeDir: source.homeDir } : {}),
    ...(source.systemSettingsPath !== undefined ? { systemSettingsPath: source.systemSettingsPath } : {}),
    ...(source.trustProject !== undefined ? { projectTrust: source.trustProject } : {}),
    ...(source.trustCommand !== undefined ? { trustCommand: source.trustCommand } : {}),
  });
  return {
    servers: loaded.servers.map((server) => ({
      name: server.name,
      config: server.config,
      transport: server.transport,
      blockedReason: server.blockReason?.message,
      blockedCode: server.blockReason?.code,
      untrustedProject:
        server.blockReason?.code === 'UNTRUSTED_PROJECT' && server.blockReason.projectFolder !== undefined
          ? { folder: server.blockReason.projectFolder, trustCommand: server.blockReason.trustCommand ?? 'toolhost trust' }
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
    files: [...loaded.files.map((file) => file.filePath), loaded.enablementFilePath, loaded.trustedFoldersFilePath],
  };
}
