import {
  isModernRevision,
  mayMirrorHeaders,
  readElicitationUrl,
  SERVER_ERROR_CODES,
  serverErrorAnswer,
  type CallToolRequestOptions,
  type CallToolResult,
  type ServerErrorAnswer,
} from '@toolhost/connection';
import { escapeControlText, type ToolCallProgress } from '@toolhost/contract';
import { HostError } from '../host-error.js';
import type { WireExtras } from './call-hooks.js';
import type { CallableTool } from './callable-tool.js';
import { mcpParamHeaderProblem } from './mcp-param-headers.js';
import { executionError } from './tool-call-failure.js';
import { taskParameterFor } from './tasks/tool-call-task.js';
import type { ToolCallRuntime } from './tool-call-runtime.js';
import type { ToolCallTracker } from './tool-call-tracker.js';

/**
 * Stage "execute": `tools/call` on the tool's server with its timeout. Progress is asked for
 * only when someone consumes it (a `tool-call-progress` or `tool-call-update` listener); then
 * each notification resets the timeout, up to the host's overall cap. Remote servers get OAuth
 * step-up around the request. Returns the SDK's promise itself: no extra asynchronous step.
 */
export function executeToolCall(
  runtime: ToolCallRuntime,
  tracker: ToolCallTracker,
  tool: CallableTool,
  args: Readonly<Record<string, unknown>>,
  signal: AbortSignal | undefined,
  extras: WireExtras = {},
): Promise<CallToolResult> {
  if (tool.run) return tool.run(args, signal, tracker.toolCallId);
  const { serverName, originalName } = tool.definition;
  const client = runtime.getClient(serverName);
  if (!client) {
    return Promise.reject(
      new HostError({
        code: 'SERVER_NOT_CONNECTED',
        serverName,
        toolName: tool.definition.name,
        message: `MCP server "${serverName}" is not connected, so tool "${tool.definition.name}" cannot run; see /mcp for why.`,
      }),
    );
  }
  const task = taskParameterFor(tool, client, runtime.tasks?.registry);
  if (HostError.isInstance(task)) return Promise.reject(task);
  const options: CallToolRequestOptions = { timeout: tool.timeoutMs, toolDefinition: tool.callDefinition };
  if (signal) options.signal = signal;
  if (tracker.observesProgress) {
    options.resetTimeoutOnProgress = true;
    options.maxTotalTimeout = Math.max(runtime.maxTotalTimeoutMs, tool.timeoutMs);
    options.onprogress = (progress) => tracker.progress(toProgress(progress));
  }
  if (extras.headers) options.headers = extras.headers;
  const params = {
    name: originalName,
    arguments: args as Record<string, unknown>,
    ...(extras.meta ? { _meta: extras.meta } : {}),
    ...(task ? { task } : {}),
  };
  if (tool.remote && isModernRevision(client.getNegotiatedProtocolVersion()) && mayMirrorHeaders(tool.callDefinition)) {
    // The SDK mirrors x-mcp-header arguments into Mcp-Param-* headers: refuse one no header can carry, naming it.
    const problem = mcpParamHeaderProblem(tool, args);
    if (problem) return Promise.reject(problem);
  }
  const request = () => client.sendToolCall(params, options);
  if (!tool.remote) return request();
  return runtime.withStepUp({ serverName, what: `call tool "${originalName}"`, run: request, signal });
}

function toProgress(progress: { progress: number; total?: number; message?: string }): ToolCallProgress {
  return {
    progress: progress.progress,
    ...(progress.total !== undefined ? { total: progress.total } : {}),
    ...(progress.message !== undefined ? { message: progress.message } : {}),
  };
}

interface UrlElicitation {
  readonly url?: unknown;
  readonly message?: unknown;
  readonly elicitationId?: unknown;
}

/**
 * After a failed request: when the server demanded URL elicitations (`-32042`) and the user
 * accepted every one through the `elicit` hook, the call is sent once more. Otherwise, or when
 * the retry fails too, the failure as a {@link HostError}.
 */
export async function recoverToolCall(
  runtime: ToolCallRuntime,
  tracker: ToolCallTracker,
  tool: CallableTool,
  args: Readonly<Record<string, unknown>>,
  signal: AbortSignal | undefined,
  error: unknown,
  extras: WireExtras = {},
): Promise<CallToolResult | HostError> {
  const answer = serverErrorAnswer(error);
  if (answer?.code !== SERVER_ERROR_CODES.urlElicitationRequired || signal?.aborted) return executionError(error, tool, signal);
  if (!(await acceptUrlElicitations(runtime, tool, answer, signal))) return executionError(error, tool, signal);
  try {
    return await executeToolCall(runtime, tracker, tool, args, signal, extras);
  } catch (retryError) {
    return executionError(retryError, tool, signal);
  }
}

async function acceptUrlElicitations(
  runtime: ToolCallRuntime,
  tool: CallableTool,
  error: ServerErrorAnswer,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const elicit = runtime.ui.elicit;
  const data = error.data as { elicitations?: unknown } | undefined;
  const elicitations = Array.isArray(data?.elicitations) ? (data.elicitations as UrlElicitation[]) : [];
  if (!elicit || elicitations.length === 0) return false;
  for (const item of elicitations) {
    const target = readElicitationUrl(item.url);
    if (target === undefined) return false;
    const answer = await elicit.call(runtime.ui, {
      mode: 'url',
      serverName: tool.definition.serverName,
      message: typeof item.message === 'string' ? escapeControlText(item.message) : '',
      ...target,
      elicitationId: typeof item.elicitationId === 'string' ? item.elicitationId : '',
      signal: signal ?? new AbortController().signal,
    });
    if (answer.action !== 'accept') return false;
  }
  return true;
}
