import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Implementation, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ConfigError, ConfigWarning } from '@toolhost/config';
import {
  DEFAULT_CLIENT_INFO,
  McpServerManager,
  type RegisteredResource,
  type RegisteredResourceTemplate,
} from '@toolhost/discovery';
import { buildStatus } from './build-status.js';
import { forwardManagerEvents } from './forward-manager-events.js';
import {
  RootsController,
  completeArgument,
  createClientFeatures,
  readResourceParts,
  resolveResourceReferences,
  setLogLevel,
  type AttachedClientFeatures,
  type CompletionSuggestions,
  type ResolvedResourceReferences,
  type ResourceContentPart,
  type ResourceSubscriptions,
  type ServerLogEvent,
} from './client-features/index.js';
import { findArgumentPosition, type SlashCommandCompletion } from './complete-slash-command.js';
import { createScriptedAdapter } from './create-scripted-adapter.js';
import { formatStatus } from './format-status.js';
import { HostError } from './host-error.js';
import { HostEventEmitter, type HostEventListener, type HostEvents } from './host-events.js';
import type { McpToolHostOptions } from './host-options.js';
import type { FormatStatusOptions, HostStatus } from './host-status.js';
import type { HostToolDefinition, ModelAdapter, ModelToolCall } from './model-adapter.js';
import { buildPromptCommands, findPromptCommand } from './prompt-commands.js';
import { resolveServers, type ResolvedServer } from './resolve-servers.js';
import { runToolCall, type RunToolCallDependencies, type ToolCallResult } from './run-tool-call.js';
import { toToolDefinition } from './find-registered-tool.js';
import { executeSlashCommand, runSlashCommand } from './run-slash-command.js';
import {
  promptToSlashCommand,
  type ExecuteSlashCommandRequest,
  type ExecuteSlashCommandResponse,
  type GetAllSlashCommandsResponse,
  type PromptCommand,
  type SlashCommandResult,
} from './slash-command.js';
import { BUILT_IN_COMMANDS } from './built-in-commands.js';
import { defaultTokenStore, needsAuthentication } from './host-auth.js';
import { HostSignIn } from './host-sign-in.js';
import { notConnectedError, requireClient } from './require-client.js';
import { createToolCallDependencies } from './tool-call-dependencies.js';
import { createToolPolicy } from './tool-policy.js';
import type { UiHooks } from './ui-hooks.js';

/** Default overall cap of one tool call (progress cannot keep it alive longer). */
export const DEFAULT_MAX_TOTAL_CALL_TIMEOUT_MS = 3_600_000;

/** The answer of {@link McpToolHost.handleModelResponse}. */
export interface HandledModelResponse<TToolResults> {
  /** The tool calls found in the response, in order. */
  readonly calls: readonly ModelToolCall[];
  /** One outcome per call, in order. */
  readonly outcomes: readonly ToolCallResult[];
  /** The results in the vendor's format, for the next request; undefined when the model asked for no tool. */
  readonly toolResults: TToolResults | undefined;
}

/** Instructions a server sent in `initialize`. */
export interface ServerInstructions {
  /** The server. */
  readonly serverName: string;
  /** Its instructions. */
  readonly instructions: string;
}

/**
 * Every MCP tool working in your agent: reads the `mcpServers` settings, connects to every
 * server, offers their tools to the model through a {@link ModelAdapter}, asks the user
 * before a tool runs, calls it and maps the result into the parts the model expects.
 * Prompts become slash commands; `/mcp` shows the status.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ projectDir: process.cwd(), adapter, ui: { confirm } });
 * await host.discover();
 * const tools = host.listTools();                 // vendor declarations
 * const { toolResults } = await host.handleModelResponse(response);
 * await host.close();
 * ```
 */
export class McpToolHost<TTool = unknown, TResponse = unknown, TToolResults = unknown> {
  /** The model adapter in use. */
  readonly adapter: ModelAdapter<TTool, TResponse, TToolResults>;
  /** Problems found reading the settings (bad entries are skipped, the others load). */
  readonly configErrors: readonly ConfigError[];
  /** Warnings found reading the settings (unknown fields, ...). */
  readonly configWarnings: readonly ConfigWarning[];
  /** The folders offered to servers as roots; `setFolders` notifies every connected server. */
  readonly roots: RootsController;

  readonly #servers: readonly ResolvedServer[];
  readonly #ui: UiHooks;
  readonly #events = new HostEventEmitter();
  readonly #manager: McpServerManager;
  readonly #clientInfo: Implementation;
  readonly #auth: HostSignIn;
  readonly #toolCalls: RunToolCallDependencies;
  readonly #attached = new Map<string, { client: Client; features: AttachedClientFeatures }>();
  #closed = false;
  #callCounter = 0;
  #executionCounter = 0;

  /** Use {@link McpToolHost.create}; protected so that subclasses (overriding `createClient`...) can exist. */
  protected constructor(
    options: McpToolHostOptions<TTool, TResponse, TToolResults>,
    resolved: Awaited<ReturnType<typeof resolveServers>>,
  ) {
    this.adapter = options.adapter ?? (createScriptedAdapter() as unknown as ModelAdapter<TTool, TResponse, TToolResults>);
    this.#ui = options.ui ?? {};
    this.#servers = resolved.servers;
    this.configErrors = resolved.errors;
    this.configWarnings = resolved.warnings;
    this.#clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.roots = new RootsController({
      folders: options.roots ?? (options.projectDir !== undefined ? [options.projectDir] : []),
    });
    this.#auth = new HostSignIn({
      servers: this.#servers,
      tokenStore: options.stores?.tokens ?? defaultTokenStore(options),
      ui: this.#ui,
      onAuthorizationUrl: (event) => this.#events.emit('auth-url', event),
    });
    this.#manager = new McpServerManager({
      servers: this.#servers,
      clientInfo: this.#clientInfo,
      transportOptions: (serverName) => this.#auth.transportOptions(serverName),
      createClient: (serverName) => this.createClient(serverName),
      ...(options.reservedToolNames ? { reservedToolNames: options.reservedToolNames } : {}),
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });
    forwardManagerEvents({ manager: this.#manager, events: this.#events, ui: this.#ui });
    this.#toolCalls = createToolCallDependencies({
      manager: this.#manager,
      servers: this.#servers,
      policy: createToolPolicy({
        interactive: this.#ui.confirm !== undefined,
        ...(options.stores?.approvals ? { store: options.stores.approvals } : {}),
        ...(options.allowList ? { allowList: options.allowList } : {}),
        ...(options.hostPolicy ? { hostPolicy: options.hostPolicy } : {}),
      }),
      ui: this.#ui,
      events: this.#events,
      resultMapping: options.resultMapping ?? {},
      maxTotalTimeoutMs: options.maxTotalCallTimeoutMs ?? DEFAULT_MAX_TOTAL_CALL_TIMEOUT_MS,
      newToolCallId: () => {
        this.#callCounter += 1;
        return `toolcall-${this.#callCounter}`;
      },
      withStepUp: (stepUp) => this.#auth.withStepUp(stepUp),
    });
  }

  /**
   * Create a host. Reads the settings files (or takes `settings` directly) but connects to
   * nothing until {@link McpToolHost.discover}. Called on a subclass (`MyHost.create(...)`), it
   * constructs that subclass, so overrides such as `createClient` take effect.
   */
  static async create<TTool = unknown, TResponse = unknown, TToolResults = unknown>(
    options: McpToolHostOptions<TTool, TResponse, TToolResults> = {},
  ): Promise<McpToolHost<TTool, TResponse, TToolResults>> {
    if (options.adapter && options.adapter.specificationVersion !== 'v1') {
      throw new HostError({
        code: 'INVALID_OPTIONS',
        message: `The model adapter "${options.adapter.provider}" implements contract "${String(options.adapter.specificationVersion)}", but this host supports "v1"; upgrade the adapter package.`,
      });
    }
    let resolved: Awaited<ReturnType<typeof resolveServers>>;
    try {
      resolved = await resolveServers(options);
    } catch (error) {
      throw new HostError({
        code: 'SETTINGS_LOAD_FAILED',
        message: `Could not load the MCP settings: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
    const HostClass = this as unknown as new (
      hostOptions: McpToolHostOptions<TTool, TResponse, TToolResults>,
      hostResolved: Awaited<ReturnType<typeof resolveServers>>,
    ) => McpToolHost<TTool, TResponse, TToolResults>;
    return new HostClass(options, resolved);
  }

  /** Listen to a host event; the returned function removes the listener. */
  on<K extends keyof HostEvents>(event: K, listener: HostEventListener<K>): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Build the SDK client for one server connection (a `LenientClient`, so an `outputSchema`
   * mismatch never loses a result): capabilities and request handlers for sampling,
   * elicitation, roots, logging and resource updates. Called by discovery for every connection
   * attempt; override in a subclass to add handlers of your own.
   */
  protected createClient(serverName: string): Client {
    const features = createClientFeatures({
      serverName,
      adapter: this.adapter,
      hooks: this.#ui,
      roots: this.roots,
      onLog: (event: ServerLogEvent) => this.#events.emit('server-log', event),
      onResourceUpdated: (event) => this.#events.emit('resource-update', event),
    });
    const { client, attached } = features.createClient(this.#clientInfo);
    this.#attached.get(serverName)?.features.detach();
    this.#attached.set(serverName, { client, features: attached });
    return client;
  }

  /**
   * Connect to every server in parallel and discover their tools, prompts and resources.
   * A server that needs the user to sign in is reported (status view, `needsAuthentication`)
   * and left disconnected; only an entry with `oauth.enabled: true` starts the browser flow here
   * (asking for more scopes when the server's list requests answered 403 `insufficient_scope`).
   */
  async discover(): Promise<HostStatus> {
    this.#assertOpen();
    await this.#manager.discoverAll();
    for (const snapshot of this.#manager.listServers()) {
      const server = this.#servers.find((candidate) => candidate.name === snapshot.name);
      if (server?.config.oauth?.enabled === true && needsAuthentication(snapshot.lastError)) {
        await this.#auth.signIn(snapshot.name, { challenge: this.#auth.stepUpChallenge(snapshot.name) })
          .then(() => this.#manager.reconnect(snapshot.name))
          .catch(() => undefined);
      }
    }
    return this.getStatus();
  }

  /**
   * Sign in to a remote server with OAuth (what `/mcp auth <server>` runs): discovery, client
   * registration, PKCE, the browser through `ui.openBrowser` (or the safe default opener), the
   * loopback callback; the token is stored and the server is connected again. When the server's
   * last answer was 403 `insufficient_scope`, the scopes it asked for are requested too (step-up).
   *
   * @throws HostError `SERVER_NOT_FOUND`; the OAuth layer's `OAuthError` when sign-in fails.
   */
  async authenticate(serverName: string, options: { readonly signal?: AbortSignal } = {}): Promise<HostStatus> {
    this.#assertOpen();
    await this.#auth.signIn(serverName, { ...options, challenge: this.#auth.stepUpChallenge(serverName) });
    await this.#manager.reconnect(serverName);
    return this.getStatus();
  }

  /** The tools in the host's vendor-neutral form. */
  listToolDefinitions(): HostToolDefinition[] {
    return this.#manager.tools.list().map(toToolDefinition);
  }

  /** The tools as the adapter's vendor declarations, ready for the model request. */
  listTools(): TTool[] {
    return this.adapter.toTools(this.listToolDefinitions());
  }

  /**
   * Run one tool call: argument validation, confirmation, the call with the server's timeout
   * (progress resets it, up to an overall cap), and result mapping. Aborting `signal` sends
   * `notifications/cancelled` to the server. Never throws for a failed call: the outcome says
   * what happened, in words the model can use, and `error` carries the typed {@link HostError}.
   *
   * OAuth step-up: when a remote server refuses the call with 403 `insufficient_scope`, the host
   * signs in again asking for the scopes held plus the ones challenged, then retries the call
   * once. A browser flow never starts in the background; here, after the call was allowed
   * (confirmed by the user or pre-approved), it starts only when the host supplied
   * `ui.openBrowser` (a host that does consents to sign-in flows on user actions) or the entry
   * has `oauth.enabled: true`. Otherwise the call fails with `AUTH_REQUIRED`, telling the user
   * to run `toolhost mcp auth <server>` (or the host's equivalent, {@link McpToolHost.authenticate},
   * which then asks for the challenged scopes too). A second `insufficient_scope` after the
   * step-up fails with `STEP_UP_LIMIT`; a failed sign-in with `STEP_UP_FAILED`.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: { readonly signal?: AbortSignal; readonly toolCallId?: string } = {},
  ): Promise<ToolCallResult> {
    this.#assertOpen();
    const call: ModelToolCall = { name, arguments: args, ...(options.toolCallId ? { id: options.toolCallId } : {}) };
    return this.#runCall(call, options.signal);
  }

  /**
   * Convenience for one model turn: find the tool calls in the vendor response, run each in
   * order (confirmations are asked one at a time), and turn the outcomes into the vendor's
   * tool-result format for the next request.
   */
  async handleModelResponse(
    response: TResponse,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<HandledModelResponse<TToolResults>> {
    this.#assertOpen();
    const calls = this.adapter.getToolCalls(response);
    const outcomes: ToolCallResult[] = [];
    for (const call of calls) outcomes.push(await this.#runCall(call, options.signal));
    return { calls, outcomes, toolResults: calls.length > 0 ? this.adapter.toToolResults(outcomes) : undefined };
  }

  /** The MCP prompts, as slash commands (sorted by name). */
  listPrompts(): PromptCommand[] {
    return this.#promptCommands().sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Run a slash command line: a prompt (`/poem-writer --title="Gemini CLI" --mood="reverent"`,
   * or positional `/poem-writer "Gemini CLI" reverent`) returns its text ready for the model;
   * `/name --help` describes a prompt's arguments; `/mcp` returns the status view.
   *
   * @throws HostError `INVALID_SLASH_COMMAND`, `COMMAND_NOT_FOUND`, `MISSING_PROMPT_ARGUMENTS`,
   * `SERVER_NOT_FOUND`, `PROMPT_FAILED`, `INVALID_PROMPT_RESPONSE`
   */
  async runSlashCommand(line: string, options: { readonly signal?: AbortSignal } = {}): Promise<SlashCommandResult> {
    this.#assertOpen();
    return runSlashCommand(line, {
      prompts: () => this.#promptCommands(),
      getClient: (serverName) => this.#manager.getClient(serverName),
      status: () => this.getStatus(),
      authenticate: (serverName) => this.authenticate(serverName, options),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Every slash command, in the shape of the development-tool extension's `commands/get`. */
  listCommands(): GetAllSlashCommandsResponse {
    return { commands: [...BUILT_IN_COMMANDS, ...this.listPrompts().map(promptToSlashCommand)] };
  }

  /**
   * Run a slash command, in the shape of the development-tool extension's `command/execute`.
   * Never throws: a command that cannot run answers `FAILED_TO_START` with the reason.
   */
  async executeCommand(
    request: ExecuteSlashCommandRequest,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<ExecuteSlashCommandResponse> {
    this.#executionCounter += 1;
    return executeSlashCommand(request, {
      executionId: `command-${this.#executionCounter}`,
      run: (line) => this.runSlashCommand(line, options),
    });
  }

  /** The `/mcp` view as data: every server (no env or header values) and the discovery state. */
  getStatus(): HostStatus {
    return buildStatus({
      discoveryState: this.#manager.getDiscoveryState(),
      servers: this.#servers,
      snapshots: this.#manager.listServers(),
      tools: this.#manager.tools.list(),
      prompts: this.#promptCommands(),
    });
  }

  /** The `/mcp` view as text, as the seeds show it. */
  formatStatus(options: FormatStatusOptions = {}): string {
    return formatStatus(this.getStatus(), options);
  }

  /** The `instructions` of every connected server that sent some, for the host's system prompt. */
  getServerInstructions(): ServerInstructions[] {
    return this.#manager
      .listServers()
      .filter((server) => server.status === 'connected' && server.instructions)
      .map((server) => ({ serverName: server.name, instructions: server.instructions ?? '' }));
  }

  /**
   * Resolve the `@server:uri` references in user input (`summarise @docs:file:///guide.md`) into
   * parts for the model: the input, then `Content from @server:uri:` and the resource's text or
   * binary data for each reference. Unknown or unconnected servers and failed reads are listed in
   * `failed` (each a `ClientFeatureError`) and noted in a text part; nothing is thrown.
   */
  async resolveResourceReferences(
    input: string,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<ResolvedResourceReferences> {
    this.#assertOpen();
    return resolveResourceReferences({
      input,
      getClient: (serverName) => this.#manager.getClient(serverName),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * `resources/read` on one server: each content item as a part (text as `text`, binary as
   * `inlineData`). Without `serverName`, the connected server that lists `uri` is used.
   *
   * @throws HostError `SERVER_NOT_FOUND` when no connected server fits; `ClientFeatureError`
   * `RESOURCE_READ_FAILED` when the server fails the read.
   */
  async readResource(options: {
    readonly uri: string;
    readonly serverName?: string;
    readonly signal?: AbortSignal;
  }): Promise<ResourceContentPart[]> {
    this.#assertOpen();
    const serverName = options.serverName ?? this.#manager.findResource(options.uri)?.serverName;
    if (serverName === undefined) {
      throw new HostError({
        code: 'SERVER_NOT_FOUND',
        message: `No connected MCP server lists the resource "${options.uri}"; pass serverName to read it from a given server.`,
      });
    }
    const client = this.#requireClient(serverName, `read "${options.uri}"`);
    return readResourceParts(client, { serverName, uri: options.uri, ...(options.signal ? { signal: options.signal } : {}) });
  }

  /** The resources the connected servers list (every page), optionally of one server only. */
  listResources(options: { readonly serverName?: string } = {}): RegisteredResource[] {
    return this.#manager.resources.list().filter((entry) => options.serverName === undefined || entry.serverName === options.serverName);
  }

  /** The resource templates the connected servers list (every page), optionally of one server only. */
  listResourceTemplates(options: { readonly serverName?: string } = {}): RegisteredResourceTemplate[] {
    return this.#manager.resourceTemplates
      .list()
      .filter((entry) => options.serverName === undefined || entry.serverName === options.serverName);
  }

  /**
   * Subscribe to a resource (`resources/subscribe`); its changes arrive as `resource-update` events.
   *
   * @throws HostError `SERVER_NOT_FOUND` when the server is not connected; `ClientFeatureError`
   * `CAPABILITY_NOT_SUPPORTED` when it offers no subscriptions.
   */
  async subscribeResource(serverName: string, uri: string): Promise<void> {
    this.#assertOpen();
    const subscriptions = this.getResourceSubscriptions(serverName);
    if (!subscriptions) throw notConnectedError({ servers: this.#servers, serverName, what: `subscribe to "${uri}"` });
    await subscriptions.subscribe(uri);
  }

  /** Unsubscribe from a resource (no request when it was not subscribed, or the server is gone). */
  async unsubscribeResource(serverName: string, uri: string): Promise<void> {
    this.#assertOpen();
    await this.getResourceSubscriptions(serverName)?.unsubscribe(uri);
  }

  /**
   * Set the level of the log messages a server sends (`logging/setLevel`); they arrive as
   * `server-log` events.
   *
   * @throws HostError `SERVER_NOT_FOUND` when the server is not connected; `ClientFeatureError`
   * `CAPABILITY_NOT_SUPPORTED` when it does not support logging.
   */
  async setLogLevel(serverName: string, level: LoggingLevel): Promise<void> {
    this.#assertOpen();
    await setLogLevel(this.#requireClient(serverName, 'set its log level'), { serverName, level });
  }

  /**
   * Suggestions for one argument of a prompt slash command (`completion/complete`), given what
   * the user typed so far and the arguments already given (`context`). No suggestions when the
   * server does not offer completions.
   *
   * @throws HostError `COMMAND_NOT_FOUND` for an unknown prompt command; `SERVER_NOT_FOUND` when
   * its server is not connected.
   */
  async completePromptArgument(options: {
    /** The slash command name of the prompt (`poem-writer`). */
    readonly command: string;
    /** The argument being typed. */
    readonly argument: string;
    /** What the user typed so far. */
    readonly value: string;
    /** Arguments already given. */
    readonly context?: Readonly<Record<string, string>>;
    /** Aborts the request. */
    readonly signal?: AbortSignal;
  }): Promise<CompletionSuggestions> {
    this.#assertOpen();
    const command = findPromptCommand(this.#promptCommands(), options.command);
    return completeArgument(this.#requireClient(command.serverName, `complete /${command.name}`), {
      ref: { type: 'prompt', name: command.promptName },
      argument: options.argument,
      value: options.value,
      ...(options.context && Object.keys(options.context).length > 0 ? { context: options.context } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Completions while the user types a prompt slash command: finds the argument being typed at
   * the end of `line` (`/poem-writer --mood=rev`, or positionally `/poem-writer "Gemini CLI" r`)
   * and asks the prompt's server for values. Undefined when the line is not a prompt command or
   * no argument is being typed (see `valueStart` to replace the typed value with a suggestion).
   *
   * @throws HostError `SERVER_NOT_FOUND` when the prompt's server is not connected.
   */
  async completeSlashCommand(line: string, options: { readonly signal?: AbortSignal } = {}): Promise<SlashCommandCompletion | undefined> {
    this.#assertOpen();
    const name = /^\s*\/(\S+)/.exec(line)?.[1];
    const command = this.#promptCommands().find((prompt) => prompt.name === name);
    if (!command) return undefined;
    const position = findArgumentPosition({ line, commandName: command.name, arguments: command.arguments });
    if (!position) return undefined;
    const suggestions = await this.completePromptArgument({
      command: command.name,
      argument: position.argument,
      value: position.value,
      context: position.context,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { ...position, ...suggestions };
  }

  /**
   * Subscribe to a connected server's resources (`resources/subscribe`); updates arrive as
   * `resource-update` events. Undefined when the server is not connected.
   */
  getResourceSubscriptions(serverName: string): ResourceSubscriptions | undefined {
    const attached = this.#attached.get(serverName);
    const client = this.#manager.getClient(serverName);
    return attached && client === attached.client ? attached.features.subscriptions : undefined;
  }

  /** The discovery layer underneath, for features the host does not wrap (reconnect, raw requests). */
  get manager(): McpServerManager {
    return this.#manager;
  }

  /** End every connection and child process. The host cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const { features } of this.#attached.values()) features.detach();
    this.#attached.clear();
    await this.#manager.close();
    this.#events.clear();
  }

  #promptCommands(): PromptCommand[] {
    return buildPromptCommands(
      this.#manager.prompts.list(),
      BUILT_IN_COMMANDS.map((command) => command.name),
    );
  }

  #requireClient(serverName: string, what: string): Client {
    return requireClient({ manager: this.#manager, servers: this.#servers, serverName, what });
  }

  #runCall(call: ModelToolCall, signal: AbortSignal | undefined): Promise<ToolCallResult> {
    return runToolCall(this.#toolCalls, call, signal ? { signal } : {});
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new HostError({ code: 'HOST_CLOSED', message: 'This McpToolHost was closed; create a new one to use MCP servers again.' });
    }
  }
}
