import { ConfigError, getServerTransport, normalizeServerName, parseSettingsText, type McpServerConfig } from '@toolhost/config';
import { setServerEnabled } from '@toolhost/config/edit';
import { escapeControlText } from '@toolhost/contract';
import type { ServerSetChange } from '@toolhost/discovery';
import type { HostCore } from './host-core.js';
import { HostError, type HostErrorCode } from './host-error.js';
import type { HostWarning } from './host-events.js';
import { buildHostWarnings } from './host-warnings.js';
import type { SettingsReloadResult } from './settings-reload-result.js';
import {
  resolveServers,
  settingsLoadOptions,
  type ResolvedServer,
  type ResolvedServers,
  type SettingsSourceWithStores,
} from './resolve-servers.js';

/** Config error codes a {@link HostError} carries as they are. */
const PASSED_THROUGH: ReadonlySet<string> = new Set<HostErrorCode>(['SERVER_NOT_FOUND', 'SERVER_BLOCKED', 'FILE_UNWRITABLE']);

function warningKey(warning: HostWarning): string {
  return `${warning.code}\0${warning.serverName ?? ''}\0${warning.filePath ?? ''}\0${warning.message}`;
}

/** Errors that concern a whole file or its lists (not one entry): a file that cannot be used as it is. */
function fileErrors(errors: readonly ConfigError[]): ConfigError[] {
  return errors.filter((error) => error.serverName === undefined && error.filePath !== undefined);
}

function fileErrorKey(error: ConfigError): string {
  return `${error.filePath ?? ''}\0${error.code}\0${error.jsonPath ?? ''}`;
}

/**
 * The servers a host manages and how they change at runtime: the settings as last read (a
 * reload re-reads them), servers added and removed through the API, and enablement (saved in the
 * enablement file, or for this session only). Every change is applied to discovery in one step
 * (`McpServerManager.setServers`), so a server whose definition did not change keeps its
 * connection. Changes run one at a time, in call order. Internal to the host.
 */
export class HostServerSet {
  readonly #core: HostCore;
  readonly #source: SettingsSourceWithStores;
  #settings: ResolvedServers;
  /** Servers added with `add`, by name. */
  readonly #runtime = new Map<string, ResolvedServer>();
  /** Settings servers removed with `remove`: a reload does not bring them back. */
  readonly #removed = new Set<string>();
  /** Enabled (true) or disabled (false) for this session, by normalized name; wins over the file. */
  readonly #session = new Map<string, boolean>();
  /** What was written to the enablement file since it was last read, by normalized name. */
  readonly #saved = new Map<string, boolean>();
  /** Entries of the previous settings kept because their new entry has an error. */
  #kept: ResolvedServer[] = [];
  /** Why the last reload was not applied (a file became malformed), until one is. */
  #skipped: HostWarning[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  /** Start from the settings the host was created with. */
  constructor(core: HostCore, source: SettingsSourceWithStores, resolved: ResolvedServers) {
    this.#core = core;
    this.#source = source;
    this.#settings = resolved;
  }

  /** The files a settings watch looks at (settings files and the enablement file); none for the `settings` option. */
  get files(): readonly string[] {
    return this.#settings.files;
  }

  /** The servers as they are now: settings (minus removed, plus kept), then runtime ones, with enablement applied. */
  servers(): ResolvedServer[] {
    const list: ResolvedServer[] = [];
    for (const server of [...this.#settings.servers, ...this.#kept]) {
      if (this.#removed.has(server.name) || this.#runtime.has(server.name)) continue;
      list.push(this.#withEnablement(server, server.disabled === true));
    }
    for (const server of this.#runtime.values()) {
      const blocked = this.#settings.accessBlockReason(server.name);
      list.push(
        this.#withEnablement(
          { ...server, blockedReason: blocked?.message, blockedCode: blocked?.code },
          !this.#settings.isServerEnabled(server.name),
        ),
      );
    }
    return list;
  }

  /** The host's warnings for the current state, their messages escaped (`escapeControlText`). */
  warnings(): HostWarning[] {
    const kept = new Set(this.#kept.map((server) => server.name));
    const base = buildHostWarnings({
      servers: this.#settings.servers,
      errors: this.#settings.errors,
      warnings: this.#settings.warnings,
    }).map((warning) =>
      warning.serverName !== undefined && kept.has(warning.serverName)
        ? {
            ...warning,
            message: `${warning.message} MCP server "${warning.serverName}" keeps running with its previous settings until the entry is fixed.`,
          }
        : warning,
    );
    const shadowed = this.#settings.servers
      .filter((server) => this.#runtime.has(server.name) && !this.#removed.has(server.name))
      .map((server): HostWarning => ({
        code: 'DUPLICATE_SERVER_NAME',
        serverName: server.name,
        ...(server.filePath !== undefined ? { filePath: server.filePath } : {}),
        message: `MCP server "${server.name}"${server.filePath !== undefined ? ` in ${server.filePath}` : ''} is not used: a server of that name was added at runtime (host.servers.add). Remove one of them, or rename it.`,
      }));
    // Messages quote what settings files say (server names, fields, paths): escaped once, here.
    return [...base, ...shadowed, ...this.#skipped].map((warning) => ({ ...warning, message: escapeControlText(warning.message) }));
  }

  /** Validate an entry like a settings file does and add it as a runtime server. */
  add(name: string, config: McpServerConfig): Promise<void> {
    return this.#serialize(async () => {
      if (this.#core.serversByName.has(name)) {
        throw new HostError({
          code: 'DUPLICATE_SERVER_NAME',
          serverName: name,
          message: `An MCP server named "${name}" is already configured; remove it first (host.servers.remove) or choose another name.`,
        });
      }
      const parsed = parseSettingsText({
        text: JSON.stringify({ mcpServers: { [name]: config } }),
        filePath: `(host.servers.add "${name}")`,
        scope: 'user',
        env: this.#source.env ?? process.env,
      });
      const entry = parsed.servers[0];
      const transport = entry?.configAsWritten ? getServerTransport(entry.configAsWritten) : undefined;
      const used = entry?.config ? getServerTransport(entry.config) : undefined;
      if (!entry?.config || !transport || !used || parsed.errors.length > 0) {
        const problem = parsed.errors[0];
        throw new HostError({
          code: 'INVALID_CONFIG',
          serverName: name,
          message: `The entry of MCP server "${name}" cannot be used: ${problem?.message ?? 'it has none of command, url or httpUrl.'}`,
          ...(problem ? { cause: problem } : {}),
        });
      }
      this.#runtime.set(name, { name, config: entry.config, transport: { ...used, target: transport.target } });
      await this.#apply();
    });
  }

  /** Remove a server (runtime or from the settings) for the rest of this host's life. */
  remove(name: string): Promise<void> {
    return this.#serialize(async () => {
      if (!this.#core.serversByName.has(name)) {
        throw new HostError({
          code: 'SERVER_NOT_FOUND',
          serverName: name,
          message: `No MCP server named "${name}" is configured, so it cannot be removed.`,
        });
      }
      if (!this.#runtime.delete(name)) this.#removed.add(name);
      await this.#apply();
    });
  }

  /**
   * Read the settings files again and apply what changed. A file that was fine and is now
   * malformed or unreadable stops the reload (nothing changes; a warning names the file); an
   * entry that now has an error keeps its previous settings.
   */
  reload(): Promise<SettingsReloadResult> {
    return this.#serialize(async () => {
      let next: ResolvedServers;
      try {
        next = await resolveServers(this.#source);
      } catch (error) {
        this.#skipped = [
          {
            code: 'SETTINGS_LOAD_FAILED',
            message: `The MCP settings could not be read again (${error instanceof Error ? error.message : String(error)}); the servers keep running as configured before.`,
          },
        ];
        return this.#notApplied();
      }
      const known = new Set(fileErrors(this.#settings.errors).map(fileErrorKey));
      const broken = fileErrors(next.errors).filter((error) => !known.has(fileErrorKey(error)));
      if (broken.length > 0) {
        this.#skipped = broken.map((error) => ({
          code: error.code,
          ...(error.filePath !== undefined ? { filePath: error.filePath } : {}),
          message:
            `${error.message} The MCP settings were not reloaded: every server keeps running as configured before ` +
            `${error.filePath ?? 'the change'}. Fix the file; it is read again when it changes, or on /mcp reload.`,
        }));
        return this.#notApplied();
      }
      const withErrors = new Set(next.errors.flatMap((error) => (error.serverName !== undefined ? [error.serverName] : [])));
      const nextNames = new Set(next.servers.map((server) => server.name));
      this.#kept = [...this.#settings.servers, ...this.#kept].filter(
        (server) => withErrors.has(server.name) && !nextNames.has(server.name),
      );
      this.#settings = next;
      this.#saved.clear();
      this.#skipped = [];
      const change = await this.#apply();
      return { applied: true, ...change, warnings: this.#core.warnings };
    });
  }

  /**
   * Enable or disable a server: in the enablement file (`~/<appDir>/mcp-server-enablement.json`,
   * Gemini CLI's format) or, with `session`, in memory for this host only. Names are compared like
   * the file does (letter case and surrounding spaces ignored). Returns the server's name.
   */
  setEnabled(params: { readonly serverName: string; readonly enabled: boolean; readonly session: boolean }): Promise<string> {
    return this.#serialize(async () => {
      const server = this.#find(params.serverName);
      if (!server) {
        throw new HostError({
          code: 'SERVER_NOT_FOUND',
          serverName: params.serverName,
          message: `Server '${params.serverName}' not found. Use /mcp list to see available servers.`,
        });
      }
      if (params.enabled && server.blockedReason !== undefined) {
        throw new HostError({
          code: 'SERVER_BLOCKED',
          serverName: server.name,
          message:
            server.blockedCode === 'UNTRUSTED_PROJECT' || server.blockedCode === 'CHANGED_SINCE_TRUSTED'
              ? server.blockedReason
              : `MCP server "${server.name}" is blocked (${server.blockedReason}), so it cannot be enabled; change mcp.allowed or mcp.excluded first.`,
        });
      }
      const key = normalizeServerName(server.name);
      if (params.session) {
        this.#session.set(key, params.enabled);
      } else {
        await this.#save(server, params.enabled);
        this.#saved.set(key, params.enabled);
        this.#session.delete(key);
      }
      await this.#apply();
      return server.name;
    });
  }

  async #save(server: ResolvedServer, enabled: boolean): Promise<void> {
    const verb = enabled ? 'enable' : 'disable';
    if (this.#source.settings) {
      throw new HostError({
        code: 'INVALID_OPTIONS',
        serverName: server.name,
        message: `Cannot ${verb} MCP server "${server.name}" in the enablement file: this host was given its settings directly (the settings option) and reads no files. ${verb} it for this session instead (/mcp ${verb} ${server.name} --session).`,
      });
    }
    if (this.#runtime.has(server.name)) {
      throw new HostError({
        code: 'SERVER_NOT_FOUND',
        serverName: server.name,
        message: `MCP server "${server.name}" was added at runtime and is in no settings file, so the enablement file cannot record it. ${verb} it for this session instead (/mcp ${verb} ${server.name} --session).`,
      });
    }
    const source = this.#source;
    try {
      await setServerEnabled({ ...settingsLoadOptions(source, source.env ?? process.env), name: server.name, enabled });
    } catch (error) {
      if (ConfigError.isInstance(error) && PASSED_THROUGH.has(error.code)) {
        throw new HostError({
          code: error.code as HostErrorCode,
          serverName: server.name,
          message: error.message,
          cause: error,
        });
      }
      throw error;
    }
  }

  #find(name: string): ResolvedServer | undefined {
    const servers = this.#core.servers;
    return (
      servers.find((server) => server.name === name) ??
      servers.find((server) => normalizeServerName(server.name) === normalizeServerName(name))
    );
  }

  #withEnablement(server: ResolvedServer, fileDisabled: boolean): ResolvedServer {
    const key = normalizeServerName(server.name);
    const enabled = this.#session.get(key) ?? this.#saved.get(key) ?? !fileDisabled;
    return { ...server, disabled: !enabled };
  }

  /** Keep the servers as they are, publish the warnings of a reload that was not applied. */
  #notApplied(): SettingsReloadResult {
    this.#publishWarnings(this.#core.servers);
    return { applied: false, added: [], removed: [], restarted: [], updated: [], warnings: this.#core.warnings };
  }

  #publishWarnings(servers: readonly ResolvedServer[]): void {
    const before = new Set(this.#core.warnings.map(warningKey));
    const warnings = this.warnings();
    this.#core.replaceServers(servers, warnings);
    for (const warning of warnings) if (!before.has(warningKey(warning))) this.#core.events.emit('warning', warning);
  }

  /** Make the host and discovery use the servers as they are now. */
  async #apply(): Promise<ServerSetChange> {
    const servers = this.servers();
    this.#publishWarnings(servers);
    const change = await this.#core.manager.setServers(servers);
    for (const name of change.removed) {
      this.#core.attached.get(name)?.features.detach();
      this.#core.attached.delete(name);
      this.#core.logLevels.delete(name);
    }
    return change;
  }

  #serialize<T>(change: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => {
      this.#core.assertOpen();
      return change();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
