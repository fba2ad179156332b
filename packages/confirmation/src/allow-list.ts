import type { ToolDefinition } from './tool-definition.js';

/** A tool's definition as it was when approved. */
export interface PinnedDefinition {
  /** `hashToolDefinition` of the definition. */
  readonly definitionHash: string;
  /** The definition itself, kept so a change can be shown as a diff. */
  readonly definition: ToolDefinition;
}

/** "Always allow this tool": the `serverName.toolName` entry of the seeds, pinned to one definition. */
export interface ToolApproval extends PinnedDefinition {
  /** The server. */
  readonly serverName: string;
  /** The tool's original name on its server. */
  readonly toolName: string;
  /** Identity of the server when approved (URL, or command and arguments), when the host gave one. */
  readonly serverIdentity?: string;
  /** When the user approved it (ISO 8601). */
  readonly approvedAt: string;
}

/** "Always allow this server": the `serverName` entry of the seeds, with each tool's definition pinned. */
export interface ServerApproval {
  /** The server. */
  readonly serverName: string;
  /** Identity of the server when approved, when the host gave one. */
  readonly serverIdentity?: string;
  /** When the user approved it (ISO 8601). */
  readonly approvedAt: string;
  /** Tool name → the definition pinned when the tool was first used under this approval. */
  readonly tools: ReadonlyMap<string, PinnedDefinition>;
}

/** Every "always allow" decision. Immutable: updates return a new value. */
export interface AllowList {
  /** Server name → approval. */
  readonly servers: ReadonlyMap<string, ServerApproval>;
  /** `toolKey(serverName, toolName)` → approval. */
  readonly tools: ReadonlyMap<string, ToolApproval>;
}

/** An allow-list with nothing in it. */
export function emptyAllowList(): AllowList {
  return { servers: new Map(), tools: new Map() };
}

/** Map key of a tool approval (unambiguous even when names contain dots). */
export function toolKey(serverName: string, toolName: string): string {
  return JSON.stringify([serverName, toolName]);
}

/** The JSON form of an {@link AllowList} (what `JsonFileAllowListStore` writes). */
export interface AllowListDocument {
  /** Format version. */
  version: 1;
  /** Server approvals. */
  servers: Array<Omit<ServerApproval, 'tools'> & { tools: Array<PinnedDefinition & { toolName: string }> }>;
  /** Tool approvals. */
  tools: ToolApproval[];
}

/** Turn an allow-list into its JSON document form (arrays, so hostile names cannot become object keys). */
export function toAllowListDocument(allowList: AllowList): AllowListDocument {
  return {
    version: 1,
    servers: [...allowList.servers.values()].map((server) => ({
      ...server,
      tools: [...server.tools].map(([toolName, pinned]) => ({ toolName, ...pinned })),
    })),
    tools: [...allowList.tools.values()],
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPinned = (value: Record<string, unknown>): boolean => typeof value['definitionHash'] === 'string' && isRecord(value['definition']);

/**
 * Read an allow-list document. Malformed entries are skipped (an entry that cannot be read
 * grants nothing); a document that is not an allow-list throws a `TypeError`.
 */
export function fromAllowListDocument(document: unknown): AllowList {
  if (!isRecord(document) || document['version'] !== 1) throw new TypeError('not a version 1 allow-list document');
  const servers = new Map<string, ServerApproval>();
  const tools = new Map<string, ToolApproval>();
  for (const entry of Array.isArray(document['servers']) ? document['servers'] : []) {
    if (!isRecord(entry) || typeof entry['serverName'] !== 'string' || typeof entry['approvedAt'] !== 'string') continue;
    const pins = new Map<string, PinnedDefinition>();
    for (const pin of Array.isArray(entry['tools']) ? entry['tools'] : []) {
      if (isRecord(pin) && typeof pin['toolName'] === 'string' && isPinned(pin)) {
        pins.set(pin['toolName'], { definitionHash: pin['definitionHash'] as string, definition: pin['definition'] as ToolDefinition });
      }
    }
    const identity = typeof entry['serverIdentity'] === 'string' ? { serverIdentity: entry['serverIdentity'] } : {};
    servers.set(entry['serverName'], { serverName: entry['serverName'], ...identity, approvedAt: entry['approvedAt'], tools: pins });
  }
  for (const entry of Array.isArray(document['tools']) ? document['tools'] : []) {
    if (
      !isRecord(entry) ||
      typeof entry['serverName'] !== 'string' ||
      typeof entry['toolName'] !== 'string' ||
      !isPinned(entry) ||
      typeof entry['approvedAt'] !== 'string'
    )
      continue;
    const identity = typeof entry['serverIdentity'] === 'string' ? { serverIdentity: entry['serverIdentity'] } : {};
    tools.set(toolKey(entry['serverName'], entry['toolName']), {
      serverName: entry['serverName'],
      toolName: entry['toolName'],
      ...identity,
      definitionHash: entry['definitionHash'] as string,
      definition: entry['definition'] as ToolDefinition,
      approvedAt: entry['approvedAt'],
    });
  }
  return { servers, tools };
}
