import type { ConfirmationRequest } from '@toolhost/contract';
import type { Authorization } from '@toolhost/confirmation';
import type { HostError } from '../host-error.js';
import { authorizationRequest, policyError } from './authorise-tool-call.js';
import { fromLayerError, toolNotFound } from './tool-call-failure.js';
import type { ToolCallRuntime } from './tool-call-runtime.js';

/**
 * What the host would do with one tool call, decided without running it and without asking
 * anyone (`host.confirmations.check()`).
 */
export type ConfirmationCheck =
  /**
   * It would run without asking: a trusted server, the host's policy, the configured allow-list,
   * or an "always allow" approval whose pin matches.
   */
  | { readonly status: 'allowed' }
  /** The user would be asked: `request` is what they would see (its `toolCallId` is the one checked, else a new one). */
  | { readonly status: 'ask'; readonly request: ConfirmationRequest }
  /**
   * It would not run, and nobody would be asked: `TOOL_NOT_FOUND`, `INVALID_TOOL_ARGUMENTS`,
   * `DENIED_BY_POLICY`, or `CONFIRMATION_REQUIRED` (the user would have to decide, but the host can
   * ask no one: no `confirm` hook and no `deferConfirmations`). `error` is what the call would report.
   */
  | { readonly status: 'denied'; readonly error: HostError };

const EMPTY_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The stages of a tool call up to the confirmation (resolve the name → validate the arguments →
 * the confirmation policy), without a `tool-call-update` event, a pending confirmation or a call.
 * The one write it can cause is the one a call would cause too: a tool used for the first time
 * under a server-wide approval gets its definition pinned.
 */
export async function checkToolCall(
  runtime: ToolCallRuntime,
  params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly toolCallId?: string },
): Promise<ConfirmationCheck> {
  const args = params.arguments ?? EMPTY_ARGUMENTS;
  const tool = runtime.findTool(params.name);
  if (!tool) return { status: 'denied', error: toolNotFound(params.name, runtime.toolNames(), runtime.unavailableServerOf?.(params.name)) };
  const validation = runtime.validator.validate({
    serverName: tool.definition.serverName,
    toolName: tool.definition.originalName,
    inputSchema: tool.listed.inputSchema,
    arguments: args,
  });
  if (!validation.valid) return { status: 'denied', error: fromLayerError(validation.error, tool, 'INVALID_TOOL_ARGUMENTS') };
  let authorization: Authorization;
  try {
    authorization = await runtime.policy.authorize(authorizationRequest(tool, args, params.toolCallId ?? runtime.newToolCallId()));
  } catch (error) {
    return { status: 'denied', error: policyError(error, tool) };
  }
  if (authorization.status === 'allowed') return { status: 'allowed' };
  if (authorization.status === 'denied')
    return { status: 'denied', error: fromLayerError(authorization.error, tool, authorization.error.code) };
  return { status: 'ask', request: authorization.request };
}
