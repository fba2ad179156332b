import type { ConfirmationRequest, HostToolDefinition, ToolCallOutcome } from '@toolhost/contract';

/**
 * What {@link createLangChainTools} needs of an `McpToolHost` (from `@toolhost/host`): its tools,
 * `callTool`, the `confirmation-pending` event and `confirmations.answer`. Any `McpToolHost` is
 * one; this package does not depend on `@toolhost/host`, only on the types of
 * `@toolhost/contract`.
 */
export interface LangChainToolHost {
  /** The tools offered, in the host's vendor-neutral form: the servers' and the host's own (resource and prompt tools). */
  listToolDefinitions(): HostToolDefinition[];
  /** The tool calls waiting for the user's decision. */
  readonly confirmations: {
    /** Answer the confirmation of one waiting call with the id of one of its offered options. */
    answer(params: { readonly toolCallId: string; readonly optionId: string }): void;
  };
  /** Run one tool call: validation, confirmation, the call, result mapping. Never throws for a failed call. */
  callTool(
    params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly toolCallId?: string },
    options?: { readonly signal?: AbortSignal },
  ): Promise<LangChainToolHostResult>;
  /** Listen to `confirmation-pending`; the returned function removes the listener. */
  on(event: 'confirmation-pending', listener: (request: ConfirmationRequest) => void): () => void;
}

/** What {@link LangChainToolHost.callTool} answers: the outcome, its summary and, when it failed, why. */
export interface LangChainToolHostResult extends ToolCallOutcome {
  /** Short user-facing summary (or the error message). */
  readonly display: string;
  /** Why the call did not succeed (the host's `HostError`: `TOOL_CALL_DENIED`, `CONFIRMATION_REQUIRED`, ...). */
  readonly error?: { readonly code: string; readonly message: string };
}
