import { canonicalJson } from './canonical-json.js';

/**
 * An MCP tool as the server listed it (`tools/list`). Every field takes part in the pinned
 * hash, including ones this package does not know (`icons`, `_meta`, future fields).
 */
export interface ToolDefinition {
  /** The tool's name on its server. */
  readonly name: string;
  /** Display title. */
  readonly title?: string;
  /** What the tool does, as the server describes it (shown to the model: a poisoning target). */
  readonly description?: string;
  /** JSON Schema of the arguments. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** JSON Schema of `structuredContent`. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** Hints such as `readOnlyHint`; untrusted, never used to skip confirmation. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** Any other field of the wire object. */
  readonly [field: string]: unknown;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The stable hash an approval is pinned to: `sha256:` + hex SHA-256 of the canonical JSON
 * (sorted keys) of the tool's whole definition, so a change to the description, either
 * schema, the annotations, the title or any other field gives a different hash, while a
 * different key order does not. Uses WebCrypto (`globalThis.crypto.subtle`): works in Node 20+,
 * Deno, Bun and browsers.
 *
 * @example
 * await hashToolDefinition({ name: 'echo', inputSchema: { type: 'object' } }); // 'sha256:…'
 */
export async function hashToolDefinition(tool: ToolDefinition): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(tool));
  return `sha256:${toHex(await globalThis.crypto.subtle.digest('SHA-256', bytes))}`;
}
