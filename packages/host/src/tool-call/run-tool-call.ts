import type { CallToolResult } from '@toolhost/connection';
import type { ModelToolCall, ToolCall, ToolCallOutcome } from '@toolhost/contract';
import { HostError } from '../host-error.js';
import { authoriseToolCall } from './authorise-tool-call.js';
import {
  checkCallExtras,
  runAfterInterceptors,
  runBeforeInterceptors,
  type InterceptedToolCall,
  type ToolCallExtras,
  type WireExtras,
} from './call-hooks.js';
import type { CallableTool } from './callable-tool.js';
import { executeToolCall, recoverToolCall } from './execute-tool-call.js';
import { mapToolResult, type MappedResult } from './map-tool-result.js';
import { cancelled, failure, fromLayerError, toolNotFound, type ToolCallFailure } from './tool-call-failure.js';
import type { ToolCallRuntime } from './tool-call-runtime.js';
import { ToolCallTracker } from './tool-call-tracker.js';
import { waitForToolTask } from './tasks/tool-call-task.js';

/** The result of one tool call: the outcome for the adapter, plus what a UI needs. */
export interface ToolCallResult extends ToolCallOutcome {
  /** Short user-facing summary (or the error message). */
  readonly display: string;
  /** The final state of the call, as last sent in `tool-call-update`. */
  readonly toolCall: ToolCall;
  /** Why the call did not succeed: the code says what happened, `cause` the lower layer's error. */
  readonly error?: HostError;
  /**
   * How the result's structured content relates to the tool's `outputSchema`, when the tool has one
   * or sent structured content: `valid`, `recovered-from-text` (JSON only in text, used as the
   * structured content), `invalid` (does not match; passed on anyway, with `errorMessage`),
   * `missing`, `unchecked` (schema not compilable) or `error-result`. Never fatal.
   */
  readonly structuredContentCheck?: {
    readonly status: 'valid' | 'recovered-from-text' | 'invalid' | 'missing' | 'unchecked' | 'error-result';
    readonly errorMessage?: string;
  };
}

const EMPTY_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * One tool call through its stages: resolve the name → validate the arguments → authorise
 * (policy, then the user when asked) → execute on the server → map the result. Never throws:
 * a call that does not succeed comes back as an error outcome the model can read.
 */
export async function runToolCall(
  runtime: ToolCallRuntime,
  call: ModelToolCall,
  signal?: AbortSignal,
  extras: ToolCallExtras = {},
): Promise<ToolCallResult> {
  const interceptors = runtime.interceptors ?? [];
  const toolCallId = call.id ?? runtime.newToolCallId();
  const tool = runtime.findTool(call.name);
  let args = call.arguments ?? EMPTY_ARGUMENTS;
  let intercepted: InterceptedToolCall | undefined;
  let interceptorError: HostError | undefined;
  if (tool && interceptors.length > 0) {
    const { name: toolName, serverName, originalName } = tool.definition;
    const before = await runBeforeInterceptors(interceptors, tool, {
      ...extras,
      toolName,
      serverName,
      originalName,
      toolCallId,
      arguments: args,
    });
    if (HostError.isInstance(before)) interceptorError = before;
    else {
      intercepted = before;
      args = before.arguments;
      extras = before;
    }
  }
  const tracker = new ToolCallTracker(runtime.events, toolCallId, call.name, args, runtime.progressIntervalMs);
  if (!tool) return failed(tracker, call, failure(toolNotFound(call.name, runtime.toolNames(), runtime.unavailableServerOf?.(call.name))));
  tracker.found(tool);
  if (interceptorError) {
    tracker.pending();
    return failed(tracker, call, failure(interceptorError));
  }
  const wire: WireExtras | HostError = checkCallExtras(tool, extras);
  if (HostError.isInstance(wire)) {
    tracker.pending();
    return failed(tracker, call, failure(wire));
  }
  const validation = runtime.validator.validate({
    serverName: tool.definition.serverName,
    toolName: tool.definition.originalName,
    inputSchema: tool.listed.inputSchema,
    arguments: args,
  });
  if (!validation.valid) {
    tracker.pending();
    return failed(tracker, call, failure(fromLayerError(validation.error, tool, 'INVALID_TOOL_ARGUMENTS')));
  }
  let authorised = authoriseToolCall(runtime, tracker, tool, args, signal);
  if (authorised instanceof Promise) authorised = await authorised;
  if ('error' in authorised) return failed(tracker, call, authorised);
  if (signal?.aborted) return failed(tracker, call, failure(cancelled(tool, false)));
  tracker.executing();
  let result: CallToolResult | HostError;
  try {
    // A server the connection pool closed while idle starts again first (the call waits for it).
    if (!tool.run && runtime.isParked?.(tool.definition.serverName)) await runtime.resume?.(tool.definition.serverName);
    result = await executeToolCall(runtime, tracker, tool, args, signal, wire);
  } catch (error) {
    result = await recoverToolCall(runtime, tracker, tool, args, signal, error, wire);
  }
  if (!HostError.isInstance(result) && runtime.tasks) {
    // The server answered with a task (MCP tasks): wait for it, showing its status.
    const client = runtime.getClient(tool.definition.serverName);
    const handle = client?.takeTaskHandle(result);
    if (handle) result = await waitForToolTask(runtime.tasks, { tool, tracker, handle, signal });
  }
  if (!HostError.isInstance(result) && intercepted) result = await runAfterInterceptors(interceptors, tool, intercepted, result);
  if (HostError.isInstance(result)) return failed(tracker, call, failure(result));
  return finished(tracker, call, tool, mapToolResult(result, tool.definition, runtime.resultMapping));
}

/** The result of a call that did not succeed (also used for a resumed task). */
export function failed(tracker: ToolCallTracker, call: ModelToolCall, { error, status }: ToolCallFailure): ToolCallResult {
  const toolCall = tracker.finish(status, { error: { message: error.message, type: error.code } });
  return { call, parts: [{ type: 'text', text: error.message }], isError: true, display: error.message, toolCall, error };
}

/** The result of a call the server answered (also used for a resumed task). */
export function finished(tracker: ToolCallTracker, call: ModelToolCall, tool: CallableTool, mapped: MappedResult): ToolCallResult {
  const { parts, display, structuredContent, structuredContentCheck } = mapped;
  const structured = {
    ...(structuredContent ? { structuredContent } : {}),
    ...(structuredContentCheck ? { structuredContentCheck } : {}),
  };
  if (mapped.isError) {
    const { name, serverName } = tool.definition;
    const error = new HostError({
      code: 'TOOL_REPORTED_ERROR',
      serverName,
      toolName: name,
      message: `Tool "${name}" of MCP server "${serverName}" reported an error: ${display}`,
    });
    const toolCall = tracker.finish('FAILED', { error: { message: error.message, type: error.code } });
    return { call, parts, isError: true, display, toolCall, error, ...structured };
  }
  const toolCall = tracker.finish('SUCCEEDED', {
    output: { text: display, ...(structuredContent ? { structuredData: structuredContent } : {}) },
  });
  return { call, parts, isError: false, display, toolCall, ...structured };
}
