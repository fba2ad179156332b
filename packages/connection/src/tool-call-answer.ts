import type { CallToolResult, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';

/** What the wire codec's own check of a result says (the shape of the SDK's `WireCodec.validateResult`). */
export type WireResultCheck = (
  value: unknown,
) => { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message?: string };

/**
 * True for the answer most tools give: text blocks only, each exactly `{ type: 'text', text }`,
 * and besides `content` at most `isError` (a boolean) and `resultType: 'complete'`. Such an answer
 * is what the SDK's full schema would return unchanged, so it needs no further check. Anything else
 * (another block type, an extra key, `structuredContent`, `_meta`) goes to the full check.
 */
export function isPlainTextToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  let content: unknown;
  for (const key of Object.keys(fields)) {
    const field = fields[key];
    if (key === 'content') content = field;
    else if (key === 'isError') {
      if (typeof field !== 'boolean') return false;
    } else if (key === 'resultType') {
      if (field !== 'complete') return false;
    } else return false;
  }
  if (!Array.isArray(content)) return false;
  for (const block of content as unknown[]) {
    if (typeof block !== 'object' || block === null) return false;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type !== 'text' || typeof text !== 'string' || Object.keys(block).length !== 2) return false;
  }
  return true;
}

/**
 * The result schema the host sends `tools/call` with: a plain-text answer
 * ({@link isPlainTextToolResult}) is accepted as it is; every other answer gets the negotiated
 * revision's full check (`full`), exactly as `Client.callTool` would. Saves the full schema's
 * parse on the common path (about a fifth of the SDK's per-call CPU on a small answer).
 */
export function toolCallResultSchema(full: WireResultCheck): StandardSchemaV1<unknown, CallToolResult> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolhost',
      validate(value) {
        if (isPlainTextToolResult(value)) return { value };
        const outcome = full(value);
        if (outcome.ok) return { value: outcome.value as CallToolResult };
        return { issues: [{ message: outcome.message ?? 'not a tools/call result of the negotiated revision' }] };
      },
    },
  };
}

const MIRRORS_HEADERS = new WeakMap<Tool, boolean>();

/**
 * Whether `tool` declares `x-mcp-header` parameters (MCP 2026-07-28), which the SDK's
 * `callTool` mirrors into `Mcp-Param-*` headers. Unknown (no definition) counts as yes.
 * Computed once per tool definition.
 */
export function mayMirrorHeaders(tool: Tool | undefined): boolean {
  if (!tool) return true;
  let mirrors = MIRRORS_HEADERS.get(tool);
  if (mirrors === undefined) {
    mirrors = JSON.stringify(tool.inputSchema ?? {}).includes('"x-mcp-header"');
    MIRRORS_HEADERS.set(tool, mirrors);
  }
  return mirrors;
}
