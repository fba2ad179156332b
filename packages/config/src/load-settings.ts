import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { homedir } from 'node:os';
import type { EnvironmentVariables } from './expand-env-vars.js';
import { DEFAULT_EXCLUDED_ENV_VARS, readEnvFile, readExcludedEnvVars, withEnvFileVariables } from './load-env-file.js';
import { SERVER_COMMAND_SERVER_NAME } from './parse-server-command.js';
import { getServerTransport, type ServerTransportInfo } from './get-server-transport.js';
import { parseSettingsText } from './parse-settings-text.js';
import { readServerEnablement } from './read-server-enablement.js';
import { readTextFile } from './read-text-file.js';
import { createServerAccessPolicy, normalizeServerName, type ServerAccessPolicy, type ServerBlockReason } from './server-access-policy.js';
import type { McpServerConfig } from './server-config-schema.js';
import { FileFolderTrustStore } from './file-folder-trust-store.js';
import type { FolderTrustStore } from './folder-trust-store.js';
import { describeLaunchChange, pinServer, type PinnedServer } from './pin-project-servers.js';
import { realFolderPath } from './read-trusted-folders.js';
import {
  formatToolhostCommand,
  DEFAULT_APP_DIR,
  getEnablementFilePath,
  getSettingsFilePath,
  getTrustedFoldersFilePath,
  isProjectInHome,
  SETTINGS_SCOPES,
  type SettingsLocation,
  type SettingsScope,
} from './settings-paths.js';

/** Options of {@link loadSettings}: where the files are and which variables to expand. */
export interface LoadSettingsOptions extends SettingsLocation {
  /**
   * Variables for `$VAR` expansion, before the `.env` file's (which never replace one of these).
   * Nothing is written to `process.env`. @default process.env
   */
  readonly env?: EnvironmentVariables;
  /**
   * Whether to read a `.env` file for expansion as Gemini CLI does: the first of
   * `<folder>/<appDir>/.env` and `<folder>/.env` from the project folder up (only when the project
   * is trusted), else `~/<appDir>/.env` or `~/.env`. Its variables fill names `env` does not have;
   * `DEBUG`, `DEBUG_MODE` and the names in `advanced.excludedEnvVars` are skipped unless the file
   * is in an `<appDir>` folder. They are used for expansion only: a stdio server inherits them only
   * through its entry's `env`, as any other variable. @default true
   */
  readonly envFile?: boolean;
  /** A `process.platform` value; on `win32`, `%VAR%` is expanded too. @default process.platform */
  readonly platform?: string;
  /**
   * Whether the servers of the project settings may run. `'auto'` asks the trusted-folders store
   * (`~/<appDir>/trusted-folders.json`, or Gemini CLI's / Qwen Code's `trustedFolders.json` for
   * `.gemini` / `.qwen`, see `getFolderTrust` and `trustFolder`); `true` trusts the project (a host with its
   * own trust prompt passes the user's answer); `false` never trusts it. In an untrusted project
   * every server whose winning entry comes from the project file is blocked (`UNTRUSTED_PROJECT`)
   * and the project's `mcp.allowed`/`mcp.excluded` are ignored. With `'auto'`, a trusted folder's
   * servers run only as they were when the folder was trusted: each project server that is not
   * pinned in the store with the same launch identity is blocked (`CHANGED_SINCE_TRUSTED`).
   * `true` pins nothing (the host decided for this run), and neither does trust that Gemini CLI's
   * folder trust being turned off gives (`FolderTrust.overriddenBy`).
   * @default 'auto'
   */
  readonly projectTrust?: boolean | 'auto';
  /**
   * Where `projectTrust: 'auto'` reads the folder's trust and pinned servers instead of the
   * trusted-folders files: a {@link FolderTrustStore} (a database store of `@toolhost/stores`
   * per user, `MemoryFolderTrustStore`). Trust a folder in it with `setStoredFolderTrust`. A store
   * that rejects makes `loadSettings` reject with its error. @default a `FileFolderTrustStore` of
   * `appDir`, `homeDir`, `systemSettingsPath` and `env`
   */
  readonly trustStore?: FolderTrustStore;
  /**
   * The command named in `UNTRUSTED_PROJECT` and `CHANGED_SINCE_TRUSTED` messages.
   * @default 'toolhost trust', or 'toolhost --app-dir <appDir> trust' for another `appDir`
   */
  readonly trustCommand?: string;
}

/** A server after merging every scope. */
export interface LoadedServer {
  /** The key under `mcpServers`. */
  readonly name: string;
  /** The checked entry with environment variables expanded: use this one to connect. */
  readonly config: McpServerConfig;
  /** The entry as written in the file, variables not expanded: use this one to display (it holds no expanded secrets). */
  readonly configAsWritten: McpServerConfig;
  /** Scope whose entry won. */
  readonly scope: SettingsScope;
  /** File the entry comes from. */
  readonly filePath: string;
  /** Transport of the entry (from `config`) and its target as written (from `configAsWritten`, for display). */
  readonly transport: ServerTransportInfo;
  /** Why the server may not be used, or `undefined`. */
  readonly blockReason: ServerBlockReason | undefined;
  /** False when the user disabled it (enablement file). */
  readonly enabled: boolean;
}

/** A settings file that was looked at. */
export interface SettingsFileStatus {
  /** Scope of the file. */
  readonly scope: SettingsScope;
  /** Path of the file. */
  readonly filePath: string;
  /** False when the file does not exist (which is not an error). */
  readonly exists: boolean;
}

/** The merged MCP settings of every scope. */
export interface LoadedSettings extends ServerAccessPolicy {
  /**
   * Whether the project's servers may run (see `projectTrust`); `undefined` when no project
   * folder was given (or it is the home folder, whose project file is the user file).
   */
  readonly projectTrusted: boolean | undefined;
  /** The project folder's real path (symbolic links resolved), or `undefined` without a project. */
  readonly projectFolder: string | undefined;
  /**
   * The trusted-folders file that `projectTrust: 'auto'` reads (Gemini CLI's or Qwen Code's
   * `trustedFolders.json` for `.gemini` / `.qwen`); `undefined` when a `trustStore` was given.
   */
  readonly trustedFoldersFilePath: string | undefined;
  /**
   * Every server that loaded, blocked and disabled ones included, in priority order: the order
   * in which names first appear reading the user file, then the project file, then the system
   * file, each top to bottom. A higher scope replaces an entry without moving it.
   */
  readonly servers: readonly LoadedServer[];
  /** The files that were looked at, lowest precedence first. */
  readonly files: readonly SettingsFileStatus[];
  /** The persisted enable/disable file. */
  readonly enablementFilePath: string;
  /** The `.env` file whose variables were used for expansion, or `undefined` when none was read. */
  readonly envFilePath: string | undefined;
  /** Problems that stopped a file, an entry or a list from loading. */
  readonly errors: readonly ConfigError[];
  /** Problems that did not stop anything. */
  readonly warnings: readonly ConfigWarning[];
  /** The server with exactly this name, else the one whose normalized name matches. */
  getServer(name: string): LoadedServer | undefined;
  /** False when the user disabled the server (names compared with `normalizeServerName`). */
  isServerEnabled(name: string): boolean;
}

interface MergedEntry {
  config: McpServerConfig | undefined;
  configAsWritten: McpServerConfig | undefined;
  scope: SettingsScope;
  filePath: string;
}

/**
 * Reads the system defaults, user (`~/<appDir>/settings.json`), project
 * (`<project>/<appDir>/settings.json`) and system settings and merges their `mcpServers`: an entry
 * of a higher scope (system-defaults < user < project < system) replaces the whole entry of a lower
 * one. `mcp.serverCommand` of the highest scope that sets it becomes the server `mcp`. Every string
 * is expanded (`$VAR`, `${VAR}`, `${VAR:-default}`, and `%VAR%` on Windows) against `env` and
 * the `.env` file (see `envFile`). Never throws for bad files: see `errors`. Pass the system
 * files of `getAppSettingsLocation` to read what Gemini CLI, Qwen Code or `toolhost` read.
 *
 * Folder trust: unless the project folder is trusted (`projectTrust`), every server whose winning
 * entry comes from the project file is blocked with code `UNTRUSTED_PROJECT`, including one that
 * replaces a user entry of the same name (the user entry is not used instead: the name stays
 * blocked until the folder is trusted or the project entry is removed). User and system servers
 * are not affected. In a folder trusted through the store, a project server whose entry is not the
 * one `trustFolder` pinned (launch identity or `trust` changed, or added since; or every server
 * when the folder was trusted before pinning existed) is blocked with `CHANGED_SINCE_TRUSTED`,
 * listing what changed, until the folder is trusted again.
 *
 * @example
 * const settings = await loadSettings({ projectDir: process.cwd() });
 * for (const server of settings.servers) if (!server.blockReason && server.enabled) connect(server);
 */
export async function loadSettings(options: LoadSettingsOptions = {}): Promise<LoadedSettings> {
  const baseEnv = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const errors: ConfigError[] = [];
  const warnings: ConfigWarning[] = [];
  const files: SettingsFileStatus[] = [];
  const merged = new Map<string, MergedEntry>();
  const allowedLists: (readonly string[])[] = [];
  const excluded = new Map<string, string>();
  let invalidList = false;
  // A project folder that is the home folder (even through a symbolic link) has no project scope.
  const projectInHome = isProjectInHome(options);
  const trust = await resolveProjectTrust(options, projectInHome);
  errors.push(...trust.errors);
  warnings.push(...trust.warnings);

  const texts: { scope: SettingsScope; filePath: string; text: string }[] = [];
  for (const scope of SETTINGS_SCOPES) {
    const filePath = getSettingsFilePath(scope, options);
    if (filePath === undefined || (scope === 'project' && projectInHome) || files.some((file) => file.filePath === filePath)) continue;
    let text: string | undefined;
    try {
      text = await readTextFile(filePath);
    } catch (error) {
      files.push({ scope, filePath, exists: true });
      errors.push(error as ConfigError);
      continue;
    }
    files.push({ scope, filePath, exists: text !== undefined });
    if (text !== undefined) texts.push({ scope, filePath, text });
  }

  // The .env file comes before expansion; `advanced.excludedEnvVars` of an untrusted project does not count.
  let env = baseEnv;
  let envFilePath: string | undefined;
  if (options.envFile !== false) {
    const found = await readEnvFile({
      appDir: options.appDir ?? DEFAULT_APP_DIR,
      projectDir: projectInHome ? undefined : options.projectDir,
      homeDir: options.homeDir ?? homedir(),
      projectTrusted: trust.trusted,
      excluded: [
        ...DEFAULT_EXCLUDED_ENV_VARS,
        ...texts
          .filter((file) => file.scope !== 'project' || trust.trusted === true)
          .flatMap((file) => readExcludedEnvVars(file.text, file.filePath) ?? []),
      ],
    });
    warnings.push(...found.warnings);
    envFilePath = found.filePath;
    env = withEnvFileVariables(baseEnv, found.variables, platform);
  }

  let serverCommand: MergedEntry | undefined;
  for (const { scope, filePath, text } of texts) {
    const parsed = parseSettingsText({ text, filePath, scope, env, platform });
    errors.push(...parsed.errors);
    warnings.push(...parsed.warnings);
    for (const server of parsed.servers)
      merged.set(server.name, { config: server.config, configAsWritten: server.configAsWritten, scope, filePath });
    if (parsed.serverCommand !== undefined) {
      const { config, configAsWritten } = parsed.serverCommand;
      serverCommand = { config, configAsWritten, scope, filePath };
    }
    // An untrusted project lists its servers (as blocked) but nothing else in its file takes effect.
    if (scope === 'project' && trust.trusted === false) continue;
    if (parsed.allowed !== undefined) allowedLists.push(parsed.allowed);
    for (const name of parsed.excluded ?? []) if (!excluded.has(normalizeServerName(name))) excluded.set(normalizeServerName(name), name);
    invalidList ||= parsed.invalidList;
  }
  // As in Gemini CLI, `mcp.serverCommand` (of the highest scope that sets it) is the server `mcp`,
  // whatever `mcpServers` entry of that name any scope has.
  if (serverCommand !== undefined) {
    const replaced = merged.get(SERVER_COMMAND_SERVER_NAME);
    if (replaced !== undefined) {
      warnings.push({
        code: 'SERVER_COMMAND_REPLACES_ENTRY',
        filePath: serverCommand.filePath,
        jsonPath: 'mcp.serverCommand',
        serverName: SERVER_COMMAND_SERVER_NAME,
        message: `${serverCommand.filePath}: mcp.serverCommand defines the server "${SERVER_COMMAND_SERVER_NAME}", which replaces the mcpServers entry "${SERVER_COMMAND_SERVER_NAME}" of ${replaced.filePath}. Rename that entry, or remove one of them.`,
      });
    }
    merged.set(SERVER_COMMAND_SERVER_NAME, serverCommand);
  }

  const policy = createServerAccessPolicy({
    allowed: intersect(allowedLists),
    excluded: [...excluded.values()],
    invalidListMessage: invalidList
      ? 'Every MCP server is blocked because mcp.allowed or mcp.excluded is malformed in a settings file; fix the list (see the errors).'
      : undefined,
  });
  const enablementFilePath = getEnablementFilePath(options);
  const enablement = await readServerEnablement(enablementFilePath);
  errors.push(...enablement.errors);
  warnings.push(...enablement.warnings);
  const isServerEnabled = (name: string): boolean => !enablement.disabled.has(normalizeServerName(name));

  const servers: LoadedServer[] = [];
  for (const [name, entry] of merged) {
    if (entry.config === undefined || entry.configAsWritten === undefined) continue;
    const used = getServerTransport(entry.config);
    const written = getServerTransport(entry.configAsWritten);
    if (used === undefined || written === undefined) continue;
    const transport: ServerTransportInfo = { ...used, target: written.target };
    servers.push({
      name,
      config: entry.config,
      configAsWritten: entry.configAsWritten,
      scope: entry.scope,
      filePath: entry.filePath,
      transport,
      blockReason:
        policy.getServerBlockReason(name) ??
        (entry.scope === 'project' && trust.trusted === false ? untrustedReason(name, trust.folder as string, options) : undefined) ??
        (entry.scope === 'project' && trust.trusted === true && trust.pins !== 'not-pinned'
          ? changedReason(name, entry.configAsWritten, trust.folder as string, trust.pins, options)
          : undefined),
      enabled: isServerEnabled(name),
    });
  }
  warnings.push(...caseCollisions(merged));

  const getServer = (name: string): LoadedServer | undefined =>
    servers.find((server) => server.name === name) ??
    servers.find((server) => normalizeServerName(server.name) === normalizeServerName(name));
  const getServerBlockReason = (name: string): ServerBlockReason | undefined => {
    const server = getServer(name);
    return server === undefined ? policy.getServerBlockReason(name) : server.blockReason;
  };
  return {
    ...policy,
    getServerBlockReason,
    isServerAllowed: (name) => getServerBlockReason(name) === undefined,
    projectTrusted: trust.trusted,
    projectFolder: trust.folder,
    trustedFoldersFilePath: trust.filePath,
    servers,
    files,
    enablementFilePath,
    envFilePath,
    errors,
    warnings,
    isServerEnabled,
    getServer,
  };
}

interface ProjectTrust {
  trusted: boolean | undefined;
  /** The store's pins for the project folder; `'not-pinned'` when the host decided trust itself. */
  pins: ReadonlyMap<string, PinnedServer> | undefined | 'not-pinned';
  folder: string | undefined;
  filePath: string | undefined;
  errors: readonly ConfigError[];
  warnings: readonly ConfigWarning[];
}

async function resolveProjectTrust(options: LoadSettingsOptions, projectInHome: boolean): Promise<ProjectTrust> {
  const filePath =
    options.trustStore === undefined ? getTrustedFoldersFilePath({ ...options, env: options.env ?? process.env }) : undefined;
  if (options.projectDir === undefined || projectInHome) {
    return { trusted: undefined, pins: 'not-pinned', folder: undefined, filePath, errors: [], warnings: [] };
  }
  const mode = options.projectTrust ?? 'auto';
  if (mode !== 'auto') {
    return { trusted: mode, pins: 'not-pinned', folder: await realFolderPath(options.projectDir), filePath, errors: [], warnings: [] };
  }
  const store = options.trustStore ?? new FileFolderTrustStore(options);
  const found = await store.getFolderTrust(options.projectDir);
  // A folder that Gemini CLI or Qwen Code trusts and `toolhost trust` never pinned: its servers run
  // as they would in that program (a drop-in must show the same statuses), with a warning.
  const trustedElsewhere = found.trusted && found.overriddenBy === undefined ? found.trustedUnpinnedIn : undefined;
  const command = options.trustCommand ?? formatToolhostCommand('trust', options.appDir);
  const warnings = found.warnings ?? [];
  return {
    trusted: found.trusted,
    // Folder trust turned off (Gemini CLI's setting or variable): the user decided for every folder, nothing was pinned.
    pins: found.overriddenBy === undefined && trustedElsewhere === undefined ? found.pinnedServers : 'not-pinned',
    folder: found.folder,
    filePath,
    errors: found.errors ?? [],
    warnings:
      trustedElsewhere !== undefined
        ? [
            ...warnings,
            {
              code: 'TRUST_NOT_PINNED',
              filePath: trustedElsewhere,
              jsonPath: '',
              message: `The project folder ${found.folder} is trusted in ${trustedElsewhere}, but toolhost has not recorded its MCP servers, so a changed server entry would start without a prompt. Check them, then run "${command}" in ${found.folder} to pin them.`,
            },
          ]
        : warnings,
  };
}

/**
 * Blocks a project server of a trusted folder unless its entry is the one that was pinned. Without
 * pins for the folder (trusted before pinning existed, or covered by a trusted ancestor and never
 * trusted itself) nothing is known to be what the user approved, so every server is blocked.
 */
function changedReason(
  name: string,
  configAsWritten: McpServerConfig | undefined,
  folder: string,
  pins: ReadonlyMap<string, PinnedServer> | undefined,
  options: LoadSettingsOptions,
): ServerBlockReason | undefined {
  if (configAsWritten === undefined) return undefined;
  const now = pinServer(configAsWritten);
  const pinned = pins?.get(name);
  if (pinned?.digest === now.digest) return undefined;
  const command = options.trustCommand ?? formatToolhostCommand('trust', options.appDir);
  const changes = pinned === undefined ? [] : describeLaunchChange(pinned.launch, now.launch);
  const why =
    pins === undefined
      ? `the project folder ${folder} was trusted without recording its servers (before toolhost pinned them, through a parent folder, or by another program), so it is not known to be what you trusted`
      : pinned === undefined
        ? `it was added to the settings of the project folder ${folder} after the folder was trusted`
        : `its entry in the settings of the project folder ${folder} changed since the folder was trusted (${changes.length > 0 ? changes.join('; ') : 'launch settings changed'})`;
  return {
    code: 'CHANGED_SINCE_TRUSTED',
    projectFolder: folder,
    trustCommand: command,
    changes,
    message: `MCP server "${name}" is not started: ${why}. Check the entry; if you trust it, run "${command}" in ${folder} again.`,
  };
}

function untrustedReason(name: string, folder: string, options: LoadSettingsOptions): ServerBlockReason {
  const command = options.trustCommand ?? formatToolhostCommand('trust', options.appDir);
  return {
    code: 'UNTRUSTED_PROJECT',
    projectFolder: folder,
    trustCommand: command,
    message: `MCP server "${name}" comes from the settings of the project folder ${folder}, which is not trusted, so it is not started. If you trust this folder, run "${command}" in ${folder}.`,
  };
}

function intersect(lists: readonly (readonly string[])[]): string[] | undefined {
  const [first, ...rest] = lists;
  if (first === undefined) return undefined;
  const others = rest.map((list) => new Set(list.map(normalizeServerName)));
  const seen = new Set<string>();
  return first.filter((name) => {
    const key = normalizeServerName(name);
    if (seen.has(key) || !others.every((set) => set.has(key))) return false;
    seen.add(key);
    return true;
  });
}

function caseCollisions(merged: Map<string, MergedEntry>): ConfigWarning[] {
  const groups = new Map<string, string[]>();
  for (const name of merged.keys()) groups.set(normalizeServerName(name), [...(groups.get(normalizeServerName(name)) ?? []), name]);
  const warnings: ConfigWarning[] = [];
  for (const names of groups.values()) {
    if (names.length < 2) continue;
    const last = merged.get(names[names.length - 1] as string) as MergedEntry;
    warnings.push({
      code: 'SERVER_NAME_CASE_COLLISION',
      filePath: last.filePath,
      jsonPath: 'mcpServers',
      serverName: names[0] as string,
      message: `The servers ${names.map((name) => `"${name}"`).join(', ')} differ only in letter case; mcp.allowed, mcp.excluded and enable/disable treat them as one name. Rename one of them.`,
    });
  }
  return warnings;
}
