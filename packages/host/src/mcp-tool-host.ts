import { formatToolhostCommand, getAppDirFromEnv } from '@toolhost/config';
import { ConfirmationPolicy, LinearTimeJsonSchemaValidator, ToolArgumentValidator } from '@toolhost/confirmation';
import {
  createClientFeatures,
  DEFAULT_MAX_MESSAGE_DEPTH,
  RootsController,
  SKILLS_EXTENSION_ID,
  type ConnectionClient,
  type OpenConnection,
  type ProjectFolder,
  type TraceContext,
} from '@toolhost/connection';
import type { PoolHost } from '@toolhost/connection/pool';
import { escapeControlText, type HostToolDefinition, type ModelAdapter, type ModelToolCall, type UiHooks } from '@toolhost/contract';
import {
  DEFAULT_CLIENT_INFO,
  DEFAULT_MAX_DEFINITION_DEPTH,
  McpServerManager,
  McpServerStatus,
  versionNegotiationOptions,
  type StderrEvent,
} from '@toolhost/discovery';
import { createScriptedAdapter } from './create-scripted-adapter.js';
import { defaultTokenStore, needsAuthentication } from './host-auth.js';
import { skillCommands } from './command-lists.js';
import { HostCommands } from './host-commands.js';
import { HostConfirmations } from './host-confirmations.js';
import { HostCore } from './host-core.js';
import { HostError } from './host-error.js';
import { hostErrorFrom, withHostErrors } from './host-error-from.js';
import { HostEventEmitter, type HostEvents } from './host-events.js';
import type { HostTaskOptions, McpToolHostOptions } from './host-options.js';
import type { ConnectionPool } from './connection-pool/connection-pool.js';
import { HostTasks } from './host-tasks.js';
import { TaskRegistry, type ResolvedTaskOptions } from './tool-call/tasks/task-registry.js';
import { defaultTaskStore } from './tool-call/tasks/task-store.js';
import { HostPrompts } from './host-prompts.js';
import { HostResources } from './host-resources.js';
import { HostServerSet } from './host-server-set.js';
import { HostServers } from './host-servers.js';
import type { RequestOptions } from './request-options.js';
import { HostSignIn } from './host-sign-in.js';
import { buildDiscoveryReport, type DiscoveryReport } from './discovery-report.js';
import { buildHostWarnings } from './host-warnings.js';
import { resolveServers, type ResolvedServers } from './resolve-servers.js';
import { SettingsWatcher } from './settings-watcher.js';
import { createActivateSkillTool } from './skills/activate-skill-tool.js';
import { HostSkills, type SkillSettings } from './skills/host-skills.js';
import { ACTIVATE_SKILL_TOOL_NAME, DEFAULT_SKILL_MAX_LENGTH } from './skills/skill-text.js';
import { toCallableTool } from './tool-call/callable-tool.js';
import { checkToolCall } from './tool-call/check-tool-call.js';
import { runToolCall, type ToolCallResult } from './tool-call/run-tool-call.js';
import type { ToolCallExtras } from './tool-call/call-hooks.js';
import { PendingConfirmations } from './tool-call/pending-confirmations.js';
import type { HostProvidedTool } from './tool-call/host-provided-tool.js';
import { requestPrompt } from './prompt-commands.js';
import { createPromptTools, GET_PROMPT_TOOL_NAME, LIST_PROMPTS_TOOL_NAME } from './tool-call/prompt-tools.js';
import { createResourceTools, LIST_RESOURCES_TOOL_NAME, READ_RESOURCE_TOOL_NAME } from './tool-call/resource-tools.js';
import { matchesToolFilter, type ToolFilter } from './tool-filter.js';
import type { ToolCallRuntime } from './tool-call/tool-call-runtime.js';

/** Default quiet time of `watchSettings` after a change before the settings are read again. */
const DEFAULT_WATCH_DEBOUNCE_MS = 200;

/** Default overall cap of one tool call (progress cannot keep it alive longer). */
const DEFAULT_MAX_TOTAL_CALL_TIMEOUT_MS = 3_600_000;

/** Options of {@link McpToolHost.callTool} and {@link McpToolHost.handleModelResponse}: a signal, and `_meta` entries and HTTP headers for these calls only. */
export interface ToolCallOptions extends ToolRequestOptions, ToolCallExtras {}

/** The answer of {@link McpToolHost.handleModelResponse}. */
export interface HandledModelResponse<TToolResults> {
  /** The tool calls found in the response, in order. */
  readonly calls: readonly ModelToolCall[];
  /** One result per call, in order. */
  readonly outcomes: readonly ToolCallResult[];
  /** The results in the vendor's format, for the next request; undefined when the model asked for no tool. */
  readonly toolResults: TToolResults | undefined;
}

/** Options of one model request's tools: {@link McpToolHost.listTools}, `callTool`, `handleModelResponse`. */
export interface ToolRequestOptions extends RequestOptions {
  /**
   * The tools this request offers. Give the same filter to `listTools` and to `handleModelResponse`
   * (or `callTool`): a call to a tool outside it is refused with `TOOL_NOT_FOUND`, so a model
   * cannot call a tool it was not offered. @default every tool
   */
  readonly filter?: ToolFilter;
}

/** The folders offered to servers as MCP roots (`host.roots`). */
export interface HostRoots {
  /** The current roots, as sent in `roots/list`. */
  list(): Array<{ readonly uri: string; readonly name?: string }>;
  /** Replace the folders; every connected server is told the list changed. */
  set(params: { readonly folders: ReadonlyArray<string | ProjectFolder> }): Promise<void>;
}

/**
 * Every MCP tool working in your agent: reads the `mcpServers` settings, connects to every
 * server, offers their tools to the model through a {@link ModelAdapter}, asks the user before a
 * tool runs, calls it and maps the result into the parts the model expects.
 *
 * The core loop is flat (`create`, `discover`, `listTools`, `handleModelResponse`, `callTool`,
 * `on`, `close`); everything else is grouped by subject: {@link McpToolHost.servers},
 * {@link McpToolHost.prompts}, {@link McpToolHost.commands}, {@link McpToolHost.resources},
 * {@link McpToolHost.roots}, {@link McpToolHost.confirmations}. Methods take `(params, options?)`; UI hooks only ask questions and
 * events only notify.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ projectDir: process.cwd(), adapter, ui: { confirm } });
 * await host.discover();
 * const tools = host.listTools();                           // vendor declarations for the model request
 * const { toolResults } = await host.handleModelResponse(response); // confirm → call → map
 * await host.close();
 * ```
 */
export class McpToolHost<TTool = unknown, TResponse = unknown, TToolResults = unknown> {
  /** The model adapter in use. */
  readonly adapter: ModelAdapter<TTool, TResponse, TToolResults>;
  /** The configured servers: status, the `/mcp` view, tools, sign-in, reconnect, log level. */
  readonly servers: HostServers;
  /** The servers' MCP prompts: list, fetch with arguments, complete arguments. */
  readonly prompts: HostPrompts;
  /** Slash commands: `/mcp` and one per prompt; run, list, complete. */
  readonly commands: HostCommands;
  /** The servers' MCP resources: list, read, subscribe, `@server:uri` references. */
  readonly resources: HostResources;
  /** The folders offered to servers as roots. */
  readonly roots: HostRoots;
  /** The tool calls waiting for the user's decision: list them, answer them later by tool call id. */
  readonly confirmations: HostConfirmations;
  /** The tasks of long tool calls (with the `tasks` option): list the outstanding ones, resume one after a restart, cancel one. */
  readonly tasks: HostTasks;
  /**
   * The servers' skills (the MCP Skills extension, with the `skills` option): list them, give the
   * model their `instructions()`, load one (verified, after the same confirmation rules as tools)
   * and read its files.
   */
  readonly skills: HostSkills;

  readonly #core: HostCore;
  /** OAuth sign-in and step-up of the remote servers. */
  readonly #auth: HostSignIn;
  readonly #rootsController: RootsController;
  readonly #runtime: ToolCallRuntime;
  readonly #pendingConfirmations: PendingConfirmations;
  readonly #clientInfo: { readonly name: string; readonly version: string };
  readonly #traceContext: (() => TraceContext | undefined) | undefined;
  readonly #extensions: McpToolHostOptions['extensions'];
  readonly #limits: McpToolHostOptions['limits'];
  readonly #watcher: SettingsWatcher | undefined;
  readonly #hostToolGroups: readonly HostToolGroup[];
  readonly #skillSettings: SkillSettings;
  #skillTool: { readonly key: string; readonly tool: HostProvidedTool } | undefined;
  readonly #onConnectionError: 'throw' | 'warn';
  /** The settings folder the `toolhost` command line must be pointed at in hints (none for the `settings` option). */
  readonly #cliAppDir: string | undefined;
  readonly #taskRegistry: TaskRegistry | undefined;
  #callCounter = 0;

  /** Use {@link McpToolHost.create}; protected so that a subclass can exist. */
  protected constructor(options: McpToolHostOptions<TTool, TResponse, TToolResults>, resolved: ResolvedServers) {
    this.adapter = options.adapter ?? (createScriptedAdapter() as unknown as ModelAdapter<TTool, TResponse, TToolResults>);
    const ui: UiHooks = options.ui ?? {};
    const events = new HostEventEmitter();
    this.#clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.#traceContext = options.traceContext;
    this.#skillSettings = resolveSkillSettings(options.skills);
    this.#extensions = this.#skillSettings.enabled ? { [SKILLS_EXTENSION_ID]: {}, ...options.extensions } : options.extensions;
    this.#limits = options.limits;
    this.#onConnectionError = options.onConnectionError ?? 'warn';
    this.#cliAppDir = options.settings ? undefined : options.appDir;
    this.#rootsController = createRootsController(options.roots ?? (options.projectDir !== undefined ? [options.projectDir] : []));
    const tokenStore = options.stores?.tokens ?? defaultTokenStore(options);
    const auth = new HostSignIn({
      servers: () => this.#core.servers,
      tokenStore,
      // Through npx, like the default trustCommand: the host's user may not have `toolhost` on the PATH.
      authCommand: formatToolhostCommand('mcp auth', this.#cliAppDir, { runner: 'npx' }),
      ui,
      onAuthorizationUrl: (event) => events.emit('sign-in-start', event),
      onWarning: (warning) => events.emit('warning', warning),
      fetch: options.fetch,
      env: options.env,
    });
    const manager = new McpServerManager<ConnectionClient>({
      servers: resolved.servers,
      clientInfo: this.#clientInfo,
      toolNamePolicy: this.adapter.toolNames,
      transportOptions: (serverName) => {
        const maxMessageBytes = options.limits?.maxMessageBytes;
        const stderrLinesPerSecond = options.limits?.stderrLinesPerSecond;
        return {
          ...auth.transportOptions(serverName),
          ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
          ...(stderrLinesPerSecond === undefined ? {} : { stderrLinesPerSecond }),
          onStderr: (event) => emitStderr(events, serverName, event),
        };
      },
      createClient: (serverName) => this.#createClient(serverName),
      ...(options.limits?.maxDefinitionDepth !== undefined ? { maxDefinitionDepth: options.limits.maxDefinitionDepth } : {}),
      ...(options.limits?.maxDefinitionLength !== undefined ? { maxDefinitionLength: options.limits.maxDefinitionLength } : {}),
      ...(options.connectionPool
        ? { openConnection: poolConnectionSource(options.connectionPool, { tokenStore, fetch: options.fetch }) }
        : {}),
      ...(options.reservedToolNames || options.resourceTools || options.promptTools || this.#skillSettings.activateTool
        ? {
            reservedToolNames: [
              ...(options.reservedToolNames ?? []),
              ...(options.resourceTools ? RESOURCE_TOOL_NAMES : []),
              ...(options.promptTools ? PROMPT_TOOL_NAMES : []),
              ...(this.#skillSettings.activateTool ? [ACTIVATE_SKILL_TOOL_NAME] : []),
            ],
          }
        : {}),
      ...(this.#skillSettings.enabled ? { skills: true } : {}),
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });
    this.#auth = auth;
    this.#core = new HostCore({ servers: resolved.servers, manager, events, ui, warnings: buildHostWarnings(resolved) });
    const taskOptions = resolveTaskOptions(options.tasks);
    this.#taskRegistry = taskOptions
      ? new TaskRegistry({ options: taskOptions, store: options.stores?.tasks ?? defaultTaskStore(options), events })
      : undefined;
    forwardManagerEvents(this.#core);
    this.#pendingConfirmations = new PendingConfirmations(events);
    this.#runtime = this.#createRuntime(options);
    const runtime = this.#runtime;
    this.confirmations = new HostConfirmations(this.#core, this.#pendingConfirmations, (params) => checkToolCall(runtime, params));
    this.tasks = new HostTasks(this.#core, this.#taskRegistry, () => this.#runtime);
    const serverSet = new HostServerSet(this.#core, options, resolved);
    this.servers = new HostServers(this.#core, serverSet, auth);
    this.prompts = new HostPrompts(this.#core);
    this.skills = new HostSkills(this.#core, () => runtime, this.#skillSettings);
    this.commands = new HostCommands(this.#core, this.servers, this.prompts, this.skills);
    this.resources = new HostResources(this.#core);
    this.#hostToolGroups = this.#createHostTools(options);
    const rootsController = this.#rootsController;
    this.roots = {
      list: () => rootsController.list(),
      set: (params) => withHostErrors(() => rootsController.setFolders(params.folders)),
    };
    this.#watcher = this.#startWatcher(options, serverSet);
  }

  /**
   * Create a host. Reads the settings files (or takes `settings` directly) but connects to
   * nothing until {@link McpToolHost.discover}. Called on a subclass (`MyHost.create(...)`), it
   * constructs that subclass.
   *
   * @throws HostError `UNSUPPORTED_ADAPTER` for an adapter of another contract version; `SETTINGS_LOAD_FAILED`.
   */
  static async create<TTool = unknown, TResponse = unknown, TToolResults = unknown>(
    options: McpToolHostOptions<TTool, TResponse, TToolResults> = {},
  ): Promise<McpToolHost<TTool, TResponse, TToolResults>> {
    checkTaskOptions(options.tasks);
    if (options.adapter && options.adapter.specificationVersion !== 'v1') {
      throw new HostError({
        code: 'UNSUPPORTED_ADAPTER',
        message: `The model adapter "${options.adapter.provider}" implements contract "${String(options.adapter.specificationVersion)}", but this host supports "v1"; use an adapter package made for this version of @toolhost/host.`,
      });
    }
    // The settings folder: the option, else $TOOLHOST_APP_DIR (from `env`), else `.toolhost`.
    const appDir = options.appDir ?? (options.settings ? undefined : getAppDirFromEnv(options.env ?? process.env));
    const effective = appDir === options.appDir ? options : { ...options, appDir };
    let resolved: ResolvedServers;
    try {
      resolved = await resolveServers(effective);
    } catch (error) {
      throw new HostError({
        code: 'SETTINGS_LOAD_FAILED',
        message: `Could not load the MCP settings: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
    const HostClass = this as unknown as new (
      hostOptions: McpToolHostOptions<TTool, TResponse, TToolResults>,
      hostResolved: ResolvedServers,
    ) => McpToolHost<TTool, TResponse, TToolResults>;
    return new HostClass(effective, resolved);
  }

  /**
   * Connect to every server in parallel and discover their tools, prompts and resources. A
   * server that needs the user to sign in is reported (status, `needsAuthentication`) and left
   * disconnected; only an entry with `oauth.enabled: true` starts the browser flow here. Servers
   * the settings block (an untrusted project folder) are reported in `warnings` and as `warning`
   * events, naming the command that trusts the folder.
   *
   * Returns a {@link DiscoveryReport}: the status (`servers`, `warnings`), the number of tools the
   * model gets, the servers that connected and those skipped with why and what to do, and a
   * `summary` to print, so that a user whose model is offered no tools (an untrusted project
   * folder, a server that failed to start) is told why. The host never prints it itself.
   *
   * @example
   * ```ts
   * const report = await host.discover();
   * console.log(report.summary); // MCP: the model gets 14 tools (2 of 3 configured servers connected: ...); skipped: ...
   * ```
   *
   * @throws HostError `CONNECT_FAILED` with `onConnectionError: 'throw'`, after every server was
   * tried, when one or more enabled, unblocked servers are not connected; the message names each
   * with its reason.
   */
  async discover(_options: RequestOptions = {}): Promise<DiscoveryReport> {
    this.#core.assertOpen();
    for (const warning of this.#core.warnings) this.#core.events.emit('warning', warning);
    await this.#core.manager.discoverAll();
    for (const snapshot of this.#core.manager.listServers()) {
      const server = this.#core.serversByName.get(snapshot.name);
      if (server?.config.oauth?.enabled === true && needsAuthentication(snapshot.lastError)) {
        await this.servers.authenticate({ serverName: snapshot.name }).catch(() => undefined);
      }
    }
    if (this.#onConnectionError === 'throw') this.#throwOnFailedServers();
    return buildDiscoveryReport({
      status: this.servers.status(),
      servers: this.#core.serversByName,
      toolCount: this.#definitions(undefined).length,
      appDir: this.#cliAppDir,
    });
  }

  /**
   * The tools as the adapter's vendor declarations, ready for the model request: the servers'
   * tools, then (with the `resourceTools` option, while any resource is known) the host's
   * `list_mcp_resources` and `read_mcp_resource`, then (with the `promptTools` option, while any
   * prompt is known) `list_mcp_prompts` and `get_mcp_prompt`; only those passing `filter`, when given.
   */
  listTools(params: { readonly filter?: ToolFilter } = {}): TTool[] {
    return this.adapter.toTools(this.#definitions(params.filter));
  }

  /**
   * The same tools as {@link McpToolHost.listTools}, in the host's vendor-neutral form (what the
   * adapter is handed): the servers' tools and the host's own resource and prompt tools when those
   * options are on. For bridges that declare tools themselves (`@toolhost/ai-sdk`, `@toolhost/langchain`).
   */
  listToolDefinitions(params: { readonly filter?: ToolFilter } = {}): HostToolDefinition[] {
    return this.#definitions(params.filter);
  }

  /**
   * Run one tool call: argument validation, confirmation, the call with the server's timeout
   * (progress resets it, up to an overall cap, when someone listens to progress), and result
   * mapping. Aborting `signal` sends `notifications/cancelled` to the server. Never throws for a
   * failed call: the result says what happened, in words the model can use, and `error` carries
   * the {@link HostError} (`TOOL_CALL_DENIED`, `REQUEST_TIMEOUT`, `TOOL_REPORTED_ERROR`, ...).
   *
   * OAuth step-up: when a remote server refuses the call with 403 `insufficient_scope`, the host
   * signs in again for the scopes held plus the ones challenged and retries once. A browser flow
   * never starts in the background: here it starts only when the host supplied `ui.openBrowser`
   * or the entry has `oauth.enabled: true`; otherwise the call fails with `AUTH_REQUIRED`.
   *
   * Per call, `options.meta` adds entries to the request's `_meta` and `options.headers` sends HTTP
   * headers with this request only (Streamable HTTP servers; `Authorization` with
   * `allowAuthorizationHeader: true`), for example a per-user token; see {@link ToolCallExtras}.
   *
   * @throws HostError `CLOSED` after `close()`.
   */
  async callTool(
    params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly toolCallId?: string },
    options: ToolCallOptions = {},
  ): Promise<ToolCallResult> {
    this.#core.assertOpen();
    const call: ModelToolCall = {
      name: params.name,
      arguments: params.arguments ?? {},
      ...(params.toolCallId ? { id: params.toolCallId } : {}),
    };
    return runToolCall(this.#runtimeFor(options.filter), call, options.signal, options);
  }

  /**
   * One model turn: find the tool calls in the vendor response, run each in order (confirmations
   * are asked one at a time), and turn the results into the vendor's format for the next request.
   * `options.meta` and `options.headers` apply to every call of this response (see {@link McpToolHost.callTool}).
   *
   * @throws HostError `CLOSED` after `close()`.
   */
  async handleModelResponse(response: TResponse, options: ToolCallOptions = {}): Promise<HandledModelResponse<TToolResults>> {
    this.#core.assertOpen();
    const tools = new Map<string, HostToolDefinition>();
    for (const tool of this.#definitions(options.filter)) tools.set(tool.name, tool);
    const calls = this.adapter.getToolCalls(response, { tools });
    const runtime = this.#runtimeFor(options.filter);
    const outcomes: ToolCallResult[] = [];
    for (const call of calls) outcomes.push(await runToolCall(runtime, call, options.signal, options));
    return { calls, outcomes, toolResults: calls.length > 0 ? this.adapter.toToolResults(outcomes) : undefined };
  }

  /** Listen to a host event; the returned function removes the listener. */
  on<K extends keyof HostEvents>(event: K, listener: (payload: HostEvents[K]) => void): () => void {
    return this.#core.events.on(event, listener);
  }

  /** End every connection and child process. The host cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.#core.closed) return;
    this.#core.markClosed();
    this.#pendingConfirmations.closeAll();
    // Task waits stop; the tasks stay outstanding (kept in the task store) for a later host.
    this.#taskRegistry?.close();
    this.#watcher?.close();
    this.#auth.close();
    for (const { features } of this.#core.attached.values()) features.detach();
    this.#core.attached.clear();
    await this.#core.manager.close();
    await this.#taskRegistry?.flush();
    this.#core.events.clear();
  }

  /**
   * Build the SDK client for one connection attempt: its capabilities, the negotiated or pinned
   * revision, and the handlers for sampling, elicitation, roots, logging and resource updates.
   * Private: SDK classes stay out of toolhost's public API.
   */
  #createClient(serverName: string): ConnectionClient {
    const { events, ui, attached } = this.#core;
    const features = createClientFeatures({
      serverName,
      adapter: this.adapter,
      hooks: ui,
      // Elicitation is offered only when there is someone to ask: without a hook a server learns
      // it cannot elicit (and can fall back) instead of every elicitation being cancelled.
      elicitationForm: ui.elicit !== undefined,
      elicitationUrl: ui.elicit !== undefined,
      roots: this.#rootsController,
      onLog: (event) => events.emit('server-log', event),
      onResourceUpdated: (event) => events.emit('resource-update', event),
      jsonSchemaValidator: SDK_SCHEMA_VALIDATOR,
      ...this.#versionSettings(serverName),
      ...(this.#extensions ? { extensions: this.#extensions } : {}),
      ...(this.#limits?.serverRequests ? { serverRequests: this.#limits.serverRequests } : {}),
      ...(this.#taskRegistry ? { tasks: true } : {}),
      maxMessageDepth: Math.max(
        this.#limits?.maxMessageDepth ?? DEFAULT_MAX_MESSAGE_DEPTH,
        (this.#limits?.maxDefinitionDepth ?? DEFAULT_MAX_DEFINITION_DEPTH) + 8,
      ),
      outboundMeta: {
        logLevel: () => this.#core.logLevels.get(serverName),
        ...(this.#traceContext ? { traceContext: this.#traceContext } : {}),
      },
    });
    const created = features.createClient(this.#clientInfo);
    attached.get(serverName)?.features.detach();
    attached.set(serverName, { client: created.client, features: created.attached });
    return created.client;
  }

  /** The host's own tools the options ask for: the resource tools, then the prompt tools. */
  #createHostTools(options: McpToolHostOptions<TTool, TResponse, TToolResults>): HostToolGroup[] {
    const { manager } = this.#core;
    const groups: HostToolGroup[] = [];
    if (options.resourceTools) {
      const tools = createResourceTools(
        {
          list: () => this.resources.list(),
          read: (serverName, uri, signal) => this.resources.read({ serverName, uri }, signal ? { signal } : {}),
        },
        typeof options.resourceTools === 'object' ? options.resourceTools : {},
      );
      groups.push({ tools, active: () => manager.resources.list().length > 0 });
    }
    if (options.promptTools) {
      const tools = createPromptTools(
        {
          list: () => this.prompts.list(),
          get: (command, values, signal) => requestPrompt({ command, values, client: manager.getClient(command.serverName), signal }),
        },
        typeof options.promptTools === 'object' ? options.promptTools : {},
      );
      groups.push({ tools, active: () => manager.prompts.list().length > 0 });
    }
    return groups;
  }

  /**
   * The host's own tools in use: each group while at least one of its items (resource, prompt) is
   * known, then the `activate_skill` tool while at least one skill is known.
   */
  #activeHostTools(): HostProvidedTool[] {
    const tools = this.#hostToolGroups.flatMap((group) => (group.active() ? [...group.tools.values()] : []));
    const skillTool = this.#activeSkillTool();
    if (skillTool) tools.push(skillTool);
    return tools;
  }

  /** The `activate_skill` tool for the skills known now (rebuilt when their names change), or none. */
  #activeSkillTool(): HostProvidedTool | undefined {
    if (!this.#skillSettings.activateTool || this.#core.manager.skills.size === 0) return undefined;
    const names = skillCommands(this.#core.manager).map((command) => command.name);
    if (names.length === 0) return undefined;
    const key = JSON.stringify(names);
    if (this.#skillTool?.key !== key) this.#skillTool = { key, tool: createActivateSkillTool(names, this.skills) };
    return this.#skillTool.tool;
  }

  /** Every tool definition offered, servers' first, narrowed by `filter`. */
  #definitions(filter: ToolFilter | undefined): HostToolDefinition[] {
    const all = [...this.servers.listTools(), ...this.#activeHostTools().map((tool) => tool.definition)];
    return filter === undefined ? all : all.filter((tool) => matchesToolFilter(tool, filter));
  }

  /** The tool-call runtime of one request: with a filter, tools outside it are not found. */
  #runtimeFor(filter: ToolFilter | undefined): ToolCallRuntime {
    if (filter === undefined) return this.#runtime;
    const runtime = this.#runtime;
    return {
      ...runtime,
      findTool: (name) => {
        const tool = runtime.findTool(name);
        return tool && matchesToolFilter(tool.definition, filter) ? tool : undefined;
      },
      toolNames: () => this.#definitions(filter).map((tool) => tool.name),
      unavailableServerOf: (name) => runtime.unavailableServerOf?.(name),
    };
  }

  /** `onConnectionError: 'throw'`: one error naming every enabled, unblocked server that is not connected. */
  #throwOnFailedServers(): void {
    const failed = this.#core.manager
      .listServers()
      .filter((snapshot) => !FINE_STATUSES.has(snapshot.status))
      .map((snapshot) => ({ serverName: snapshot.name, reason: snapshot.lastError?.message ?? `status ${snapshot.status}` }));
    if (failed.length === 0) return;
    const list = failed.map(({ serverName, reason }) => `"${serverName}" (${reason})`).join('; ');
    throw new HostError({
      code: 'CONNECT_FAILED',
      ...(failed.length === 1 ? { serverName: failed[0]?.serverName } : {}),
      message: `${failed.length === 1 ? 'An MCP server' : `${failed.length} MCP servers`} could not be connected: ${list}. Fix the server settings (see /mcp), or create the host with onConnectionError: 'warn' to go on without them.`,
    });
  }

  /** With `watchSettings`, reload the settings whenever one of their files changes. */
  #startWatcher(options: McpToolHostOptions<TTool, TResponse, TToolResults>, serverSet: HostServerSet): SettingsWatcher | undefined {
    const watch = options.watchSettings;
    if (watch === undefined || watch === false || options.settings !== undefined || serverSet.files.length === 0) return undefined;
    const debounceMs = (typeof watch === 'object' ? watch.debounceMs : undefined) ?? DEFAULT_WATCH_DEBOUNCE_MS;
    const watcher = new SettingsWatcher({
      files: serverSet.files,
      debounceMs,
      onChange: () => {
        if (this.#core.closed) return;
        // A reload never rejects for a bad file (it warns); anything else is reported as a warning too.
        serverSet.reload().catch((error: unknown) => {
          if (this.#core.closed) return;
          this.#core.events.emit('warning', {
            code: 'SETTINGS_LOAD_FAILED',
            message: `Reloading the MCP settings after a change failed: ${escapeControlText(error instanceof Error ? error.message : String(error))}`,
          });
        });
      },
    });
    watcher.start();
    return watcher;
  }

  #versionSettings(serverName: string): { versionOptions?: ReturnType<typeof versionNegotiationOptions> } {
    const server = this.#core.serversByName.get(serverName);
    return server ? { versionOptions: versionNegotiationOptions(server.config) } : {};
  }

  #createRuntime(options: McpToolHostOptions<TTool, TResponse, TToolResults>): ToolCallRuntime {
    const core = this.#core;
    const { manager, ui } = core;
    return {
      // A registered name, else a tool's qualified `server__tool`, which resolves whichever servers are up.
      findTool: (name) => {
        const group = this.#hostToolGroups.find((candidate) => candidate.tools.has(name));
        if (group) return group.active() ? group.tools.get(name) : undefined;
        if (name === ACTIVATE_SKILL_TOOL_NAME && this.#skillSettings.activateTool) return this.#activeSkillTool();
        const entry = manager.tools.resolve(name);
        return entry ? toCallableTool(entry, core.serversByName) : undefined;
      },
      toolNames: () => [
        ...manager.tools.list().map((tool) => tool.registeredName),
        ...this.#activeHostTools().map((tool) => tool.definition.name),
      ],
      unavailableServerOf: (name) => {
        // The longest configured server name whose qualified prefix `server__` starts the name.
        let found: { serverName: string; status: string } | undefined;
        for (const snapshot of manager.listServers()) {
          const prefix = `${this.adapter.toolNames.normalize(snapshot.name)}__`;
          if (!name.startsWith(prefix) || (found && found.serverName.length >= snapshot.name.length)) continue;
          found = { serverName: snapshot.name, status: snapshot.status };
        }
        return found && found.status !== McpServerStatus.CONNECTED ? found : undefined;
      },
      validator: new ToolArgumentValidator(),
      policy: new ConfirmationPolicy({
        interactive: () => ui.confirm !== undefined || options.deferConfirmations === true,
        ...(options.stores?.approvals ? { store: options.stores.approvals } : {}),
        ...(options.allowList ? { allowList: options.allowList } : {}),
        ...(options.hostPolicy ? { hostPolicy: options.hostPolicy } : {}),
      }),
      ui,
      confirmations: this.#pendingConfirmations,
      deferConfirmations: options.deferConfirmations === true,
      events: core.events,
      getClient: (serverName) => manager.getClient(serverName),
      isParked: (serverName) => manager.isParked(serverName),
      resume: (serverName) => core.resume(serverName),
      withStepUp: (stepUp) => this.#auth.withStepUp(stepUp),
      resultMapping: options.resultMapping ?? {},
      maxTotalTimeoutMs: options.maxTotalCallTimeoutMs ?? DEFAULT_MAX_TOTAL_CALL_TIMEOUT_MS,
      ...(options.limits?.progressIntervalMs !== undefined ? { progressIntervalMs: options.limits.progressIntervalMs } : {}),
      ...(options.interceptors && options.interceptors.length > 0 ? { interceptors: [...options.interceptors] } : {}),
      ...(this.#taskRegistry
        ? { tasks: { registry: this.#taskRegistry, getClient: (serverName: string) => manager.getClient(serverName) } }
        : {}),
      newToolCallId: () => `toolcall-${(this.#callCounter += 1)}`,
    };
  }
}

/**
 * The validator the SDK client uses for server-supplied schemas (a tool's `outputSchema` in
 * `callTool`), shared by every client: Ajv with patterns matched in linear time by RE2, so a
 * catastrophic pattern cannot freeze the process.
 */
const SDK_SCHEMA_VALIDATOR = new LinearTimeJsonSchemaValidator();

/** The controller of the host's project folders. @throws HostError `INVALID_ROOT` for a folder that is not an absolute path. */
function createRootsController(folders: ReadonlyArray<string | ProjectFolder>): RootsController {
  try {
    return new RootsController({ folders });
  } catch (error) {
    throw hostErrorFrom(error);
  }
}

/**
 * Where discovery gets this host's connections with the `connectionPool` option.
 *
 * @throws HostError `INVALID_OPTIONS` when the pool was not made by `createConnectionPool`.
 */
function poolConnectionSource(pool: ConnectionPool, host: PoolHost): OpenConnection<ConnectionClient> {
  if (typeof (pool as Partial<ConnectionPool>).connectionSource !== 'function') {
    throw new HostError({ code: 'INVALID_OPTIONS', message: 'connectionPool must be made by createConnectionPool().' });
  }
  try {
    return pool.connectionSource(host);
  } catch (error) {
    throw hostErrorFrom(error);
  }
}

/** The names the resource tools take (reserved when the `resourceTools` option is on). */
const RESOURCE_TOOL_NAMES = [LIST_RESOURCES_TOOL_NAME, READ_RESOURCE_TOOL_NAME];
/** The names the prompt tools take (reserved when the `promptTools` option is on). */
const PROMPT_TOOL_NAMES = [LIST_PROMPTS_TOOL_NAME, GET_PROMPT_TOOL_NAME];

/** Host-provided tools of one option, offered while `active()` (something to list is known). */
interface HostToolGroup {
  readonly tools: ReadonlyMap<string, HostProvidedTool>;
  readonly active: () => boolean;
}

/** The `skills` option, resolved. */
function resolveSkillSettings(option: McpToolHostOptions['skills']): SkillSettings {
  if (option === undefined || option === false) return { enabled: false, activateTool: false, maxLength: DEFAULT_SKILL_MAX_LENGTH };
  const settings = option === true ? {} : option;
  const { maxLength } = settings;
  if (maxLength !== undefined && !(Number.isSafeInteger(maxLength) && maxLength > 0)) {
    throw new HostError({
      code: 'INVALID_OPTIONS',
      message: `skills.maxLength must be a positive whole number of characters; got ${String(maxLength)}.`,
    });
  }
  return {
    enabled: true,
    activateTool: settings.activateTool ?? true,
    maxLength: settings.maxLength ?? DEFAULT_SKILL_MAX_LENGTH,
  };
}

/** Statuses that are not a connection failure for `onConnectionError: 'throw'`. */
const FINE_STATUSES = new Set<string>([McpServerStatus.CONNECTED, McpServerStatus.BLOCKED, McpServerStatus.DISABLED]);

/** Longest stderr line of a `server-stderr` event, before escaping. */
const MAX_STDERR_EVENT_LINE = 1000;

/** One stderr event of a stdio server as a `server-stderr` host event (only when someone listens). */
function emitStderr(events: HostEventEmitter, serverName: string, event: StderrEvent): void {
  if (!events.has('server-stderr')) return;
  events.emit(
    'server-stderr',
    event.kind === 'line'
      ? { serverName, kind: 'line', line: escapeControlText(event.line, { maxLength: MAX_STDERR_EVENT_LINE }) }
      : { serverName, kind: 'dropped', droppedLines: event.count },
  );
}

/** Re-emit discovery's events as host events. */
function forwardManagerEvents(core: HostCore): void {
  const { manager, events } = core;
  manager.on('server-status-change', (change) =>
    events.emit('server-status-change', {
      serverName: change.serverName,
      status: change.status,
      previousStatus: change.previousStatus,
      ...(change.error && change.status !== McpServerStatus.CONNECTED ? { error: change.error.message } : {}),
    }),
  );
  manager.on('discovery-state-change', ({ state, previousState }) => events.emit('discovery-state-change', { state, previousState }));
  manager.on('tools-change', () => events.emit('registry-change', { kind: 'tools' }));
  manager.on('prompts-change', () => events.emit('registry-change', { kind: 'prompts' }));
  manager.on('resources-change', () => events.emit('registry-change', { kind: 'resources' }));
  manager.on('skills-change', () => events.emit('registry-change', { kind: 'skills' }));
  manager.on('servers-change', ({ added, removed, restarted, updated }) =>
    events.emit('servers-change', { added, removed, restarted, updated }),
  );
}

/** Defaults of {@link HostTaskOptions}. */
const DEFAULT_TASK_POLL = { minPollIntervalMs: 250, maxPollIntervalMs: 30_000, defaultPollIntervalMs: 1000 } as const;

/** The `tasks` option with its defaults, or undefined when tasks are off. */
function resolveTaskOptions(option: boolean | HostTaskOptions | undefined): ResolvedTaskOptions | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  return {
    optionalTools: given.optionalTools === true,
    timeoutMs: given.timeoutMs,
    ttlMs: given.ttlMs,
    minPollIntervalMs: given.minPollIntervalMs ?? Math.min(DEFAULT_TASK_POLL.minPollIntervalMs, given.maxPollIntervalMs ?? Infinity),
    maxPollIntervalMs: given.maxPollIntervalMs ?? Math.max(DEFAULT_TASK_POLL.maxPollIntervalMs, given.minPollIntervalMs ?? 0),
    defaultPollIntervalMs: given.defaultPollIntervalMs ?? DEFAULT_TASK_POLL.defaultPollIntervalMs,
  };
}

/** @throws HostError `INVALID_OPTIONS` for a `tasks` option with a number that is not a positive finite number, or min above max. */
function checkTaskOptions(option: boolean | HostTaskOptions | undefined): void {
  if (typeof option !== 'object') return;
  for (const key of ['timeoutMs', 'minPollIntervalMs', 'maxPollIntervalMs', 'defaultPollIntervalMs', 'ttlMs'] as const) {
    const value = option[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new HostError({
        code: 'INVALID_OPTIONS',
        message: `tasks.${key} must be a positive number of milliseconds; got ${String(value)}.`,
      });
    }
  }
  if (
    option.minPollIntervalMs !== undefined &&
    option.maxPollIntervalMs !== undefined &&
    option.minPollIntervalMs > option.maxPollIntervalMs
  ) {
    throw new HostError({
      code: 'INVALID_OPTIONS',
      message: `tasks.minPollIntervalMs (${option.minPollIntervalMs}) is above tasks.maxPollIntervalMs (${option.maxPollIntervalMs}).`,
    });
  }
}
