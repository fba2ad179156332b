import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { buildRegistryEntries, resourceKey } from './build-registry-entries.js';
import { DiscoveryError, DiscoveryErrorCode } from './discovery-error.js';
import type {
  McpServerManagerEvents,
  McpServerManagerOptions,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
  ServerSnapshot,
} from './manager-types.js';
import { resolveReconnectOptions, type ResolvedReconnectOptions } from './reconnect-delay.js';
import { isEmptyDiff, Registry, type ReadonlyRegistry } from './registry.js';
import { ServerConnector } from './server-connector.js';
import type { CallOptions } from './server-session.js';
import { DiscoveryState, McpServerStatus } from './server-status.js';
import { errorInfo, ServerState } from './server-state.js';
import { TypedEmitter, type Listener } from './typed-emitter.js';

/** Default `clientInfo` sent in `initialize`. */
export const DEFAULT_CLIENT_INFO = { name: 'toolhost', version: '0.1.0' } as const;

/**
 * Connects to every configured MCP server in parallel, discovers their tools, prompts and
 * resources, keeps one registry of each with deterministic conflict-free names, follows
 * `list_changed` notifications and reconnects servers that go away.
 *
 * @example
 * const manager = new McpServerManager({ servers: [{ name: 'fs', config: { command: 'mcp-fs' } }] });
 * await manager.discoverAll();
 * const result = await manager.callTool('read_file', { path: 'a.txt' });
 * await manager.close();
 */
export class McpServerManager {
  /** Every registered tool, by registered name. */
  readonly tools: ReadonlyRegistry<RegisteredTool>;
  /** Every registered prompt, by registered name. */
  readonly prompts: ReadonlyRegistry<RegisteredPrompt>;
  /** Every resource, keyed by `resourceKey(serverName, uri)`; see {@link McpServerManager.findResource}. */
  readonly resources: ReadonlyRegistry<RegisteredResource>;
  /** Every resource template, keyed by `resourceKey(serverName, uriTemplate)`. */
  readonly resourceTemplates: ReadonlyRegistry<RegisteredResourceTemplate>;

  readonly #emitter = new TypedEmitter<McpServerManagerEvents>();
  readonly #states = new Map<string, ServerState>();
  readonly #toolRegistry = new Registry<RegisteredTool>((entry) => entry.registeredName);
  readonly #promptRegistry = new Registry<RegisteredPrompt>((entry) => entry.registeredName);
  readonly #resourceRegistry = new Registry<RegisteredResource>((entry) => resourceKey(entry.serverName, entry.uri));
  readonly #templateRegistry = new Registry<RegisteredResourceTemplate>((entry) =>
    resourceKey(entry.serverName, entry.uriTemplate),
  );
  readonly #connector: ServerConnector;
  #discoveryState: DiscoveryState = DiscoveryState.NOT_STARTED;
  #discovery: Promise<ServerSnapshot[]> | undefined;
  #closed = false;
  readonly #reservedToolNames: string[];

  /** Create a manager; nothing connects until {@link McpServerManager.discoverAll}. */
  constructor(options: McpServerManagerOptions) {
    this.tools = this.#toolRegistry;
    this.prompts = this.#promptRegistry;
    this.resources = this.#resourceRegistry;
    this.resourceTemplates = this.#templateRegistry;
    for (const definition of options.servers) {
      if (this.#states.has(definition.name)) {
        throw new DiscoveryError(`MCP server '${definition.name}' is configured twice; server names must be unique.`, {
          code: DiscoveryErrorCode.DUPLICATE_SERVER_NAME,
          serverName: definition.name,
        });
      }
      this.#states.set(definition.name, new ServerState(definition));
    }
    this.#reservedToolNames = [...(options.reservedToolNames ?? [])];
    const reconnect: ResolvedReconnectOptions = resolveReconnectOptions(options.reconnect);
    this.#connector = new ServerConnector({
      createClient:
        options.createClient ??
        (() => new Client({ ...(options.clientInfo ?? DEFAULT_CLIENT_INFO) }, { capabilities: {} })),
      transportOptions: options.transportOptions,
      reconnect,
      maxPages: options.maxPages,
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
      if (state.definition.disabled) return this.#setStatus(state, McpServerStatus.DISABLED);
      if (state.definition.blockedReason !== undefined) return this.#setStatus(state, McpServerStatus.BLOCKED);
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

  /** The connected client of a server (for prompts/get, resources/read, completion...), if connected. */
  getClient(serverName: string): Client | undefined {
    const state = this.#states.get(serverName);
    return state?.status === McpServerStatus.CONNECTED ? state.session?.client : undefined;
  }

  /** The first resource with this URI, servers in settings order (or only `serverName`'s). */
  findResource(uri: string, serverName?: string): RegisteredResource | undefined {
    if (serverName !== undefined) return this.#resourceRegistry.get(resourceKey(serverName, uri));
    return this.#resourceRegistry.list().find((entry) => entry.uri === uri);
  }

  /**
   * Call a registered tool: the server gets the tool's original name. The signal is passed
   * to the SDK, so aborting sends `notifications/cancelled`. Fails at once with
   * `CONNECTION_CLOSED` if the server goes away during the call.
   *
   * @param registeredName the name from {@link McpServerManager.tools}
   */
  async callTool(
    registeredName: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    if (this.#closed) throw this.#closedError();
    const entry = this.#toolRegistry.get(registeredName);
    if (!entry) {
      throw new DiscoveryError(`No MCP tool is registered under the name '${registeredName}'.`, {
        code: DiscoveryErrorCode.TOOL_NOT_FOUND,
        toolName: registeredName,
      });
    }
    const state = this.#states.get(entry.serverName);
    const session = state?.session;
    if (!state || !session || state.status !== McpServerStatus.CONNECTED) {
      throw new DiscoveryError(
        `MCP server '${entry.serverName}' is not connected, so tool '${entry.originalName}' cannot be called.`,
        { code: DiscoveryErrorCode.SERVER_NOT_CONNECTED, serverName: entry.serverName, toolName: entry.originalName },
      );
    }
    return session.callTool(entry.originalName, args, {
      ...options,
      timeout: options.timeout ?? state.definition.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
    });
  }

  /** Close a server's connection (if any) and connect and discover it again. */
  async reconnect(name: string): Promise<ServerSnapshot> {
    if (this.#closed) throw this.#closedError();
    const state = this.#states.get(name);
    if (!state) {
      throw new DiscoveryError(`No MCP server is configured with the name '${name}'.`, {
        code: DiscoveryErrorCode.SERVER_NOT_FOUND,
        serverName: name,
      });
    }
    if (state.definition.disabled || state.definition.blockedReason !== undefined) return state.snapshot();
    await this.#connector.disconnect(state);
    await this.#connector.connect(state, { reconnectOnFailure: false });
    return state.snapshot();
  }

  /** Stop reconnecting and close every client and child process. The manager cannot be used again. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#states.values()].map((state) => this.#connector.disconnect(state)));
    this.#emitter.clear();
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
      error: state.snapshot().lastError ?? (error ? errorInfo(error) : undefined),
    });
  }

  #setDiscoveryState(next: DiscoveryState): void {
    const previousState = this.#discoveryState;
    if (previousState === next) return;
    this.#discoveryState = next;
    this.#emitter.emit('discovery-state-change', { state: next, previousState });
  }

  #rebuildRegistries(): void {
    const connected = [...this.#states.values()]
      .filter((state) => state.status === McpServerStatus.CONNECTED)
      .map((state) => ({ serverName: state.name, offerings: state.offerings }));
    const entries = buildRegistryEntries(connected, { reservedNames: this.#reservedToolNames });
    const tools = this.#toolRegistry.replace(entries.tools);
    const prompts = this.#promptRegistry.replace(entries.prompts);
    const resources = this.#resourceRegistry.replace(entries.resources);
    const templates = this.#templateRegistry.replace(entries.resourceTemplates);
    if (!isEmptyDiff(tools)) this.#emitter.emit('tools-change', tools);
    if (!isEmptyDiff(prompts)) this.#emitter.emit('prompts-change', prompts);
    if (!isEmptyDiff(resources) || !isEmptyDiff(templates)) {
      this.#emitter.emit('resources-change', { ...resources, templates });
    }
  }

  #closedError(): DiscoveryError {
    return new DiscoveryError('This McpServerManager was closed; create a new one to connect again.', {
      code: DiscoveryErrorCode.MANAGER_CLOSED,
    });
  }
}
