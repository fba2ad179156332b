import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StructuredContentStatus } from './client-features/index.js';
import { describeToolArguments } from './describe-tool-arguments.js';
import { HostError, type HostErrorCode } from './host-error.js';
import type { HostToolDefinition, ModelToolCall, ToolCallOutcome, ToolResultPart } from './model-adapter.js';
import {
  CONFIRMATION_OPTIONS,
  type ConfirmationOptionId,
  type ConfirmationRequest,
  type ToolCall,
  type ToolCallProgress,
} from './tool-call.js';
import type { PolicyDecision, PolicySubject } from './tool-policy.js';
import type { ToolCallProgressEvent, UiHooks } from './ui-hooks.js';

/** Options of one call to a server, passed to the discovery layer. */
export interface InvokeOptions {
  /** Aborts the call; the SDK sends `notifications/cancelled`. */
  readonly signal?: AbortSignal;
  /** The server's request timeout. */
  readonly timeout: number;
  /** Progress callback; progress resets the timeout. */
  readonly onprogress: (progress: ToolCallProgress) => void;
  /** Always true: progress keeps a long call alive. */
  readonly resetTimeoutOnProgress: true;
  /** Overall cap, whatever progress arrives. */
  readonly maxTotalTimeout: number;
}

/** A tool result mapped for the model and the user. */
export interface MappedResult {
  /** Parts for the model. */
  readonly parts: readonly ToolResultPart[];
  /** Short user-facing summary. */
  readonly display: string;
  /** Whether the tool reported an error. */
  readonly isError: boolean;
  /** The server's `structuredContent`, or the JSON object its text held when the tool has an `outputSchema`. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** How the structured content relates to the tool's `outputSchema` (absent when neither exists). */
  readonly structuredContentCheck?: StructuredContentReport;
}

/** The lenient `outputSchema` check of one result: reported, never fatal. */
export interface StructuredContentReport {
  /**
   * `valid`, `recovered-from-text` (JSON only in text, used as the structured content), `invalid`
   * (does not match the schema; passed on anyway), `missing`, `unchecked` (schema not compilable)
   * or `error-result`.
   */
  readonly status: StructuredContentStatus;
  /** Why validation failed, for `invalid` and `unchecked`. */
  readonly errorMessage?: string;
}

/** A registered tool found by name. */
export interface FoundTool {
  /** The tool as the adapter sees it. */
  readonly definition: HostToolDefinition;
  /** The server's request timeout. */
  readonly timeoutMs: number;
  /** What the confirmation policy decides on. */
  readonly subject: PolicySubject;
}

/** Everything {@link runToolCall} needs; the host wires these to discovery, confirmation and content-mapper. */
export interface RunToolCallDependencies {
  /** The registered tool, the server's timeout and the policy subject, or undefined when the name is unknown. */
  findTool(name: string): FoundTool | undefined;
  /** Every registered name (for the not-found message). */
  listToolNames(): readonly string[];
  /** Validate the arguments and decide whether the call may run (see `@toolhost/confirmation`). */
  decide(found: FoundTool, args: Readonly<Record<string, unknown>>): Promise<PolicyDecision>;
  /** The UI's confirm hook; absent means non-interactive. */
  readonly confirm?: UiHooks['confirm'];
  /** Call the tool on its server. */
  invoke(tool: HostToolDefinition, args: Record<string, unknown>, options: InvokeOptions): Promise<CallToolResult>;
  /** Map a result for the model and the user. */
  mapResult(result: CallToolResult, tool: HostToolDefinition): MappedResult;
  /** Report a lifecycle update. */
  emit(toolCall: ToolCall): void;
  /** Report progress. */
  onProgress(event: ToolCallProgressEvent): void;
  /** Overall cap of one call, in milliseconds. */
  readonly maxTotalTimeoutMs: number;
  /** A fresh tool-call id, used when the model gave none. */
  newToolCallId(): string;
}

/** The result of one tool call: the outcome for the adapter, plus what the UI needs. */
export interface ToolCallResult extends ToolCallOutcome {
  /** Short user-facing summary (or the error message). */
  readonly display: string;
  /** The final state of the call, as last sent in `tool-call-update`. */
  readonly toolCall: ToolCall;
  /** The typed error when the call did not succeed. */
  readonly error?: HostError;
  /** How the result's structured content relates to the tool's `outputSchema`, when the tool has one or sent structured content. */
  readonly structuredContentCheck?: StructuredContentReport;
}

function errorCodeOf(error: unknown, signal: AbortSignal | undefined): HostErrorCode {
  if (signal?.aborted) return 'TOOL_CALL_CANCELLED';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'REQUEST_CANCELLED') return 'TOOL_CALL_CANCELLED';
  if (code === 'REQUEST_TIMEOUT' || code === -32001) return 'TOOL_CALL_TIMEOUT';
  return 'TOOL_CALL_FAILED';
}

function progressText(progress: ToolCallProgress): string {
  const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${amount} ${progress.message}` : amount;
}

/**
 * Run one model tool call through the whole pipeline, reporting every lifecycle step:
 * look-up → argument validation and policy → one `PENDING` (with the confirmation request when
 * the user must decide) → confirmation → `EXECUTING` (with progress) → `SUCCEEDED`, `FAILED` or `CANCELLED`. Never throws: failures
 * come back as an error outcome the model can read.
 */
export async function runToolCall(
  deps: RunToolCallDependencies,
  call: ModelToolCall,
  options: { readonly signal?: AbortSignal } = {},
): Promise<ToolCallResult> {
  const { signal } = options;
  const args: Record<string, unknown> = { ...(call.arguments ?? {}) };
  const toolCallId = call.id ?? deps.newToolCallId();
  const found = deps.findTool(call.name);
  let state: ToolCall = { toolCallId, status: 'PENDING', toolName: call.name, inputParameters: args };
  const update = (next: Partial<ToolCall> & Pick<ToolCall, 'status'>): ToolCall => {
    const { confirmationRequest: _dropped, liveContent: _live, progress: _progress, ...rest } = state;
    state = next.status === state.status ? { ...state, ...next } : { ...rest, ...next };
    deps.emit(state);
    return state;
  };
  const finishWithError = (error: HostError, status: 'FAILED' | 'CANCELLED'): ToolCallResult => {
    const toolCall = update({ status, error: { message: error.message, type: error.code } });
    return {
      call,
      parts: [{ type: 'text', text: error.message }],
      isError: true,
      display: error.message,
      toolCall,
      error,
    };
  };

  if (!found) {
    const names = deps.listToolNames();
    const shown = names.slice(0, 20).join(', ');
    return finishWithError(
      new HostError({
        code: 'TOOL_NOT_FOUND',
        toolName: call.name,
        message: `Tool "${call.name}" is not registered. ${names.length ? `Available tools: ${shown}${names.length > 20 ? ', ...' : ''}.` : 'No MCP tools are available: run discover() first or check the server status.'}`,
      }),
      'FAILED',
    );
  }
  const tool = found.definition;
  const serverFields = { serverName: tool.serverName, serverToolName: tool.originalName };
  state = { ...state, ...serverFields, description: `${tool.serverName} › ${tool.originalName}` };

  const policyFailure = (error: unknown): ToolCallResult =>
    finishWithError(
      new HostError({
        code: 'TOOL_CALL_FAILED',
        serverName: tool.serverName,
        toolName: tool.name,
        message: `Could not decide whether tool "${tool.name}" may run: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      }),
      'FAILED',
    );
  let decision: PolicyDecision;
  try {
    decision = await deps.decide(found, args);
  } catch (error) {
    update({ status: 'PENDING' });
    return policyFailure(error);
  }
  const request = (reason: string, changes: ConfirmationRequest['changes'], changeSummary: string): ConfirmationRequest => ({
    toolCallId,
    title: 'Confirm MCP Tool Execution',
    description: describeToolArguments(args),
    toolArgs: args,
    options: CONFIRMATION_OPTIONS,
    mcpDetails: {
      serverName: tool.serverName,
      toolName: tool.originalName,
      registeredName: tool.name,
      toolDescription: tool.description,
      toolParameterSchema: tool.inputSchema,
    },
    reason,
    changes,
    changeSummary,
  });
  // One PENDING per call (the seeds' lifecycle): it carries the confirmation request when the user must decide.
  const unasked = decision.kind === 'denied' ? decision.unasked : undefined;
  const confirmationRequest =
    decision.kind === 'ask'
      ? request(decision.reason, decision.changes, decision.changeSummary)
      : unasked
        ? request(unasked.reason, unasked.changes, unasked.changeSummary)
        : undefined;
  update({ status: 'PENDING', ...(confirmationRequest ? { confirmationRequest } : {}) });
  if (decision.kind === 'invalid-arguments') {
    return finishWithError(
      new HostError({
        code: 'INVALID_TOOL_ARGUMENTS',
        serverName: tool.serverName,
        toolName: tool.name,
        // The confirmation layer's message already says the tool was not called and what to do.
        message: decision.message,
      }),
      'FAILED',
    );
  }
  if (decision.kind === 'denied') {
    return finishWithError(
      new HostError({ code: 'TOOL_CALL_DENIED', serverName: tool.serverName, toolName: tool.name, message: decision.message }),
      'CANCELLED',
    );
  }
  if (decision.kind === 'ask' && confirmationRequest) {
    let choice: ConfirmationOptionId = 'cancel';
    if (deps.confirm && !signal?.aborted) {
      try {
        const answer = await deps.confirm(confirmationRequest, signal ? { signal } : {});
        if (CONFIRMATION_OPTIONS.some((option) => option.id === answer)) choice = answer;
      } catch {
        choice = 'cancel';
      }
    }
    if (signal?.aborted) choice = 'cancel';
    let allowed: boolean;
    try {
      allowed = await decision.resolve(choice);
    } catch (error) {
      return policyFailure(error);
    }
    if (!allowed) {
      return finishWithError(
        new HostError({
          code: signal?.aborted ? 'TOOL_CALL_CANCELLED' : 'TOOL_CALL_DENIED',
          serverName: tool.serverName,
          toolName: tool.name,
          message: signal?.aborted
            ? `The call to tool "${tool.name}" was cancelled before it ran.`
            : `The user declined to run tool "${tool.name}" of MCP server "${tool.serverName}".`,
        }),
        'CANCELLED',
      );
    }
  }
  if (signal?.aborted) {
    return finishWithError(
      new HostError({
        code: 'TOOL_CALL_CANCELLED',
        serverName: tool.serverName,
        toolName: tool.name,
        message: `The call to tool "${tool.name}" was cancelled before it ran.`,
      }),
      'CANCELLED',
    );
  }

  update({ status: 'EXECUTING' });
  let result: CallToolResult;
  try {
    result = await deps.invoke(tool, args, {
      ...(signal ? { signal } : {}),
      timeout: found.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: Math.max(deps.maxTotalTimeoutMs, found.timeoutMs),
      onprogress: (progress) => {
        const snapshot: ToolCallProgress = {
          progress: progress.progress,
          ...(progress.total !== undefined ? { total: progress.total } : {}),
          ...(progress.message !== undefined ? { message: progress.message } : {}),
        };
        update({ status: 'EXECUTING', progress: snapshot, liveContent: progressText(snapshot) });
        deps.onProgress({ toolCallId, serverName: tool.serverName, toolName: tool.name, ...snapshot });
      },
    });
  } catch (error) {
    // Errors the host raised itself around the call (step-up: AUTH_REQUIRED, STEP_UP_LIMIT...) are already typed.
    if (HostError.isInstance(error) && !signal?.aborted) {
      return finishWithError(
        new HostError({ code: error.code, serverName: tool.serverName, toolName: tool.name, message: error.message, cause: error.cause ?? error }),
        'FAILED',
      );
    }
    const code = errorCodeOf(error, signal);
    const reason = error instanceof Error ? error.message : String(error);
    const message =
      code === 'TOOL_CALL_CANCELLED'
        ? `The call to tool "${tool.name}" of MCP server "${tool.serverName}" was cancelled.`
        : code === 'TOOL_CALL_TIMEOUT'
          ? `Tool "${tool.name}" of MCP server "${tool.serverName}" did not answer within ${found.timeoutMs} ms. ${reason}`
          : `Tool "${tool.name}" of MCP server "${tool.serverName}" failed: ${reason}`;
    return finishWithError(
      new HostError({ code, serverName: tool.serverName, toolName: tool.name, message, cause: error }),
      code === 'TOOL_CALL_CANCELLED' ? 'CANCELLED' : 'FAILED',
    );
  }

  const mapped = deps.mapResult(result, tool);
  const structured = {
    ...(mapped.structuredContent ? { structuredContent: mapped.structuredContent } : {}),
    ...(mapped.structuredContentCheck ? { structuredContentCheck: mapped.structuredContentCheck } : {}),
  };
  if (mapped.isError) {
    const error = new HostError({
      code: 'TOOL_REPORTED_ERROR',
      serverName: tool.serverName,
      toolName: tool.name,
      message: `Tool "${tool.name}" of MCP server "${tool.serverName}" reported an error: ${mapped.display}`,
    });
    const toolCall = update({ status: 'FAILED', error: { message: error.message, type: error.code } });
    return { call, parts: mapped.parts, isError: true, display: mapped.display, toolCall, error, ...structured };
  }
  const toolCall = update({
    status: 'SUCCEEDED',
    output: { text: mapped.display, ...(mapped.structuredContent ? { structuredData: mapped.structuredContent } : {}) },
  });
  return { call, parts: mapped.parts, isError: false, display: mapped.display, toolCall, ...structured };
}
