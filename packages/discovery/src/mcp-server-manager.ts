import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { resourceKey } from './build-registry-entries.js';
import { DiscoveryError } from './discovery-error.js';
import type {
  McpServerManagerEvents,
  McpServerManagerOptions,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
  RequestOptions,
  ServerSnapshot,
} from './manager-types.js';
import { resolveReconnectOptions } from './reconnect-delay.js';
import type { ReadonlyRegistry } from './registry.js';
import { versionNegotiationOptions } from './version-negotiation.js';
import { ServerConnector } from './server-connector.js';
import { ServerRegistries } from './server-registries.js';
import type { CallOptions, ServerSession } from './server-session.js';
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
  readonly #registries: ServerRegistries;
  readonly #connector: ServerConnector;
  #discoveryState: DiscoveryState = DiscoveryState.NOT_STARTED;
  #discovery: Promise<ServerSnapshot[]> | undefined;
  #closed = false;

  /** Create a manager; nothing connects until {@link McpServerManager.discoverAll}. */
  constructor(options: McpServerManagerOptions) {
    for (const definition of options.servers) {
      if (this.#states.has(definition.name)) {
        throw new DiscoveryError({
          code: 'DUPLICATE_SERVER_NAME',
          message: `MCP server '${definition.name}' is configured twice; server names must be unique.`,
          serverName: definition.name,
        });
      }
      this.#states.set(definition.name, new ServerState(definition));
    }
    this.#registries = new ServerRegistries(this.#emitter, {
      reservedNames: [...(options.reservedToolNames ?? [])],
      policy: options.toolNamePolicy,
    });
    this.tools = this.#registries.tools;
    this.prompts = this.#registries.prompts;
    this.resources = this.#registries.resources;
    this.resourceTemplates = this.#registries.resourceTemplates;
    const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.#connector = new ServerConnector({
      createClient:
        options.createClient ??
        ((_name, config) => new Client({ ...clientInfo }, { capabilities: {}, ...versionNegotiationOptions(config) })),
      transportOptions: options.transportOptions,
      reconnect: resolveReconnectOptions(options.reconnect),
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
  getClient(serverName: string): Client | undefined {
    const state = this.#states.get(serverName);
    return state?.status === McpServerStatus.CONNECTED ? state.session?.client : undefined;
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
    const { state, session } = this.#connected(serverName, `resource '${uri}'`);
    return session.request({ description: `resource '${uri}'`, signal: options.signal }, (client) =>
      client.readResource({ uri }, { signal: options.signal, timeout: this.#timeout(state, options) }),
    );
  }

  /** Close a server's connection (if any) and connect and discover it again. */
  async reconnect(name: string): Promise<ServerSnapshot> {
    if (this.#closed) throw this.#closedError();
    const state = this.#states.get(name);
    if (!state) {
      throw new DiscoveryError({
        code: 'SERVER_NOT_FOUND',
        message: `No MCP server is configured with the name '${name}'.`,
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
        .filter((state) => state.status === McpServerStatus.CONNECTED)
        .map((state) => ({ serverName: state.name, offerings: state.offerings })),
    );
  }

  #closedError(): DiscoveryError {
    return new DiscoveryError({ code: 'CLOSED', message: 'This McpServerManager was closed; create a new one to connect again.' });
  }
}
