import type {
  Client,
  Implementation,
  Prompt,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { McpServerConfig } from '@toolhost/config';
import type { OpenConnection, TransportOptions } from '@toolhost/connection';
import type { ToolNamePolicy } from '@toolhost/contract';
import type { ExcludedTool } from './discover-server.js';
import type { DiscoveryError } from './discovery-error.js';
import type { ReconnectOptions } from './reconnect-delay.js';
import type { ExcludedSkill } from './skill-listing.js';
import type { RegistryDiff } from './registry.js';
import type { DiscoveryState, McpServerStatus } from './server-status.js';

/** One configured server, as given to {@link McpServerManagerOptions.servers}. */
export interface ServerDefinition {
  /** Server name (the key of `mcpServers`). */
  name: string;
  /** The server entry. */
  config: McpServerConfig;
  /** When set, the server is not started and its status is `BLOCKED`; says why. */
  blockedReason?: string | undefined;
  /** When true, the server is not started and its status is `DISABLED`. */
  disabled?: boolean | undefined;
}

/** Why a server is disconnected (or the last error it had). */
export interface ServerErrorInfo {
  /** What happened and what the user can do. */
  message: string;
  /** The {@link DiscoveryError} code. */
  code: string;
  /**
   * The technical detail behind `message`, for a debug view: the error's `cause` chain as the
   * SDK, Node.js or the network put it (`TypeError: fetch failed ← Error [ECONNREFUSED]: …`),
   * secrets taken out, escaped and bounded (see `describeErrorChain` of `@toolhost/transport`).
   * Absent when the error has no cause.
   */
  detail?: string | undefined;
  /**
   * The stable `code` of the root cause: the deepest toolhost error (transport, OAuth...) in the
   * `cause` chain, e.g. `AUTH_REQUIRED` for an OAuth provider's refusal under a connect failure;
   * else the immediate cause's string code, when it has one.
   */
  causeCode?: string | undefined;
  /**
   * The root cause's `retryable` flag, when it has one: `true` when the next attempt may succeed
   * with nothing changed (an OAuth refresh that failed on a network error kept the credentials).
   */
  causeRetryable?: boolean | undefined;
}

/** A point-in-time view of one server. */
export interface ServerSnapshot {
  /** Server name. */
  name: string;
  /** Server entry. */
  config: McpServerConfig;
  /** Current status. */
  status: McpServerStatus;
  /** Why the server is disconnected, blocked or disabled, or the last error it had. */
  lastError: ServerErrorInfo | undefined;
  /** Tools offered (after `includeTools` / `excludeTools`), with their original names. */
  tools: Tool[];
  /**
   * Tools the server listed that were left out because the client could not call them correctly
   * (MCP 2026-07-28 over HTTP: an invalid `x-mcp-header` declaration), with the reason.
   */
  excludedTools: ExcludedTool[];
  /** Prompts offered. */
  prompts: Prompt[];
  /** Resources offered. */
  resources: Resource[];
  /** Resource templates offered. */
  resourceTemplates: ResourceTemplateType[];
  /**
   * Skills offered (the Skills extension, SEP-2640; listed only with the manager's `skills`
   * option): the entries as the server listed them, no file read.
   */
  skills: Skill[];
  /** Skills the server listed that were left out (invalid entries, over toolhost's bounds), with the reason. */
  excludedSkills: ExcludedSkill[];
  /** The server's `instructions` from `initialize`. */
  instructions: string | undefined;
  /** Name and version the server reported. */
  serverInfo: Implementation | undefined;
  /**
   * The MCP revision negotiated with the server (`2026-07-28`, `2025-11-25`, ...); undefined
   * before the first connection.
   */
  protocolVersion: string | undefined;
  /** Capabilities the server declared. */
  capabilities: ServerCapabilities | undefined;
  /** The transport in use (or last used). */
  transportType: 'stdio' | 'sse' | 'http' | undefined;
  /** Last lines the server wrote to stderr (stdio servers). */
  stderrTail: string[];
}

/** A tool in the registry. */
export interface RegisteredTool {
  /** The unique, model-acceptable name it is registered under. */
  registeredName: string;
  /** Server that offers it. */
  serverName: string;
  /** Its name on the server, used for `tools/call`. */
  originalName: string;
  /**
   * `serverName__originalName`, made valid under the naming policy: a second name the tool can
   * always be called by (`tools.resolve`, `callTool`), whether it is registered under its bare
   * name or not, and whichever other servers are up. Remember this one; the registered name of a
   * tool that several servers offer changes when one of them goes away.
   */
  qualifiedName: string;
  /** The tool definition as the server listed it. */
  tool: Tool;
}

/** A prompt in the registry (prompt names are assigned like tool names). */
export interface RegisteredPrompt {
  /** The unique name it is registered under. */
  registeredName: string;
  /** Server that offers it. */
  serverName: string;
  /** Its name on the server, used for `prompts/get`. */
  originalName: string;
  /** The prompt definition as the server listed it. */
  prompt: Prompt;
}

/** A resource in the registry; keyed by server and URI. */
export interface RegisteredResource {
  /** Server that offers it. */
  serverName: string;
  /** The resource URI. */
  uri: string;
  /** The resource as the server listed it. */
  resource: Resource;
}

/** A resource template in the registry; keyed by server and URI template. */
export interface RegisteredResourceTemplate {
  /** Server that offers it. */
  serverName: string;
  /** The URI template. */
  uriTemplate: string;
  /** The template as the server listed it. */
  resourceTemplate: ResourceTemplateType;
}

/** A skill in the registry (the Skills extension, SEP-2640); keyed by server and `SKILL.md` URI. */
export interface RegisteredSkill {
  /** Server that offers it. */
  serverName: string;
  /** The URI of its `SKILL.md`. */
  uri: string;
  /** Its name (`frontmatter.name`, checked by the SDK against the Agent Skills naming rules). */
  name: string;
  /**
   * The entry exactly as the server listed it: what the skill's files are verified against when
   * they are read. Its description is server text: escape it before showing it.
   */
  skill: Skill;
}

/** Events of {@link McpServerManager}, by name. */
export interface McpServerManagerEvents {
  /** A server's status changed. */
  'server-status-change': {
    /** Server name. */
    serverName: string;
    /** New status. */
    status: McpServerStatus;
    /** Previous status. */
    previousStatus: McpServerStatus;
    /** The reason, for `DISCONNECTED`, `BLOCKED` and `DISABLED`. */
    error: ServerErrorInfo | undefined;
  };
  /** The overall discovery state changed. */
  'discovery-state-change': {
    /** New state. */
    state: DiscoveryState;
    /** Previous state. */
    previousState: DiscoveryState;
  };
  /** The tool registry changed in one step. */
  'tools-change': RegistryDiff<RegisteredTool>;
  /** The prompt registry changed in one step. */
  'prompts-change': RegistryDiff<RegisteredPrompt>;
  /** The resource registry changed in one step (resources and, in `templates`, resource templates). */
  'resources-change': RegistryDiff<RegisteredResource> & {
    /** What changed among resource templates. */
    templates: RegistryDiff<RegisteredResourceTemplate>;
  };
  /** The skill registry changed in one step. */
  'skills-change': RegistryDiff<RegisteredSkill>;
  /** Servers were added, removed or changed at runtime (see {@link ServerSetChange}). */
  'servers-change': ServerSetChange;
  /** A connected server had an error that did not change its status (a failed refresh), or reconnecting gave up. */
  'server-error': {
    /** Server name. */
    serverName: string;
    /** The error. */
    error: DiscoveryError;
  };
}

/** What a runtime change of the configured servers did, by server name. */
export interface ServerSetChange {
  /** Servers that were added. */
  added: string[];
  /** Servers that were removed (their connection closed, their process ended). */
  removed: string[];
  /** Servers whose definition changed and that were disconnected to apply it (and connected again when they may run). */
  restarted: string[];
  /** Servers whose definition changed in a way that applies without reconnecting (`timeout`, `trust`, `description`). */
  updated: string[];
}

/**
 * Options of {@link McpServerManager}. `TClient` is the class of the clients `createClient` makes
 * (give `createClient` whenever it is not the SDK's `Client`).
 */
export interface McpServerManagerOptions<TClient extends Client = Client> {
  /** Configured servers; their order is the naming priority (first keeps bare names). */
  servers: readonly ServerDefinition[];
  /** Name and version sent in `initialize` by the default client. @default { name: 'toolhost', version: '0.1.0' } */
  clientInfo?: Implementation;
  /**
   * Make the client for a server; called for every connection attempt (a client connects once).
   * The host uses it to declare its capabilities and request handlers (sampling, elicitation,
   * roots). @default a `Client` with `clientInfo` and no capabilities
   */
  createClient?: (serverName: string, config: McpServerConfig) => TClient;
  /** Options for the transport layer (fetch, authProvider, env...) of a server. */
  transportOptions?: (serverName: string) => TransportOptions | undefined;
  /**
   * Open each connection through this instead of connecting the client directly (see
   * {@link OpenConnection}); a connection pool shared by several managers provides it.
   * @default `connectClient`: one connection per server
   */
  openConnection?: OpenConnection<TClient>;
  /** Reconnect policy for servers that go away after connecting. */
  reconnect?: ReconnectOptions;
  /** Names the host already uses (built-in tools); MCP tools are never registered under them. */
  reservedToolNames?: Iterable<string>;
  /**
   * The tool names the model vendor accepts (the model adapter's `toolNames`): every tool is
   * registered under a name valid under it. @default DEFAULT_TOOL_NAME_POLICY of `@toolhost/contract`
   */
  toolNamePolicy?: ToolNamePolicy;
  /**
   * List the skills of servers that declare the Skills extension (`io.modelcontextprotocol/skills`,
   * SEP-2640): entries only (no skill file is read), bounded per server, listed again on
   * `resources/list_changed`. The client must declare the extension itself (see `createClient`).
   * @default false
   */
  skills?: boolean;
  /** Page limit of each list request. @default 100 */
  maxPages?: number;
  /**
   * Most levels of JSON nesting of one tool, prompt, resource or template definition; a deeper
   * one is left out (listed with its reason, like other invalid tools) before any schema check
   * recurses into it. @default 256 (`DEFAULT_MAX_DEFINITION_DEPTH`)
   */
  maxDefinitionDepth?: number;
  /**
   * Most characters of JSON of one definition; a larger one is left out with its reason.
   * @default 1048576 (`DEFAULT_MAX_DEFINITION_LENGTH`)
   */
  maxDefinitionLength?: number;
  /** Trailing delay that merges a burst of `list_changed` notifications into one refresh. @default 50 */
  listChangedDebounceMs?: number;
  /**
   * After a `list_changed` refresh that found no difference, list once more after this delay
   * (some servers notify before they are ready); 0 disables. @default 500
   */
  listChangedRecheckMs?: number;
}

/** Options of one prompt or resource request. */
export interface RequestOptions {
  /** Aborts the request (the SDK sends `notifications/cancelled`). */
  signal?: AbortSignal | undefined;
  /** Request timeout in milliseconds. @default the entry's `timeout`, else 600000 */
  timeout?: number | undefined;
}
