import type { AllowList, PinnedDefinition } from './allow-list.js';
import { toolKey } from './allow-list.js';

/** Which tool call an allow-list is asked about. */
export interface AllowListQuery {
  /** The server. */
  readonly serverName: string;
  /** The tool's original name. */
  readonly toolName: string;
  /** `hashToolDefinition` of the tool's current definition. */
  readonly definitionHash: string;
  /** The server's current identity, when the host gives one. */
  readonly serverIdentity?: string;
}

/** What the allow-list says about one call. */
export type AllowListVerdict =
  /** Approved, and the pinned definition matches. `pinMissing`: approved for the server, tool not pinned yet. */
  | { readonly status: 'approved'; readonly scope: 'tool' | 'server'; readonly pinMissing: boolean }
  /** Was approved, but the tool's definition changed since: ask again and show `previous`. */
  | { readonly status: 'definition-changed'; readonly scope: 'tool' | 'server'; readonly previous: PinnedDefinition }
  /** Was approved, but the server's identity (URL or command) changed since: ask again. */
  | { readonly status: 'server-changed'; readonly scope: 'tool' | 'server'; readonly previousIdentity: string }
  /** Not on the allow-list. */
  | { readonly status: 'not-listed' };

const identityChanged = (stored: string | undefined, current: string | undefined) =>
  stored !== undefined && current !== undefined && stored !== current;

/**
 * Look a call up in the allow-list. A tool-level approval is checked first, and a stale one
 * is never bypassed by a server-level approval. Under a server-level approval, a tool not
 * pinned yet is approved with `pinMissing: true` (the caller pins it); a pinned tool whose
 * definition changed is not.
 */
export function evaluateAllowList(allowList: AllowList, query: AllowListQuery): AllowListVerdict {
  const tool = allowList.tools.get(toolKey(query.serverName, query.toolName));
  if (tool !== undefined) {
    if (identityChanged(tool.serverIdentity, query.serverIdentity))
      return { status: 'server-changed', scope: 'tool', previousIdentity: tool.serverIdentity! };
    if (tool.definitionHash !== query.definitionHash) return { status: 'definition-changed', scope: 'tool', previous: tool };
    return { status: 'approved', scope: 'tool', pinMissing: false };
  }
  const server = allowList.servers.get(query.serverName);
  if (server === undefined) return { status: 'not-listed' };
  if (identityChanged(server.serverIdentity, query.serverIdentity))
    return { status: 'server-changed', scope: 'server', previousIdentity: server.serverIdentity! };
  const pinned = server.tools.get(query.toolName);
  if (pinned === undefined) return { status: 'approved', scope: 'server', pinMissing: true };
  if (pinned.definitionHash !== query.definitionHash) return { status: 'definition-changed', scope: 'server', previous: pinned };
  return { status: 'approved', scope: 'server', pinMissing: false };
}
