import { escapeControlText } from '@toolhost/contract';
import { HostError } from '../host-error.js';
import type { CallableTool } from './callable-tool.js';

/**
 * Longest value of one `Mcp-Param-*` header the host sends (MCP 2026-07-28, `x-mcp-header`), in
 * characters as sent (after the spec's Base64 encoding of a value that is not plain ASCII). A
 * header mirrors a routing value (a region, a tenant); servers and proxies commonly refuse header
 * sections over 8 or 16 KiB with a bare HTTP 431, which says nothing about which argument was at
 * fault.
 */
export const MAX_MCP_PARAM_HEADER_LENGTH = 4096;

/** The spec's Base64 sentinel around an encoded value: `=?base64?...?=`. */
const SENTINEL_LENGTH = '=?base64?'.length + '?='.length;

/** One `x-mcp-header` declaration: where its value sits in the arguments, and the header name. */
interface Declaration {
  readonly path: readonly string[];
  readonly header: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `x-mcp-header` declarations of an input schema, on properties reached through `properties`
 * alone (the only place the spec allows them; discovery has already left out tools that put them
 * anywhere else). Walked with a stack of its own.
 */
function declarationsOf(inputSchema: unknown): Declaration[] {
  const found: Declaration[] = [];
  const stack: Array<{ readonly node: unknown; readonly path: readonly string[] }> = [{ node: inputSchema, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: unknown; path: readonly string[] };
    if (!isRecord(node)) continue;
    const header = node['x-mcp-header'];
    if (path.length > 0 && typeof header === 'string') found.push({ path, header });
    if (isRecord(node['properties'])) {
      for (const [key, child] of Object.entries(node['properties'])) stack.push({ node: child, path: [...path, key] });
    }
  }
  return found;
}

/** Length of a value as the SDK sends it in a header: as it is when plain ASCII, else Base64 of its UTF-8 in the sentinel. */
function sentLength(text: string): number {
  const plain = text.length > 0 && text === text.trim() && /^[\x20-\x7e\t]*$/.test(text) && !text.startsWith('=?base64?');
  return plain ? text.length : SENTINEL_LENGTH + 4 * Math.ceil(Buffer.byteLength(text, 'utf8') / 3);
}

/**
 * Why the arguments of a call cannot be mirrored into `Mcp-Param-*` headers: an argument declared
 * with `x-mcp-header` whose value, as sent, is longer than {@link MAX_MCP_PARAM_HEADER_LENGTH}.
 * Values with CR, LF, NUL or non-ASCII characters are not refused: the SDK sends them Base64
 * encoded, as the spec says, so they never reach the header raw. `undefined` when nothing is wrong.
 */
export function mcpParamHeaderProblem(tool: CallableTool, args: Readonly<Record<string, unknown>>): HostError | undefined {
  for (const { path, header } of declarationsOf(tool.callDefinition.inputSchema)) {
    let value: unknown = args;
    for (const key of path) value = isRecord(value) ? value[key] : undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    const length = sentLength(String(value));
    if (length <= MAX_MCP_PARAM_HEADER_LENGTH) continue;
    const { name, serverName } = tool.definition;
    return new HostError({
      code: 'INVALID_TOOL_ARGUMENTS',
      serverName,
      toolName: name,
      message:
        `Argument ${escapeControlText(JSON.stringify(path.join('.')), { maxLength: 200 })} of tool "${name}" (MCP server "${serverName}") is sent as the ` +
        `Mcp-Param-${header} header (its x-mcp-header), and its value would be ${length} characters there, over the ` +
        `${MAX_MCP_PARAM_HEADER_LENGTH} a header may carry; the call was not sent. Give a shorter value.`,
    });
  }
  return undefined;
}
