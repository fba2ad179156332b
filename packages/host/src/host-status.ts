import type { HostWarning } from './host-events.js';

/** One server in the status view. Never carries `env` or `headers` values. */
export interface ServerStatusView {
  /** Server name as configured. */
  readonly name: string;
  /** Connection status (`CONNECTING`, `CONNECTED`, `DISCONNECTING`, `DISCONNECTED`, `BLOCKED`, `DISABLED`). */
  readonly status: string;
  /** How the server is reached. */
  readonly transport: 'stdio' | 'sse' | 'http';
  /**
   * The MCP revision negotiated with the server (`2026-07-28`, `2025-11-25`, ...), once it has
   * connected; `protocolVersion` in the server entry pins one.
   */
  readonly protocolVersion?: string;
  /** For stdio servers: the command line (command and arguments). */
  readonly command?: string;
  /** For remote servers: the URL, with credentials and query values masked. */
  readonly url?: string;
  /** Working directory of a stdio server, when configured. */
  readonly cwd?: string;
  /** The request timeout used for this server, in milliseconds. */
  readonly timeoutMs: number;
  /** True when the timeout comes from the server entry rather than the default. */
  readonly timeoutConfigured: boolean;
  /** Whether the server is trusted (no confirmation). */
  readonly trust: boolean;
  /** The entry's description, when given. */
  readonly description?: string;
  /** Names of the environment variables set for the server (values are never shown). */
  readonly envNames: readonly string[];
  /** Names of the headers sent to the server (values are never shown). */
  readonly headerNames: readonly string[];
  /** Tools registered from this server. */
  readonly tools: ReadonlyArray<{
    /** The registered name the model sees. */
    readonly name: string;
    /** The tool's own name on its server. */
    readonly serverToolName: string;
    /**
     * The tool's description as the model gets it: tag characters removed, control, BiDi and
     * zero-width characters written as `\uXXXX` escapes, size capped with a visible marker.
     */
    readonly description: string;
    /** The tool's input schema (shown by `/mcp schema`). */
    readonly inputSchema: Readonly<Record<string, unknown>>;
  }>;
  /**
   * Tools the server listed that the host left out because it could not call them correctly (MCP
   * 2026-07-28 over HTTP: an invalid `x-mcp-header` declaration), with the reason. Empty when none.
   */
  readonly excludedTools: ReadonlyArray<{
    /** The tool's own name on its server. */
    readonly serverToolName: string;
    /** What is wrong with its definition. */
    readonly reason: string;
  }>;
  /** Identifiers of the MCP extensions the server declared (`capabilities.extensions`), once connected. */
  readonly extensions: readonly string[];
  /** Slash command names of this server's prompts. */
  readonly prompts: readonly string[];
  /** Number of resources the server offers. */
  readonly resourceCount: number;
  /** Slash command names of this server's skills (the Skills extension; with the `skills` host option). */
  readonly skills: readonly string[];
  /** Number of skills the server offers (with the `skills` host option; 0 without it). */
  readonly skillCount: number;
  /**
   * Skills the server listed that the host left out (an entry the SDK refuses, more than
   * `MAX_SKILLS_PER_SERVER`, over the size bounds; or `skills/list` failed), with the reason; every
   * field has control, BiDi and zero-width characters escaped. Empty when none.
   */
  readonly excludedSkills: ReadonlyArray<{
    /** The skill's name, when the entry had one. */
    readonly name?: string;
    /** The entry's `SKILL.md` URI, when it had one. */
    readonly uri?: string;
    /** Why it was left out. */
    readonly reason: string;
  }>;
  /** Why the server is not connected, when it is not. */
  readonly lastError?: string;
  /**
   * Stable code of why the server is not connected, when it is not: the root cause's code when
   * there is one (`AUTH_REQUIRED`, `SPAWN_FAILED`, `CONNECTION_CLOSED`, `HTTP_STATUS`, ... from the
   * transport or OAuth layer), else discovery's (`CONNECT_FAILED`, `DISCOVERY_TIMEOUT`,
   * `NOTHING_OFFERED`, ...); for a server the settings block, the block reason's code (`EXCLUDED`,
   * `NOT_ALLOWED`, `INVALID_LIST`, `UNTRUSTED_PROJECT`, `CHANGED_SINCE_TRUSTED`). Match on this, never on `lastError`'s text.
   */
  readonly errorCode?: string;
  /** True when the server answered 401: the user must sign in (`/mcp auth <name>`). */
  readonly needsAuthentication: boolean;
  /** The last lines the server wrote to stderr, when captured (control and BiDi characters escaped). */
  readonly stderrTail?: readonly string[];
  /**
   * The server's `instructions` from `initialize`, when it sent some; control, BiDi and zero-width
   * characters other than line feeds and tabs written as `\uXXXX` escapes.
   */
  readonly instructions?: string;
}

/** The `/mcp` view: every configured server, the overall discovery state, and what the host could not do as configured. */
export interface HostStatus {
  /** Overall discovery state (`NOT_STARTED`, `IN_PROGRESS`, `COMPLETED`). */
  readonly discoveryState: string;
  /** Every configured server, in settings order. */
  readonly servers: readonly ServerStatusView[];
  /** Settings problems and blocked project servers (see {@link HostWarning}). */
  readonly warnings: readonly HostWarning[];
}

/** Options of `formatStatus`. */
export interface FormatStatusOptions {
  /** Show each tool with its description (`/mcp desc`). @default false */
  readonly descriptions?: boolean;
  /** Show each tool's input schema (`/mcp schema`). @default false */
  readonly schemas?: boolean;
  /** Only show this server. */
  readonly serverName?: string;
}
