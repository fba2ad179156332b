import type { ConfirmationRequest, HostToolDefinition, ToolCallOutcome } from '@toolhost/contract';

/**
 * What {@link createAiSdkTools} needs of an `McpToolHost` (from `@toolhost/host`): its tools,
 * `callTool`, `confirmations.check` and `confirmations.answer`, and the `confirmation-pending`
 * event. Any `McpToolHost` is one, whatever its adapter; this package does not depend on
 * `@toolhost/host`, only on the types of `@toolhost/contract`.
 */
export interface AiSdkToolHost {
  /** The tools offered, in the host's vendor-neutral form: the servers' and the host's own (resource and prompt tools). */
  listToolDefinitions(): HostToolDefinition[];
  /** Run one tool call: validation, confirmation, the call, result mapping. Never throws for a failed call. */
  callTool(
    params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly toolCallId?: string },
    options?: { readonly signal?: AbortSignal },
  ): Promise<AiSdkToolHostResult>;
  /** The tool calls waiting for the user's decision. */
  readonly confirmations: {
    /**
     * What the host would do with this call, decided now without running it or asking anyone:
     * `allowed` (it runs without asking), `ask` (the user would be asked) or `denied`.
     */
    check(params: {
      readonly name: string;
      readonly arguments?: Record<string, unknown>;
      readonly toolCallId?: string;
    }): Promise<{ readonly status: 'allowed' | 'ask' | 'denied' }>;
    /** Answer the confirmation of one waiting call with the id of one of its offered options. */
    answer(params: { readonly toolCallId: string; readonly optionId: string }): void;
  };
  /** Listen to `confirmation-pending`; the returned function removes the listener. */
  on(event: 'confirmation-pending', listener: (request: ConfirmationRequest) => void): () => void;
}

/** What {@link AiSdkToolHost.callTool} answers: the outcome, its summary and, when it failed, why. */
export interface AiSdkToolHostResult extends ToolCallOutcome {
  /** Short user-facing summary (or the error message). */
  readonly display: string;
  /** Why the call did not succeed (the host's `HostError`: `TOOL_CALL_DENIED`, `CONFIRMATION_REQUIRED`, `REQUEST_TIMEOUT`, ...). */
  readonly error?: { readonly code: string; readonly message: string };
}
