import type { ToolCallInterceptor } from './tool-call/call-hooks.js';
import type { ModelAdapter, UiHooks } from '@toolhost/contract';
import type { AllowListStore, HostPolicy } from '@toolhost/confirmation';
import type { FolderTrustStore } from '@toolhost/config/trust';
import type { FetchFunction, TokenStore } from '@toolhost/oauth';
import type { ProjectFolder, ServerRequestLimits, TraceContext } from '@toolhost/connection';
import type { SettingsSource } from './resolve-servers.js';
import type { ResultMappingOptions } from './tool-call/map-tool-result.js';
import type { PromptToolsOptions } from './tool-call/prompt-tools.js';
import type { ResourceToolsOptions } from './tool-call/resource-tools.js';
import type { TaskStore } from './tool-call/tasks/task-store.js';
import type { ConnectionPool } from './connection-pool/connection-pool.js';

/** Options of the Skills extension (the `skills` host option as an object). */
export interface SkillsOptions {
  /**
   * Offer the model the host's `activate_skill` tool (Gemini CLI's), while at least one skill is
   * known: `{ name }` loads a skill, `{ name, path }` reads one of its files; each load is
   * decided per skill (and asked about) as `host.skills.load` decides. @default true
   */
  readonly activateTool?: boolean;
  /**
   * Longest text of one skill file given to the model, in characters (longer text is cut with a
   * visible marker), and longest image or audio file, in base64 characters. @default 500000
   */
  readonly maxLength?: number;
}

/** Stores the host keeps decisions and credentials in. */
export interface HostStores {
  /**
   * Where "always allow" approvals are kept (pinned to each tool's definition).
   * @default in memory; `JsonFileAllowListStore` from `@toolhost/confirmation/node` keeps them across restarts
   */
  readonly approvals?: AllowListStore;
  /**
   * Where OAuth tokens are kept.
   * @default a file at `~/<appDir>/mcp-oauth-tokens.json` (mode 0600) when settings are read from files, else in memory
   */
  readonly tokens?: TokenStore;
  /**
   * Where the outstanding tasks of long tool calls are kept (with the `tasks` option), so that a
   * new host after a restart can resume them (`host.tasks`).
   * @default a file at `~/<appDir>/mcp-tasks.json` (mode 0600, written atomically) when settings are read from files, else in memory
   */
  readonly tasks?: TaskStore;
  /**
   * Where folder trust and the pinned servers of trusted project folders are read (with
   * `trustProject: 'auto'`, the default), in place of the trusted-folders files: a
   * `FolderTrustStore` of `@toolhost/config` (`MemoryFolderTrustStore`), or the per-user
   * `createKeyvStores(...).trust` of `@toolhost/stores` for a server where many users share one
   * deployment. The rules are the files': until the project folder is trusted its servers are
   * blocked (`UNTRUSTED_PROJECT`), and a project server changed or added since the folder was
   * trusted is blocked (`CHANGED_SINCE_TRUSTED`). Trust a folder with `setStoredFolderTrust` of
   * `@toolhost/config` (it pins the project's servers), then create a host or call
   * `host.servers.reload()`: `watchSettings` does not see changes of a store. A store that
   * rejects makes `create` fail with `SETTINGS_LOAD_FAILED` (and a reload change nothing).
   * @default the trusted-folders files of `appDir` (`~/<appDir>/trusted-folders.json`, or Gemini
   * CLI's / Qwen Code's `trustedFolders.json`), see `FileFolderTrustStore`
   * @example
   * ```ts
   * const trust = new MemoryFolderTrustStore();
   * await setStoredFolderTrust(trust, { folder: projectDir, trusted: true });
   * const host = await McpToolHost.create({ projectDir, stores: { trust } });
   * ```
   */
  readonly trust?: FolderTrustStore;
}

/**
 * How the host runs long tool calls as tasks (MCP tasks). A server may answer a call with a task
 * handle; the host then polls the task, shows the call as `EXECUTING` with the task's status, and
 * returns the task's result as the call's result. Every field is optional.
 */
export interface HostTaskOptions {
  /**
   * On 2025-11-25, also run tools whose `execution.taskSupport` is `optional` as tasks (tools that
   * say `required` always are). On 2026-07-28 the server decides. @default false
   */
  readonly optionalTools?: boolean;
  /**
   * Longest wait for one task, in milliseconds, from its start (or from `host.tasks.resume()`):
   * then the host asks the server to cancel it and the call fails with `REQUEST_TIMEOUT`.
   * @default the server entry's `timeout` (600 000 ms unless the entry says otherwise)
   */
  readonly timeoutMs?: number;
  /** Shortest interval between two polls: a server asking for faster polling gets this. @default 250 */
  readonly minPollIntervalMs?: number;
  /** Longest interval between two polls: a server asking for slower polling gets this. @default 30000 */
  readonly maxPollIntervalMs?: number;
  /** Interval between polls when the server suggests none (or an absurd one). @default 1000 */
  readonly defaultPollIntervalMs?: number;
  /** On 2025-11-25, the `ttl` asked for: how long the server keeps the task and its result. @default `timeoutMs` */
  readonly ttlMs?: number;
}

/** Limits that protect the host from servers that flood it. Every field is optional. */
export interface HostLimits {
  /**
   * Cap of one message from a server, in bytes: a stdio line, an SSE event (Streamable HTTP and
   * legacy SSE) or a JSON response body. A message over it fails the requests it concerns with
   * `MESSAGE_TOO_LARGE`, naming the server and the limit. @default 33554432 (32 MiB)
   */
  readonly maxMessageBytes?: number;
  /**
   * Server-to-client requests (elicitation, sampling, roots list, counted together), per
   * server: at most `maxConcurrent` at a time and `maxPerSecond` per second; the excess is
   * answered with a JSON-RPC error saying it was rate-limited. @default 4 at a time, 10 per second
   */
  readonly serverRequests?: ServerRequestLimits;
  /**
   * Shortest interval between two progress reports (`tool-call-progress`, and the progress
   * `tool-call-update`) of one tool call, in milliseconds; the latest value wins and the last
   * one is always delivered. @default 100
   */
  readonly progressIntervalMs?: number;
  /**
   * Lines of a stdio server's stderr delivered as `server-stderr` events per second, per server;
   * the excess is reported as one `dropped` event per second. @default 100
   */
  readonly stderrLinesPerSecond?: number;
  /**
   * Most levels of JSON nesting of one tool, prompt, resource or resource template definition a
   * server lists. A deeper one is left out before any schema check recurses into it (a tool is
   * listed in the status with its reason, like other invalid tools); the server's other
   * definitions stay. @default 256
   */
  readonly maxDefinitionDepth?: number;
  /**
   * Most characters of JSON of one definition a server lists; a larger one is left out with its
   * reason. @default 1048576 (1 MiB)
   */
  readonly maxDefinitionLength?: number;
  /**
   * Most levels of JSON nesting of any other message from a server (a tool, prompt or resource
   * answer, a notification, a request): a deeper answer fails its request, a deeper request is
   * answered with an error, a deeper notification is dropped. Never below `maxDefinitionDepth`
   * plus 8, so that a list whose definitions are within their limit is not refused as a whole.
   * @default 512
   */
  readonly maxMessageDepth?: number;
}

/** Options of `McpToolHost.create`. Every field is optional. */
export interface McpToolHostOptions<TTool = unknown, TResponse = unknown, TToolResults = unknown> extends SettingsSource {
  /**
   * The model vendor. @default a scripted adapter with no turns, whose declarations are the
   * host's own tool definitions (see `createScriptedAdapter`)
   */
  readonly adapter?: ModelAdapter<TTool, TResponse, TToolResults>;
  /** How the host asks the user. @default no hooks: calls that need confirmation are refused with `CONFIRMATION_REQUIRED` */
  readonly ui?: UiHooks;
  /**
   * Let a call that needs the user's decision wait, `PENDING`, until it is answered by tool call
   * id through `host.confirmations.answer()` (a web page, an A2A client, any front end that
   * answers when the user decides), even without a `confirm` hook. Each such call is announced
   * by a `confirmation-pending` event and listed by `host.confirmations.pending()`; aborting the
   * call's signal or closing the host cancels it. With a `confirm` hook as well, whichever
   * answers first wins. @default false: without a `confirm` hook such calls are refused with
   * `CONFIRMATION_REQUIRED`
   */
  readonly deferConfirmations?: boolean;
  /** Where approvals ("always allow"), OAuth tokens, tasks and folder trust are kept. @default see {@link HostStores} */
  readonly stores?: HostStores;
  /**
   * The `fetch` every request to a remote MCP server goes through (Streamable HTTP and SSE:
   * connecting, calls, notifications, the session `DELETE`), for hosts that bring their own: a
   * proxy agent, an edge runtime's `fetch`, a recording wrapper in tests. The server entry's
   * `headers` and the OAuth token are still added. Browser sign-in (`host.servers.authenticate`,
   * `toolhost mcp auth`) keeps toolhost's own guarded fetch. @default globalThis.fetch
   */
  readonly fetch?: FetchFunction;
  /**
   * A connection pool shared with other hosts of this process (one host per user session in a
   * web backend; see `createConnectionPool`): remote Streamable HTTP servers reached with the
   * same connection identity (URL, entry settings, credentials, client handshake) share one
   * session, and stdio servers draw their processes from the pool's bounded budget, closed when
   * idle and started again on the next use. See docs/connection-pool.md for what stays per host.
   * @default none: every server of this host has its own connection
   */
  readonly connectionPool?: ConnectionPool;
  /**
   * Tools allowed without asking, as the user wrote them: `serverName` (every tool of the server)
   * or `serverName.toolName`. Not pinned to a definition. @default []
   */
  readonly allowList?: readonly string[];
  /**
   * The host's own rule, checked first: `deny` refuses, `allow` runs without asking, `ask` or
   * `undefined` falls through to trust and the allow-lists (plan modes, headless auto-allow).
   */
  readonly hostPolicy?: HostPolicy;
  /** Name and version sent to servers when connecting. @default `{ name: 'toolhost', version: '0.1.0' }` */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Folders offered to servers as `roots`. @default `[projectDir]` when `projectDir` is given, else none */
  readonly roots?: ReadonlyArray<string | ProjectFolder>;
  /**
   * The W3C trace context of the operation in progress, asked for each message sent to a server
   * and sent in its `_meta` (`traceparent`, `tracestate`, `baggage`) on every MCP revision, so
   * servers can join the host's traces. Return `undefined` when there is no active trace; a hook
   * that throws, or a malformed `traceparent`, sends no trace context. With OpenTelemetry, inject
   * the active context into a carrier with `propagation.inject(context.active(), carrier)` and
   * return the carrier.
   */
  readonly traceContext?: () => TraceContext | undefined;
  /**
   * Hooks around every tool call, run in order: `before` once the tool is found and before the
   * arguments are validated and the user is asked (so the confirmation shows the arguments the
   * server will get), `after` when the server answered, before the result is mapped. An
   * interceptor that throws fails the call with `INTERCEPTOR_FAILED` naming it. @default none
   */
  readonly interceptors?: readonly ToolCallInterceptor[];
  /**
   * MCP extensions the host implements, declared to every server in `capabilities.extensions`
   * (identifier → the extension's settings, `{}` when it has none), e.g.
   * `{ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } }`. The
   * extensions each server declares are in its status (`ServerStatusView.extensions`).
   * @default none
   */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * Use MCP skills (the Skills extension, SEP-2640, `io.modelcontextprotocol/skills`): the host
   * declares the extension to every server, lists the skills of the servers that declare it
   * (entries only: no skill file is read before a skill is used; at most 256 per server, names
   * checked, descriptions escaped; listed again on `resources/list_changed`), and offers them as
   * slash commands (`host.commands`), as `host.skills` (`list`, `instructions`, `load`,
   * `readFile`) and, unless `activateTool: false`, as the model tool `activate_skill`. Loading a
   * skill is decided as a tool call is (trust, allow-lists, approvals pinned to the skill's
   * entry; a skill of an untrusted server asks first) and every file is verified (size, digest,
   * frontmatter) before it is used. @default false
   */
  readonly skills?: boolean | SkillsOptions;
  /**
   * Overall cap of one tool call in milliseconds, however often progress resets the server's timeout.
   * @default 3_600_000 (one hour), never less than the server's timeout
   */
  readonly maxTotalCallTimeoutMs?: number;
  /**
   * How tool results are mapped for the model (`untrustedEnvelope`, `structuredContentToModel`,
   * `describeMedia`, `maxDisplayLength`). @default the content-mapper's defaults
   */
  readonly resultMapping?: ResultMappingOptions;
  /** Names of the host's own tools; MCP tools are never registered under them. */
  readonly reservedToolNames?: Iterable<string>;
  /**
   * Run long tool calls as tasks (MCP tasks: the 2025-11-25 experimental feature and the
   * 2026-07-28 Tasks extension `io.modelcontextprotocol/tasks`): the host declares task support,
   * a server may answer a call with a task, and the host polls it until it ends, within
   * `timeoutMs`. Outstanding tasks are kept in `stores.tasks`, so a new host can resume them after
   * a restart (`host.tasks`). Without this option a tool that requires tasks fails with
   * `TASK_REQUIRED`. See `HostTaskOptions`. @default false
   */
  readonly tasks?: boolean | HostTaskOptions;
  /** Limits against servers that flood the host (message size, request rate, progress rate). @default see {@link HostLimits} */
  readonly limits?: HostLimits;
  /**
   * Watch the settings files (user, project, system), the enablement file and the trusted-folders
   * store, and reload the settings when one changes (see `host.servers.reload()`): servers added
   * to a file connect, removed ones disconnect, changed ones reconnect, untouched ones keep their
   * connection. Files and their folders may be created, deleted or replaced by a rename (atomic
   * saves); a burst of changes gives one reload after `debounceMs` of quiet. A file that becomes
   * malformed while it is being edited changes nothing (a `warning` names it). Stopped by
   * `close()`. Ignored with the `settings` option.
   * @default false
   * @example
   * ```ts
   * const host = await McpToolHost.create({ projectDir, watchSettings: true });
   * host.on('servers-change', ({ added, removed }) => console.log('added', added, 'removed', removed));
   * ```
   */
  readonly watchSettings?: boolean | { readonly debounceMs?: number };
  /**
   * Offer the model two tools of the host's own, as Gemini CLI does: `list_mcp_resources`
   * (`{ serverName? }`: `<server>:<uri> | <name> | <description>` lines) and `read_mcp_resource`
   * (`{ uri }`: `<server>:<uri>` or the plain URI of a listed resource; text as text, images and
   * audio as media, other binary data as a note; each item capped at `maxLength`). They are in
   * `listTools()` only while at least one resource is known, and their names are reserved. Their
   * results are mapped like tool results (server text escaped, `untrustedEnvelope` applies).
   * Both are read-only (`readOnlyHint: true`) and run without asking, for any server's
   * resource: a `hostPolicy` still decides first (`deny` refuses). Their `serverName` is `toolhost`.
   * @default false
   */
  readonly resourceTools?: boolean | ResourceToolsOptions;
  /**
   * Offer the model two tools of the host's own for the servers' MCP prompts (Gemini CLI offers
   * prompts only as slash commands): `list_mcp_prompts` (`{ serverName? }`:
   * `<server>:<name> | <title> | <description>` lines, each followed by its arguments, marked
   * `(required)` where they are) and `get_mcp_prompt` (`{ serverName, name, arguments? }`, the
   * arguments as `{ name, value }` pairs of strings, or a `{ name: value }` object from host
   * code). `get_mcp_prompt` checks the arguments against the prompt's declared ones before asking
   * the server (every required one given, no unknown or repeated one, string values) and
   * answers an error naming the prompt and argument otherwise. The answer is a header line, then
   * each message as a `[role]` line and its content: text with control, BiDi, zero-width and tag
   * characters escaped (line feeds and tabs kept), images and audio as media, other binary data
   * as a note. Each answer's text is capped at `maxLength` characters in all, with a visible
   * marker. They are in `listTools()` only while at least one prompt is known, and their names
   * are reserved; results are mapped like tool results (`untrustedEnvelope` applies). Both are
   * read-only (`readOnlyHint: true`) and run without asking, like the resource tools: a
   * `hostPolicy` still decides first (`deny` refuses). Their `serverName` is `toolhost`.
   * @default false
   * @example
   * ```ts
   * const host = await McpToolHost.create({ projectDir, promptTools: { maxLength: 100_000 } });
   * ```
   */
  readonly promptTools?: boolean | PromptToolsOptions;
  /**
   * What `discover()` does when an enabled server that is not blocked could not be connected
   * (including one waiting for sign-in): `warn` reports it in the status and events and goes
   * on; `throw` rejects, after every server was tried, with a `HostError` `CONNECT_FAILED` naming
   * each failed server and why. The servers that did connect stay connected. @default 'warn'
   */
  readonly onConnectionError?: 'throw' | 'warn';
  /** How a server that goes away after connecting is reconnected. */
  readonly reconnect?: {
    /** Attempts before giving up. @default 5 */
    readonly maxAttempts?: number;
    /** Delay before the first attempt, doubled after each failure. @default 1000 */
    readonly initialDelayMs?: number;
    /** Longest delay between attempts. @default 30000 */
    readonly maxDelayMs?: number;
  };
}
