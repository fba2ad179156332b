import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/client';
import type { CoalescedRunner } from './coalesced-runner.js';
import type { ExcludedTool, ServerOfferings } from './discover-server.js';
import type { ExcludedSkill } from './skill-listing.js';
import { DiscoveryError } from './discovery-error.js';
import type { ServerDefinition, ServerErrorInfo, ServerSnapshot } from './manager-types.js';
import type { ListKind, ServerSession } from './server-session.js';
import { McpServerStatus } from './server-status.js';
import { rootCauseCode, rootCauseRetryable } from './root-cause-code.js';
import { describeErrorChain } from '@toolhost/transport';

/** Nothing offered. */
export function emptyOfferings(): ServerOfferings {
  return { tools: [], prompts: [], resources: [], resourceTemplates: [], skills: [] };
}

/** The public form of an error; `causeCode` is the root cause's stable code (see {@link rootCauseCode}). */
export function errorInfo(error: DiscoveryError): ServerErrorInfo {
  const causeCode = rootCauseCode(error);
  const causeRetryable = rootCauseRetryable(error);
  // The detail starts below the errors that only repeat the message (a transport error it took over).
  let cause = (error as { cause?: unknown }).cause;
  for (let depth = 0; depth < 5 && (cause as { message?: unknown } | null | undefined)?.message === error.message; depth++) {
    cause = (cause as { cause?: unknown }).cause;
  }
  return {
    message: error.message,
    code: error.code,
    ...(cause !== undefined ? { detail: describeErrorChain(cause) } : {}),
    ...(causeCode ? { causeCode } : {}),
    ...(causeRetryable !== undefined ? { causeRetryable } : {}),
  };
}

/**
 * Why a configured server is never started, as its status and error: `DISABLED` (the user turned
 * it off) or `BLOCKED` (a policy forbids it); `undefined` for a server that may run.
 */
export function inactiveReason(definition: ServerDefinition): { status: McpServerStatus; error: DiscoveryError } | undefined {
  if (definition.disabled) {
    return {
      status: McpServerStatus.DISABLED,
      error: new DiscoveryError({
        code: 'SERVER_DISABLED',
        message: `MCP server '${definition.name}' is disabled; enable it to connect.`,
        serverName: definition.name,
      }),
    };
  }
  if (definition.blockedReason !== undefined) {
    return {
      status: McpServerStatus.BLOCKED,
      error: new DiscoveryError({
        code: 'SERVER_BLOCKED',
        message: `MCP server '${definition.name}' is blocked: ${definition.blockedReason}`,
        serverName: definition.name,
      }),
    };
  }
  return undefined;
}

/** Everything the manager knows about one server (internal, mutable). */
export class ServerState {
  /** The configured server; replaced when the server's entry changes at runtime. */
  definition: ServerDefinition;
  /** Current status. */
  status: McpServerStatus;
  /** Why it is disconnected, or the last error it had. */
  lastError: DiscoveryError | undefined;
  /** What it offers (empty unless connected). */
  offerings: ServerOfferings = emptyOfferings();
  /** The live session, when connected. */
  session: ServerSession | undefined;
  /** `instructions` from `initialize`. */
  instructions: string | undefined;
  /** Server name and version. */
  serverInfo: Implementation | undefined;
  /** The negotiated MCP revision. */
  protocolVersion: string | undefined;
  /** Declared capabilities. */
  capabilities: ServerCapabilities | undefined;
  /** Transport in use or last used. */
  transportType: 'stdio' | 'sse' | 'http' | undefined;
  /** stderr lines kept from the last session. */
  lastStderr: string[] = [];
  /** Increments on every connect or disconnect, so stale async work can tell it is stale. */
  generation = 0;
  /** Reconnect attempts since the last stable connection (see `ReconnectOptions.maxAttempts`). */
  reconnectAttempts = 0;
  /** When the current (or last) session became `CONNECTED`, in epoch ms. */
  connectedAt: number | undefined;
  /** Pending reconnect. */
  reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** Aborts the connection attempt in progress. */
  connectAbort: AbortController | undefined;
  /** The connection attempt in progress (it never rejects). */
  connecting: Promise<void> | undefined;
  /** list_changed notifications that arrived while the server was still being discovered. */
  pendingListChanges = new Set<ListKind>();
  /** list_changed refreshers of the current session. */
  refreshers = new Map<ListKind, CoalescedRunner>();
  /** Tools of the last listing left out because their definition is unusable (see `ExcludedTool`). */
  excludedTools: ExcludedTool[] = [];
  /** Skills of the last listing left out (invalid or over toolhost's bounds; see `ExcludedSkill`). */
  excludedSkills: ExcludedSkill[] = [];
  /**
   * Closed by its connection source (a pool) while idle: the offerings stay registered and the
   * server connects again on its next use.
   */
  parked = false;
  /** Timers that re-read a list when its `ttlMs` runs out. */
  freshnessTimers = new Map<ListKind, ReturnType<typeof setTimeout>>();

  /** Start tracking a configured server. */
  constructor(definition: ServerDefinition) {
    this.definition = definition;
    const inactive = inactiveReason(definition);
    this.status = inactive?.status ?? McpServerStatus.DISCONNECTED;
    this.lastError = inactive?.error;
  }

  /** Server name. */
  get name(): string {
    return this.definition.name;
  }

  /** A copy that callers may keep. */
  snapshot(): ServerSnapshot {
    return {
      name: this.name,
      config: structuredClone(this.definition.config),
      status: this.status,
      lastError: this.lastError ? errorInfo(this.lastError) : undefined,
      tools: [...this.offerings.tools],
      excludedTools: [...this.excludedTools],
      prompts: [...this.offerings.prompts],
      resources: [...this.offerings.resources],
      resourceTemplates: [...this.offerings.resourceTemplates],
      skills: [...this.offerings.skills],
      excludedSkills: [...this.excludedSkills],
      instructions: this.instructions,
      serverInfo: this.serverInfo,
      protocolVersion: this.protocolVersion,
      capabilities: this.capabilities,
      transportType: this.transportType,
      stderrTail: this.session ? this.session.stderrTail() : [...this.lastStderr],
    };
  }
}
