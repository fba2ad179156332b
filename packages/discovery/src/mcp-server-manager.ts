import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { canonicalJson, DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { versionNegotiationOptions, type OpenConnection } from '@toolhost/connection';
import { resourceKey } from './build-registry-entries.js';
import { DiscoveryError } from './discovery-error.js';
import type {
  McpServerManagerEvents,
  McpServerManagerOptions,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredSkill,
  RegisteredTool,
  RequestOptions,
  ServerDefinition,
  ServerSetChange,
  ServerSnapshot,
} from './manager-types.js';
import { resolveReconnectOptions } from './reconnect-delay.js';
import type { ReadonlyRegistry } from './registry.js';
import { ServerConnector } from './server-connector.js';
import { ServerRegistries } from './server-registries.js';
import type { CallOptions, ServerSession } from './server-session.js';
import { DiscoveryState, McpServerStatus } from './server-status.js';
import { errorInfo, inactiveReason, ServerState } from './server-state.js';
import { TypedEmitter, type Listener } from './typed-emitter.js';
import { DEFAULT_MAX_DEFINITION_DEPTH, DEFAULT_MAX_DEFINITION_LENGTH } from './judge-list-items.js';

/** Default `clientInfo` sent in `initialize`. */
export const DEFAULT_CLIENT_INFO = { name: 'toolhost', version: '0.1.0' } as const;

/**
 * Connects to every configured MCP server in parallel, discovers their tools, prompts and
 * resources, keeps one registry of each with deterministic conflict-free names, follows
 * `list_changed` notifications and reconnects servers that go away.
 *
 * `TClient` is the class of its clients (made by `createClient`): `getClient` returns them as such
 * (the host's are `ConnectionClient`s of `@toolhost/connection`).
 *
 * @example
 * const manager = new McpServerManager({ servers: [{ name: 'fs', config: { command: 'mcp-fs' } }] });
 * await manager.discoverAll();
 * const result = await manager.callTool('read_file', { path: 'a.txt' });
 * await manager.close();
 */
export class McpServerManager<TClient extends Client = Client> {
  /** Every registered tool, by registered name. */
  readonly tools: ReadonlyRegistry<RegisteredTool>;
  /** Every registered prompt, by registered name. */
  readonly prompts: ReadonlyRegistry<RegisteredPrompt>;
  /** Every resource, keyed by `resourceKey(serverName, uri)`; see {@link McpServerManager.findResource}. */
  readonly resources: ReadonlyRegistry<RegisteredResource>;
  /** Every resource template, keyed by `resourceKey(serverName, uriTemplate)`. */
  readonly resourceTemplates: ReadonlyRegistry<RegisteredResourceTemplate>;
  /** Every skill (with the `skills` option), keyed by `resourceKey(serverName, skillMdUri)`. */
  readonly skills: ReadonlyRegistry<RegisteredSkill>;

  readonly #emitter = new TypedEmitter<McpServerManagerEvents>();
  readonly #states = new Map<string, ServerState>();
  readonly #registries: ServerRegistries;
  readonly #connector: ServerConnector;
  #discoveryState: DiscoveryState = DiscoveryState.NOT_STARTED;
  #discovery: Promise<ServerSnapshot[]> | undefined;
  /** Runtime changes of the server set run one at a time, in call order. */
  #changes: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** Create a manager; nothing connects until {@link McpServerManager.discoverAll}. */
  constructor(options: McpServerManagerOptions<TClient>) {
    assertUniqueNames(options.servers);
    for (const definition of options.servers) this.#states.set(definition.name, new ServerState(definition));
    this.#registries = new ServerRegistries(this.#emitter, {
      reservedNames: [...(options.reservedToolNames ?? [])],
      policy: options.toolNamePolicy,
    });
    this.tools = this.#registries.tools;
    this.prompts = this.#registries.prompts;
    this.resources = this.#registries.resources;
    this.resourceTemplates = this.#registries.resourceTemplates;
    this.skills = this.#registries.skills;
    const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.#connector = new ServerConnector({
      createClient:
        options.createClient ??
        ((_name, config) => new Client({ ...clientInfo }, { capabilities: {}, ...versionNegotiationOptions(config) })),
      transportOptions: options.transportOptions,
      // The connector hands it only clients made by createClient, which are TClients.
      openConnection: options.openConnection as OpenConnection | undefined,
      reconnect: resolveReconnectOptions(options.reconnect),
      maxPages: options.maxPages,
      definitionLimits: {
        maxDepth: options.maxDefinitionDepth ?? DEFAULT_MAX_DEFINITION_DEPTH,
        maxLength: options.maxDefinitionLength ?? DEFAULT_MAX_DEFINITION_LENGTH,
      },
      skills: options.skills === true,
      listChangedDebounceMs: options.listChangedDebounceMs ?? 50,
      listChangedRecheckMs: options.listChangedRecheckMs ?? 500,
      isClosed: () => this.#closed,
      setStatus: (state, status, error) => this.#setStatus(state, status, error),
      onOfferingsChange: () => this.#rebuildRegistries(),
      onServerError: (state, error) => this.#emitter.emit('server-error', { serverName: state.name, error }),
    });
  }

  /** Listen to an event; returns a function that removes the listener. */
  on<K extends keyof McpServerManagerEvents>(event: K, listener: Listener<McpServerManagerEvents[K]>): () => void {
    return this.#emitter.on(event, listener);
  }

  /**
   * Connect and discover every enabled server in parallel, each under its own timeout.
   * Never rejects because of one server: failures are in each snapshot's `lastError`.
   */
  discoverAll(): Promise<ServerSnapshot[]> {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (this.#discovery) return this.#discovery;
    this.#setDiscoveryState(DiscoveryState.IN_PROGRESS);
    const jobs = [...this.#states.values()].map((state) => {
      if (state.definition.disabled || state.definition.blockedReason !== undefined) return undefined;
      if (state.status === McpServerStatus.CONNECTED || state.status === McpServerStatus.CONNECTING) return undefined;
      return this.#connector.connect(state, { reconnectOnFailure: false });
    });
    this.#discovery = Promise.all(jobs).then(() => {
      this.#discovery = undefined;
      if (!this.#closed) this.#setDiscoveryState(DiscoveryState.COMPLETED);
      return this.listServers();
    });
    return this.#discovery;
  }

  /** The overall discovery state. */
  getDiscoveryState(): DiscoveryState {
    return this.#discoveryState;
  }

  /** A snapshot of one server, or undefined for an unknown name. */
  getServer(name: string): ServerSnapshot | undefined {
    return this.#states.get(name)?.snapshot();
  }

  /** Snapshots of every server, in settings order. */
  listServers(): ServerSnapshot[] {
    return [...this.#states.values()].map((state) => state.snapshot());
  }

  /** The connected client of a server (for completion, subscriptions...), if connected. */
  getClient(serverName: string): TClient | undefined {
    const state = this.#states.get(serverName);
    // Every session's client was made by createClient, so it is a TClient.
    return state?.status === McpServerStatus.CONNECTED ? (state.session?.client as TClient | undefined) : undefined;
  }

  /**
   * True when a connection pool closed the server while it was idle (see `ConnectionRequest.park`):
   * it is `DISCONNECTED`, its tools, prompts and resources are still registered, and
   * {@link McpServerManager.resume} connects it again.
   */
  isParked(serverName: string): boolean {
    return this.#states.get(serverName)?.parked === true;
  }

  /**
   * Connect a parked server again (a new process or connection, discovered again), and resolve
   * once it is connected or failed (the reason is in its snapshot's `lastError`). Does nothing
   * for a server that is not parked. `callTool`, `getPrompt` and `readResource` do this by
   * themselves; callers that use {@link McpServerManager.getClient} call it first.
   */
  async resume(serverName: string): Promise<void> {
    const state = this.#states.get(serverName);
    if (!state?.parked || this.#closed) return;
    if (state.connecting) {
      await state.connecting;
      if (!state.parked || state.status === McpServerStatus.CONNECTED) return;
    }
    await this.#connector.connect(state, { reconnectOnFailure: false });
  }

  /** The first resource with this URI, servers in settings order (or only `serverName`'s). */
  findResource(uri: string, serverName?: string): RegisteredResource | undefined {
    if (serverName !== undefined) return this.#registries.resources.get(resourceKey(serverName, uri));
    return this.#registries.resources.list().find((entry) => entry.uri === uri);
  }

  /**
   * Call a registered tool: the server gets the tool's original name. The signal is passed
   * to the SDK, so aborting sends `notifications/cancelled`. Fails at once with
   * `CONNECTION_CLOSED` if the server goes away during the call.
   *
   * @param registeredName the name from {@link McpServerManager.tools}, or the tool's qualified
   * `serverName__toolName` (its `qualifiedName`), which works whether the tool is registered under
   * its bare name or not
   */
  async callTool(registeredName: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    const entry = this.#lookup(this.#registries.tools, registeredName, 'tool');
    await this.resume(entry.serverName);
    const { state, session } = this.#connected(entry.serverName, `tool '${entry.originalName}'`);
    return session.callTool(entry.originalName, args, { ...options, timeout: this.#timeout(state, options) });
  }

  /** Get a registered prompt with its arguments; the server gets the prompt's original name. */
  async getPrompt(
    registeredName: string,
    args: Record<string, string> | undefined,
    options: RequestOptions = {},
  ): Promise<GetPromptResult> {
    const entry = this.#lookup(this.#registries.prompts, registeredName, 'prompt');
    await this.resume(entry.serverName);
    const { state, session } = this.#connected(entry.serverName, `prompt '${entry.originalName}'`);
    return session.request(
      { description: `prompt '${entry.originalName}'`, toolName: entry.originalName, signal: options.signal },
      (client) =>
        client.getPrompt(
          { name: entry.originalName, ...(args ? { arguments: args } : {}) },
          { signal: options.signal, timeout: this.#timeout(state, options) },
        ),
    );
  }

  /** Read a resource from `serverName`, or from the first server (settings order) that lists `uri`. */
  async readResource(uri: string, options: RequestOptions & { serverName?: string } = {}): Promise<ReadResourceResult> {
    const serverName = options.serverName ?? this.findResource(uri)?.serverName;
    if (serverName === undefined) {
      throw new DiscoveryError({
        code: 'RESOURCE_NOT_FOUND',
        message: `No connected MCP server lists the resource '${uri}'; pass serverName to read it anyway.`,
      });
    }
    await this.resume(serverName);
    const { state, session } = this.#connected(serverName, `resource '${uri}'`);
    return session.request({ description: `resource '${uri}'`, signal: options.signal }, (client) =>
      client.readResource({ uri }, { signal: options.signal, timeout: this.#timeout(state, options) }),
    );
  }

  /** Close a server's connection (if any) and connect and discover it again (after any runtime change in progress). */
  reconnect(name: string): Promise<ServerSnapshot> {
    return this.#serialize(async () => {
      const state = this.#require(name);
      if (state.definition.disabled || state.definition.blockedReason !== undefined) return state.snapshot();
      await this.#connector.disconnect(state);
      await this.#connector.connect(state, { reconnectOnFailure: false });
      return state.snapshot();
    });
  }

  /**
   * Add a server at runtime; it comes last in naming priority. Once discovery has started, a
   * server that may run is connected and discovered before this resolves (a failure is in the
   * snapshot's `lastError`); before that, {@link McpServerManager.discoverAll} connects it.
   *
   * @throws DiscoveryError `DUPLICATE_SERVER_NAME` when a server of that name exists; `CLOSED`.
   */
  addServer(definition: ServerDefinition): Promise<ServerSnapshot> {
    return this.#serialize(async () => {
      if (this.#states.has(definition.name)) throw duplicateName(definition.name);
      const state = new ServerState(definition);
      this.#states.set(definition.name, state);
      this.#emitter.emit('servers-change', { added: [definition.name], removed: [], restarted: [], updated: [] });
      await this.#startIfDue(state);
      return state.snapshot();
    });
  }

  /**
   * Remove a server at runtime: its connection is closed (a stdio server's process ends) and its
   * tools, prompts and resources leave the registries before this resolves.
   *
   * @throws DiscoveryError `SERVER_NOT_FOUND` for an unknown name; `CLOSED`.
   */
  removeServer(name: string): Promise<void> {
    return this.#serialize(async () => {
      await this.#remove(this.#require(name));
      this.#emitter.emit('servers-change', { added: [], removed: [name], restarted: [], updated: [] });
    });
  }

  /**
   * Replace the definition of a server at runtime. When the entry is the same, nothing happens;
   * when only `timeout`, `trust` or `description` changed, the new values apply to the next
   * requests without reconnecting; any other change (command, arguments, URL, headers,
   * environment, tool filter, enabled, blocked...) closes the connection and, when the server may
   * run and discovery has started, connects it again before this resolves.
   *
   * @throws DiscoveryError `SERVER_NOT_FOUND` for an unknown name; `CLOSED`.
   */
  updateServer(definition: ServerDefinition): Promise<ServerSnapshot> {
    return this.#serialize(async () => {
      const state = this.#require(definition.name);
      const how = await this.#update(state, definition);
      if (how !== 'none') {
        this.#emitter.emit('servers-change', {
          added: [],
          removed: [],
          restarted: how === 'restarted' ? [definition.name] : [],
          updated: how === 'updated' ? [definition.name] : [],
        });
      }
      return state.snapshot();
    });
  }

  /**
   * Make the configured servers exactly `definitions`, in that order (the naming priority):
   * servers not in it are removed, new ones added, and each existing one updated as
   * {@link McpServerManager.updateServer} does, so a server whose entry did not change keeps its
   * connection. Resolves once every change has been applied (new and restarted servers
   * connected, when discovery has started).
   *
   * @throws DiscoveryError `DUPLICATE_SERVER_NAME` when two definitions share a name; `CLOSED`.
   */
  setServers(definitions: readonly ServerDefinition[]): Promise<ServerSetChange> {
    return this.#serialize(async () => {
      assertUniqueNames(definitions);
      const wanted = new Set(definitions.map((definition) => definition.name));
      const change: ServerSetChange = { added: [], removed: [], restarted: [], updated: [] };
      const removed = [...this.#states.values()].filter((state) => !wanted.has(state.name));
      await Promise.all(removed.map((state) => this.#remove(state)));
      change.removed = removed.map((state) => state.name);
      const next = new Map<string, ServerState>();
      const added: ServerState[] = [];
      const updates: Promise<void>[] = [];
      for (const definition of definitions) {
        const existing = this.#states.get(definition.name);
        if (existing) {
          next.set(definition.name, existing);
          updates.push(
            this.#update(existing, definition).then((how) => {
              if (how !== 'none') change[how].push(definition.name);
            }),
          );
        } else {
          const state = new ServerState(definition);
          next.set(definition.name, state);
          added.push(state);
          change.added.push(definition.name);
        }
      }
      this.#states.clear();
      for (const [name, state] of next) this.#states.set(name, state);
      await Promise.all([...updates, ...added.map((state) => this.#startIfDue(state))]);
      // The order may have changed, and with it which server keeps a bare tool name.
      this.#rebuildRegistries();
      const order = (names: string[]) =>
        names.sort((a, b) => definitions.findIndex((d) => d.name === a) - definitions.findIndex((d) => d.name === b));
      order(change.restarted);
      order(change.updated);
      if (change.added.length + change.removed.length + change.restarted.length + change.updated.length > 0) {
        this.#emitter.emit('servers-change', change);
      }
      return change;
    });
  }

  /**
   * Discover one server (or every server) again. A connected server's tools, prompts and
   * resources are listed again over its live connection (its session and process stay); a server
   * that is not connected, or whose lists fail, is disconnected and connected again. With
   * `restart`, every target is disconnected and connected again. Disabled and blocked servers are
   * left alone. Never rejects because of one server: failures are in each snapshot's `lastError`.
   *
   * @throws DiscoveryError `SERVER_NOT_FOUND` for an unknown `serverName`; `CLOSED`.
   */
  refresh(options: { readonly serverName?: string | undefined; readonly restart?: boolean | undefined } = {}): Promise<ServerSnapshot[]> {
    return this.#serialize(async () => {
      const targets = options.serverName === undefined ? [...this.#states.values()] : [this.#require(options.serverName)];
      await Promise.all(
        targets.map(async (state) => {
          if (inactiveReason(state.definition)) return;
          if (options.restart !== true && state.status === McpServerStatus.CONNECTED) {
            try {
              await this.#connector.relist(state);
              return;
            } catch (error) {
              this.#emitter.emit('server-error', {
                serverName: state.name,
                error: DiscoveryError.isInstance(error)
                  ? error
                  : new DiscoveryError({
                      code: 'LIST_FAILED',
                      message: `MCP server '${state.name}' failed to list its offerings again: ${error instanceof Error ? error.message : String(error)}`,
                      serverName: state.name,
                      cause: error,
                    }),
              });
            }
          }
          await this.#connector.disconnect(state);
          await this.#connector.connect(state, { reconnectOnFailure: false });
        }),
      );
      return targets.map((state) => state.snapshot());
    });
  }

  /** Stop reconnecting and close every client and child process. The manager cannot be used again. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#states.values()].map((state) => this.#connector.disconnect(state)));
    this.#emitter.clear();
  }

  /** Run one runtime change after the ones before it; fails at once after `close()`. */
  #serialize<T>(change: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closedError());
    const run = this.#changes.then(() => {
      if (this.#closed) throw this.#closedError();
      return change();
    });
    this.#changes = run.catch(() => undefined);
    return run;
  }

  #require(name: string): ServerState {
    const state = this.#states.get(name);
    if (state) return state;
    throw new DiscoveryError({
      code: 'SERVER_NOT_FOUND',
      message: `No MCP server is configured with the name '${name}'.`,
      serverName: name,
    });
  }

  /** Connect a server that may run, once discovery has started and unless it is connected already. */
  async #startIfDue(state: ServerState): Promise<void> {
    if (this.#discoveryState === DiscoveryState.NOT_STARTED || inactiveReason(state.definition)) return;
    if (state.status === McpServerStatus.CONNECTED || state.status === McpServerStatus.CONNECTING) return;
    await this.#connector.connect(state, { reconnectOnFailure: false });
  }

  async #remove(state: ServerState): Promise<void> {
    await this.#connector.disconnect(state);
    if (this.#states.get(state.name) === state) this.#states.delete(state.name);
    this.#rebuildRegistries();
  }

  /** Apply a new definition to a server (see {@link McpServerManager.updateServer}). */
  async #update(state: ServerState, definition: ServerDefinition): Promise<'none' | 'updated' | 'restarted'> {
    const before = state.definition;
    const how = compareDefinitions(before, definition);
    if (how !== 'restarted') {
      state.definition = definition;
      return how;
    }
    await this.#connector.disconnect(state);
    state.definition = definition;
    const inactive = inactiveReason(definition);
    if (inactive) {
      this.#setStatus(state, inactive.status, inactive.error);
    } else if (state.status === McpServerStatus.DISABLED || state.status === McpServerStatus.BLOCKED) {
      state.lastError = undefined;
      this.#setStatus(state, McpServerStatus.DISCONNECTED);
    }
    await this.#startIfDue(state);
    // A server that could not run before and cannot run now was not restarted: its entry changed.
    return inactiveReason(before) && inactive ? 'updated' : 'restarted';
  }

  #lookup<E extends { serverName: string }>(registry: ReadonlyRegistry<E>, name: string, kind: 'tool' | 'prompt'): E {
    if (this.#closed) throw this.#closedError();
    const entry = registry.resolve(name);
    if (entry) return entry;
    throw new DiscoveryError({
      code: kind === 'tool' ? 'TOOL_NOT_FOUND' : 'PROMPT_NOT_FOUND',
      message: `No MCP ${kind} is registered under the name '${name}'.`,
      toolName: name,
    });
  }

  #connected(serverName: string, what: string): { state: ServerState; session: ServerSession } {
    if (this.#closed) throw this.#closedError();
    const state = this.#states.get(serverName);
    const session = state?.session;
    if (state && session && state.status === McpServerStatus.CONNECTED) return { state, session };
    throw new DiscoveryError({
      code: state ? 'SERVER_NOT_CONNECTED' : 'SERVER_NOT_FOUND',
      message: `MCP server '${serverName}' is not connected, so ${what} cannot be used.`,
      serverName,
    });
  }

  #timeout(state: ServerState, options: { timeout?: number | undefined }): number {
    return options.timeout ?? state.definition.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  }

  #setStatus(state: ServerState, status: McpServerStatus, error?: DiscoveryError): void {
    const previousStatus = state.status;
    if (error) state.lastError = error;
    else if (status === McpServerStatus.CONNECTED || status === McpServerStatus.CONNECTING) state.lastError = undefined;
    state.status = status;
    if (previousStatus === status && !error) return;
    this.#emitter.emit('server-status-change', {
      serverName: state.name,
      status,
      previousStatus,
      error: state.lastError ? errorInfo(state.lastError) : undefined,
    });
  }

  #setDiscoveryState(next: DiscoveryState): void {
    const previousState = this.#discoveryState;
    if (previousState === next) return;
    this.#discoveryState = next;
    this.#emitter.emit('discovery-state-change', { state: next, previousState });
  }

  #rebuildRegistries(): void {
    this.#registries.rebuild(
      [...this.#states.values()]
        .filter((state) => state.status === McpServerStatus.CONNECTED || state.parked)
        .map((state) => ({ serverName: state.name, offerings: state.offerings })),
    );
  }

  #closedError(): DiscoveryError {
    return new DiscoveryError({ code: 'CLOSED', message: 'This McpServerManager was closed; create a new one to connect again.' });
  }
}

/** Entry fields whose new value applies to the next requests without reconnecting. */
const FIELDS_APPLIED_IN_PLACE = new Set(['timeout', 'trust', 'description']);

/** How a server must change to go from one definition to another. */
function compareDefinitions(before: ServerDefinition, after: ServerDefinition): 'none' | 'updated' | 'restarted' {
  if ((before.disabled === true) !== (after.disabled === true) || before.blockedReason !== after.blockedReason) return 'restarted';
  const fields = new Set([...Object.keys(before.config), ...Object.keys(after.config)]);
  let inPlace = false;
  for (const field of fields) {
    const key = field as keyof typeof before.config;
    if (canonicalJson(before.config[key]) === canonicalJson(after.config[key])) continue;
    if (!FIELDS_APPLIED_IN_PLACE.has(field)) return 'restarted';
    inPlace = true;
  }
  return inPlace ? 'updated' : 'none';
}

function duplicateName(name: string): DiscoveryError {
  return new DiscoveryError({
    code: 'DUPLICATE_SERVER_NAME',
    message: `MCP server '${name}' is configured twice; server names must be unique.`,
    serverName: name,
  });
}

function assertUniqueNames(definitions: readonly ServerDefinition[]): void {
  const seen = new Set<string>();
  for (const definition of definitions) {
    if (seen.has(definition.name)) throw duplicateName(definition.name);
    seen.add(definition.name);
  }
}
