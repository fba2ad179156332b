import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationHook } from './elicitation.js';
import { checkStructuredContent, type StructuredContentCheck } from './structured-content.js';

/** Default per-call timeout (reset by each progress notification). */
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;

/** A `notifications/progress` for one tool call. */
export interface ToolProgressEvent {
  /** The server running the tool. */
  readonly serverName: string;
  /** The tool's name on its server. */
  readonly toolName: string;
  /** Progress so far (increases with each notification). */
  readonly progress: number;
  /** Total, when the server knows it. */
  readonly total?: number;
  /** Human-readable status, when the server sends one. */
  readonly message?: string;
}

/** Options of {@link callToolWithFeatures}. */
export interface CallToolWithFeaturesOptions {
  /** The server (for events and messages). */
  readonly serverName: string;
  /** The tool's name on its server. */
  readonly toolName: string;
  /** The arguments. */
  readonly arguments?: Record<string, unknown>;
  /** The tool's `outputSchema`, to check `structuredContent` leniently. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** Aborting sends `notifications/cancelled` to the server and rejects; a late result is dropped. */
  readonly signal?: AbortSignal;
  /** Time allowed without progress; each progress notification restarts it. @default 600000 */
  readonly timeoutMs?: number;
  /** Overall cap, whatever progress arrives. @default 6 × timeoutMs */
  readonly maxTotalTimeoutMs?: number;
  /** Receives each progress notification of this call. */
  readonly onProgress?: (event: ToolProgressEvent) => void;
  /**
   * Shows URL elicitations a server demands through error -32042 (URLElicitationRequired).
   * When the user accepts all of them the call is retried once; otherwise the error is thrown.
   */
  readonly elicit?: ElicitationHook;
}

/** The result of {@link callToolWithFeatures}. */
export interface CallToolWithFeaturesResult {
  /** The server's result, untouched. */
  readonly result: CallToolResult;
  /** The lenient `structuredContent` check. */
  readonly structured: StructuredContentCheck;
}

interface UrlElicitationData {
  elicitations?: Array<{ url?: string; message?: string; elicitationId?: string }>;
}

async function satisfyUrlElicitations(error: McpError, options: CallToolWithFeaturesOptions): Promise<boolean> {
  const elicitations = (error.data as UrlElicitationData | undefined)?.elicitations ?? [];
  if (!options.elicit || elicitations.length === 0) return false;
  for (const item of elicitations) {
    let domain: string;
    try {
      const url = new URL(item.url ?? '');
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
      domain = url.hostname;
    } catch {
      return false;
    }
    const answer = await options.elicit({
      mode: 'url',
      serverName: options.serverName,
      message: item.message ?? '',
      url: item.url ?? '',
      domain,
      elicitationId: item.elicitationId ?? '',
      signal: options.signal ?? new AbortController().signal,
    });
    if (answer.action !== 'accept') return false;
  }
  return true;
}

/**
 * Calls a tool with the client features the SDK leaves to the host: progress events per call,
 * a timeout that progress restarts with an overall cap, cancellation that reaches the server,
 * URL-elicitation-required (-32042) handling, and lenient `structuredContent` checking (a
 * missing or mismatching `structuredContent` never fails the call).
 */
export async function callToolWithFeatures(client: Client, options: CallToolWithFeaturesOptions): Promise<CallToolWithFeaturesResult> {
  const timeout = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const attempt = () =>
    // client.request, not client.callTool: callTool throws when structuredContent is missing.
    client.request(
      { method: 'tools/call', params: { name: options.toolName, arguments: options.arguments ?? {} } },
      CallToolResultSchema,
      {
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: options.maxTotalTimeoutMs ?? timeout * 6,
        ...(options.signal ? { signal: options.signal } : {}),
        onprogress: (progress) => {
          options.onProgress?.({
            serverName: options.serverName,
            toolName: options.toolName,
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: progress.message } : {}),
          });
        },
      },
    );
  let result: CallToolResult;
  try {
    result = (await attempt()) as CallToolResult;
  } catch (error) {
    if (!(error instanceof McpError && error.code === ErrorCode.UrlElicitationRequired)) throw error;
    if (!(await satisfyUrlElicitations(error, options))) throw error;
    options.signal?.throwIfAborted();
    result = (await attempt()) as CallToolResult;
  }
  const structured = checkStructuredContent({
    result,
    ...(options.outputSchema ? { outputSchema: options.outputSchema } : {}),
  });
  return { result, structured };
}
