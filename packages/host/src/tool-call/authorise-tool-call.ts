import type { Authorization } from '@toolhost/confirmation';
import { ConfirmationError } from '@toolhost/confirmation';
import { HostError } from '../host-error.js';
import type { CallableTool } from './callable-tool.js';
import { cancelled, failure, fromLayerError, type ToolCallFailure } from './tool-call-failure.js';
import type { ToolCallRuntime } from './tool-call-runtime.js';
import type { ToolCallTracker } from './tool-call-tracker.js';

/** The call may run. */
export const AUTHORISED = Object.freeze({ authorised: true as const });

/** What the authorise stage decides: run, or the failure to report. */
export type AuthoriseResult = typeof AUTHORISED | ToolCallFailure;

/**
 * Stage "authorise": the confirmation policy decides (host policy, trust, allow-lists, pinned
 * approvals) and, when the user must decide, the `confirm` hook is asked. Reports the call's one
 * `PENDING` (with the confirmation request when there is one). A confirmation waits in the
 * host's pending confirmations until the `confirm` hook or `host.confirmations.answer()` answers
 * it, whichever comes first. Synchronous when the policy answers synchronously and nobody is asked.
 */
export function authoriseToolCall(
  runtime: ToolCallRuntime,
  tracker: ToolCallTracker,
  tool: CallableTool,
  args: Readonly<Record<string, unknown>>,
  signal: AbortSignal | undefined,
): AuthoriseResult | Promise<AuthoriseResult> {
  let authorization: Authorization | Promise<Authorization>;
  try {
    authorization = runtime.policy.authorize(authorizationRequest(tool, args, tracker.toolCallId));
  } catch (error) {
    tracker.pending();
    return policyFailure(error, tool);
  }
  if (authorization instanceof Promise) {
    return authorization.then(
      (settled) => decide(runtime, tracker, tool, settled, signal),
      (error: unknown) => {
        tracker.pending();
        return policyFailure(error, tool);
      },
    );
  }
  return decide(runtime, tracker, tool, authorization, signal);
}

function decide(
  runtime: ToolCallRuntime,
  tracker: ToolCallTracker,
  tool: CallableTool,
  authorization: Authorization,
  signal: AbortSignal | undefined,
): AuthoriseResult | Promise<AuthoriseResult> {
  if (authorization.status === 'allowed') {
    tracker.pending();
    return AUTHORISED;
  }
  tracker.pending(authorization.request);
  if (authorization.status === 'denied') return failure(fromLayerError(authorization.error, tool, authorization.error.code));
  return ask(runtime, tool, authorization, signal);
}

async function ask(
  runtime: ToolCallRuntime,
  tool: CallableTool,
  authorization: Extract<Authorization, { status: 'ask' }>,
  signal: AbortSignal | undefined,
): Promise<AuthoriseResult> {
  const confirm = runtime.ui.confirm;
  if (signal?.aborted || (!confirm && !runtime.deferConfirmations)) return failure(cancelled(tool, false));
  const { name, serverName } = tool.definition;
  const { request } = authorization;
  if (runtime.confirmations.has(request.toolCallId)) {
    return failure(
      new HostError({
        code: 'DUPLICATE_TOOL_CALL_ID',
        serverName,
        toolName: name,
        message: `Tool "${name}" of MCP server "${serverName}" needs confirmation, but another call with tool call id "${request.toolCallId}" is already waiting for it; tool call ids must be unique. The tool was not called.`,
      }),
    );
  }
  const hook = confirm ? (hookSignal: AbortSignal) => confirm.call(runtime.ui, request, { signal: hookSignal }) : undefined;
  const settlement = await runtime.confirmations.wait(request, signal, hook);
  if (settlement.kind === 'aborted' || settlement.kind === 'closed' || signal?.aborted) return failure(cancelled(tool, false));
  if (settlement.kind === 'hook-failed') {
    const { error } = settlement;
    return failure(
      new HostError({
        code: 'CONFIRMATION_FAILED',
        serverName,
        toolName: name,
        cause: error,
        message: `Asking the user whether tool "${name}" of MCP server "${serverName}" may run failed (${error instanceof Error ? error.message : String(error)}); the tool was not called.`,
      }),
    );
  }
  try {
    const decision = await authorization.answer(settlement.answer);
    return decision.allowed ? AUTHORISED : failure(fromLayerError(decision.error, tool, decision.error.code));
  } catch (error) {
    return policyFailure(error, tool);
  }
}

function policyFailure(error: unknown, tool: CallableTool): ToolCallFailure {
  return failure(policyError(error, tool));
}

/** What the confirmation policy is asked about one call of `tool`. */
export function authorizationRequest(tool: CallableTool, args: Readonly<Record<string, unknown>>, toolCallId: string) {
  return {
    toolCallId,
    serverName: tool.definition.serverName,
    registeredName: tool.definition.name,
    tool: tool.listed,
    arguments: args,
    trust: tool.trust,
    serverIdentity: tool.serverIdentity,
  };
}

/** Why the policy could not decide, as a {@link HostError}: a failing policy denies; the tool is not called. */
export function policyError(error: unknown, tool: CallableTool): HostError {
  if (ConfirmationError.isInstance(error)) return fromLayerError(error, tool, error.code);
  const { name, serverName } = tool.definition;
  // Only the host's own policy function can throw anything else.
  return new HostError({
    code: 'DENIED_BY_POLICY',
    serverName,
    toolName: name,
    cause: error,
    message: `The host's policy failed while deciding whether tool "${name}" of MCP server "${serverName}" may run (${error instanceof Error ? error.message : String(error)}); the tool was not called.`,
  });
}
