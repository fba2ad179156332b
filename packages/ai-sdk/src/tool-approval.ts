import type { ConfirmationOutcome } from '@toolhost/contract';
import type { ModelMessage, ToolApprovalResponse } from 'ai';

/** The "always allow" outcomes, which an approved response names in its `reason`. */
const ALWAYS_OUTCOMES: ReadonlySet<string> = new Set<ConfirmationOutcome>(['proceed_always_tool', 'proceed_always_server']);

/**
 * The AI SDK approval response for one of toolhost's confirmation outcomes. The AI SDK's answer is
 * a boolean, so the "always allow" choices travel in `reason` (which, for an approved call, stays
 * in the message history and is never sent to the model): `proceed_always_tool` or
 * `proceed_always_server`. `cancel` denies (`reason` is then what the model is told).
 * With `useChat`, send the same fields: `addToolApprovalResponse({ id, approved: true, reason: 'proceed_always_tool' })`.
 *
 * @example
 * ```ts
 * messages.push({ role: 'tool', content: [toolApprovalResponse({ approvalId, outcome: 'proceed_always_server' })] });
 * ```
 */
export function toolApprovalResponse(params: {
  /** The `approvalId` of the `tool-approval-request` part being answered. */
  readonly approvalId: string;
  /** The user's choice. */
  readonly outcome: ConfirmationOutcome;
  /** For `proceed_once` and `cancel`: the reason to record (for `cancel`, the model sees it). */
  readonly reason?: string;
}): ToolApprovalResponse {
  const { approvalId, outcome, reason } = params;
  if (outcome === 'cancel')
    return { type: 'tool-approval-response', approvalId, approved: false, ...(reason !== undefined ? { reason } : {}) };
  if (ALWAYS_OUTCOMES.has(outcome)) return { type: 'tool-approval-response', approvalId, approved: true, reason: outcome };
  return { type: 'tool-approval-response', approvalId, approved: true, ...(reason !== undefined ? { reason } : {}) };
}

/**
 * toolhost's confirmation outcome for an AI SDK approval response: `cancel` when denied;
 * `proceed_always_tool` / `proceed_always_server` when approved with that exact `reason`;
 * otherwise `proceed_once`.
 *
 * @example
 * ```ts
 * toolApprovalOutcome({ approved: true, reason: 'proceed_always_tool' }); // 'proceed_always_tool'
 * ```
 */
export function toolApprovalOutcome(response: { readonly approved: boolean; readonly reason?: string | undefined }): ConfirmationOutcome {
  if (!response.approved) return 'cancel';
  return response.reason !== undefined && ALWAYS_OUTCOMES.has(response.reason) ? (response.reason as ConfirmationOutcome) : 'proceed_once';
}

/**
 * The first approval response in `messages` for the tool call `toolCallId`: the assistant's
 * `tool-approval-request` for that call gives the approval id, a tool message's
 * `tool-approval-response` the answer.
 */
export function findToolApproval(messages: readonly ModelMessage[] | undefined, toolCallId: string): ToolApprovalResponse | undefined {
  if (!messages) return undefined;
  const approvalIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalIds.add(part.approvalId);
    }
  }
  if (approvalIds.size === 0) return undefined;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-response' && approvalIds.has(part.approvalId)) return part;
    }
  }
  return undefined;
}
