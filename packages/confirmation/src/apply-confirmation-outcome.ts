import type { AllowList, PinnedDefinition, ServerApproval, ToolApproval } from './allow-list.js';
import { toolKey } from './allow-list.js';
import type { ConfirmationOutcome } from '@toolhost/contract';
import type { ToolDefinition } from './tool-definition.js';

/** Everything {@link applyConfirmationOutcome} needs to know about the call. */
export interface OutcomeTarget {
  /** The server. */
  readonly serverName: string;
  /** The tool's original name. */
  readonly toolName: string;
  /** The tool's current definition. */
  readonly definition: ToolDefinition;
  /** Its `hashToolDefinition`. */
  readonly definitionHash: string;
  /** The server's current identity, when the host gives one. */
  readonly serverIdentity?: string;
  /** When the decision was made (ISO 8601). */
  readonly approvedAt: string;
}

function withPin(server: ServerApproval, toolName: string, pin: PinnedDefinition): ServerApproval {
  const tools = new Map(server.tools);
  tools.set(toolName, pin);
  return { ...server, tools };
}

/**
 * The allow-list after the user's choice. `proceed_once` and `cancel` change nothing.
 * `proceed_always_tool` sets the tool's approval to the current definition.
 * `proceed_always_server` sets the server's approval (keeping the pins of its other tools,
 * dropping them if the server identity changed) and pins this tool; an existing tool-level
 * approval of this tool is refreshed too, so it does not go on asking.
 * Pure: returns a new allow-list, or the same one when nothing changed.
 */
export function applyConfirmationOutcome(allowList: AllowList, outcome: ConfirmationOutcome, target: OutcomeTarget): AllowList {
  if (outcome !== 'proceed_always_tool' && outcome !== 'proceed_always_server') return allowList;
  const identity = target.serverIdentity === undefined ? {} : { serverIdentity: target.serverIdentity };
  const pin: PinnedDefinition = { definitionHash: target.definitionHash, definition: target.definition };
  const key = toolKey(target.serverName, target.toolName);
  const tools = new Map(allowList.tools);
  const existingTool = tools.get(key);
  if (outcome === 'proceed_always_tool' || existingTool !== undefined) {
    const approval: ToolApproval = {
      serverName: target.serverName,
      toolName: target.toolName,
      ...identity,
      ...pin,
      approvedAt: target.approvedAt,
    };
    tools.set(key, approval);
  }
  if (outcome === 'proceed_always_tool') return { servers: allowList.servers, tools };
  const servers = new Map(allowList.servers);
  const existing = servers.get(target.serverName);
  const keepPins = existing !== undefined && (existing.serverIdentity === undefined || existing.serverIdentity === target.serverIdentity);
  const base: ServerApproval = {
    serverName: target.serverName,
    ...identity,
    approvedAt: target.approvedAt,
    tools: keepPins ? existing.tools : new Map(),
  };
  servers.set(target.serverName, withPin(base, target.toolName, pin));
  return { servers, tools };
}

/** Pin a tool's definition under its server's approval (first use after "always allow this server"). */
export function pinToolUnderServer(allowList: AllowList, target: Omit<OutcomeTarget, 'approvedAt' | 'serverIdentity'>): AllowList {
  const server = allowList.servers.get(target.serverName);
  if (server === undefined) return allowList;
  const servers = new Map(allowList.servers);
  servers.set(
    target.serverName,
    withPin(server, target.toolName, { definitionHash: target.definitionHash, definition: target.definition }),
  );
  return { servers, tools: allowList.tools };
}

/** Remove an approval: the server's (`toolName` absent) or one tool's. Returns the same list when nothing matched. */
export function revokeApproval(allowList: AllowList, serverName: string, toolName?: string): AllowList {
  if (toolName === undefined) {
    if (!allowList.servers.has(serverName)) return allowList;
    const servers = new Map(allowList.servers);
    servers.delete(serverName);
    return { servers, tools: allowList.tools };
  }
  const key = toolKey(serverName, toolName);
  if (!allowList.tools.has(key)) return allowList;
  const tools = new Map(allowList.tools);
  tools.delete(key);
  return { servers: allowList.servers, tools };
}
