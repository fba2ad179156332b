import type { CallToolResult, Tool } from '@toolhost/connection';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { escapeControlText, type HostToolDefinition } from '@toolhost/contract';
import type { CallableTool } from './callable-tool.js';

/** The `serverName` of the host's own tools in their {@link HostToolDefinition}. */
export const HOST_TOOLS_SERVER_NAME = 'toolhost';

/** A host-provided tool: a callable whose calls the host answers itself. */
export interface HostProvidedTool extends CallableTool {
  /** Answer one call (`toolCallId`: the call's id, for a confirmation the tool asks itself). */
  readonly run: (args: Readonly<Record<string, unknown>>, signal: AbortSignal | undefined, toolCallId?: string) => Promise<CallToolResult>;
}

/** Annotations of a host tool that only reads what a server offers. */
export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** One item of a host tool's result. */
export type HostToolContent = CallToolResult['content'][number];

/**
 * A host tool. `listed.inputSchema` is what the arguments are validated against before `run`;
 * `declaredInputSchema`, when given, is what the model is told instead (a stricter form, so that
 * `run` can refuse a wrong value itself with a message naming what it is about).
 */
export function hostTool(listed: Tool, run: HostProvidedTool['run'], declaredInputSchema?: Record<string, unknown>): HostProvidedTool {
  const definition: HostToolDefinition = {
    name: listed.name,
    serverName: HOST_TOOLS_SERVER_NAME,
    originalName: listed.name,
    description: listed.description ?? '',
    inputSchema: declaredInputSchema ?? (listed.inputSchema as Record<string, unknown>),
    annotations: listed.annotations as Record<string, unknown>,
  };
  return {
    definition,
    listed,
    callDefinition: listed,
    timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
    // Read-only requests the servers declared they serve: never asked about (a host policy still decides first).
    trust: true,
    serverIdentity: `host:${HOST_TOOLS_SERVER_NAME}`,
    remote: false,
    // Answered in-process, like a local server: per-call HTTP headers are refused as for stdio.
    transportKind: 'stdio',
    run,
  };
}

/** A result of one text item. */
export function textResult(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

/** A result of these items (one empty text item when there are none). */
export function contentResult(content: HostToolContent[]): CallToolResult {
  return { content: content.length > 0 ? content : [{ type: 'text', text: '' }] };
}

/** Server-written text in one line of a listing: escaped, at most 500 characters. */
export function cleanLine(value: string | undefined): string {
  return escapeControlText(value ?? '', { maxLength: 500 });
}

/** The message of a caught error. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first `length` UTF-16 units of `text`, without splitting a surrogate pair. */
export function cutText(text: string, length: number): string {
  if (length <= 0) return '';
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The visible marker after text cut by the host: `… [<what> truncated by toolhost: N characters (and M media items) left out]`. */
export function truncationMarker(what: string, characters: number, mediaItems = 0): string {
  return `… [${what} truncated by toolhost: ${characters} characters${mediaItems > 0 ? ` and ${mediaItems} media item(s)` : ''} left out]`;
}

/** `text` cut to `maxLength` characters, followed by a {@link truncationMarker} saying what was cut and how much was left out. */
export function capText(text: string, maxLength: number, what: string): string {
  if (text.length <= maxLength) return text;
  const kept = cutText(text, maxLength);
  return `${kept}${truncationMarker(what, text.length - kept.length)}`;
}

/**
 * Base64 data of `mimeType` as an image or audio item when it is one and at most `maxLength`
 * characters long; otherwise a note with the MIME type and size instead of the data.
 */
export function mediaItem(data: string, mimeType: string, maxLength: number): HostToolContent {
  const kind = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : undefined;
  if (kind && data.length <= maxLength) return { type: kind, data, mimeType };
  const bytes = Math.floor((data.length * 3) / 4);
  return { type: 'text', text: `[Binary Data (${cleanLine(mimeType)}), ${bytes} bytes, not included]` };
}

/** What {@link listingTool} lists: one kind of item the servers offer. */
export interface ListingToolOptions<T extends { readonly serverName: string }> {
  /** The tool name. */
  readonly name: string;
  /** The tool description. */
  readonly description: string;
  /** What is listed, plural and capitalised (`Resources`, `Prompts`). */
  readonly kind: string;
  /** The items the connected servers offer now. */
  readonly items: () => T[];
  /** One item's line(s), server text cleaned. */
  readonly line: (item: T) => string;
  /** Longest listing, in characters (cut with a visible marker). @default unlimited */
  readonly maxLength?: number;
}

/**
 * A read-only host tool taking `{ serverName? }` that lists the items (`Available MCP <kind>:`
 * then one line each), or says there are none (`No MCP <kind> found.`, `No <kind> found for
 * server: <name>`), as Gemini CLI's `list_mcp_resources` does.
 */
export function listingTool<T extends { readonly serverName: string }>(options: ListingToolOptions<T>): HostProvidedTool {
  const { kind } = options;
  const lower = kind.toLowerCase();
  const list = (serverName: string | undefined): string => {
    const all = options.items();
    const shown = serverName === undefined ? all : all.filter((item) => item.serverName === serverName);
    if (shown.length === 0)
      return serverName === undefined ? `No MCP ${lower} found.` : `No ${lower} found for server: ${cleanLine(serverName)}`;
    return `Available MCP ${kind}:\n${shown.map(options.line).join('\n')}`;
  };
  return hostTool(
    {
      name: options.name,
      description: options.description,
      inputSchema: {
        type: 'object',
        properties: { serverName: { type: 'string', description: `Only the ${lower} of this MCP server.` } },
      },
      annotations: { title: `List MCP ${lower}`, ...READ_ONLY_ANNOTATIONS },
    },
    (args) => {
      const listing = list(typeof args.serverName === 'string' ? args.serverName : undefined);
      return Promise.resolve(textResult(options.maxLength === undefined ? listing : capText(listing, options.maxLength, `${lower} list`)));
    },
  );
}
