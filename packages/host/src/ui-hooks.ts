import type { ClientFeatureHooks } from './client-features/index.js';
import type { ConfirmationOptionId, ConfirmationRequest, ToolCall, ToolCallProgress } from './tool-call.js';

/** A change of one server's connection status. */
export interface ServerStatusChange {
  /** The server. */
  readonly serverName: string;
  /** The new status (`connecting`, `connected`, `disconnected`, ...). */
  readonly status: string;
  /** The status before the change, when there was one. */
  readonly previousStatus?: string;
  /** Why the server is disconnected, when it is. */
  readonly error?: string;
}

/** Progress of a running tool call. */
export interface ToolCallProgressEvent extends ToolCallProgress {
  /** The call the progress belongs to. */
  readonly toolCallId: string;
  /** The server running the tool. */
  readonly serverName: string;
  /** The registered tool name. */
  readonly toolName: string;
}

/**
 * How the host talks to the person using it. Every hook is optional: a host without `confirm`
 * is non-interactive and denies every call that needs confirmation, with an error that says
 * how to allow the tool. The sampling and elicitation hooks (`approveSampling`,
 * `reviewSamplingResult`, `elicit`) come from {@link ClientFeatureHooks}.
 */
export interface UiHooks extends ClientFeatureHooks {
  /**
   * Ask the user whether a tool may run. Resolve with the id of one of `request.options`.
   * Rejecting, or resolving with anything else, counts as `cancel`.
   */
  confirm?(request: ConfirmationRequest, options: { signal?: AbortSignal }): Promise<ConfirmationOptionId>;
  /** Open a URL in the user's browser (OAuth sign-in). The default opener is used when absent. */
  openBrowser?(url: string): void | Promise<void>;
  /** Called whenever a server's connection status changes. */
  onStatusChange?(change: ServerStatusChange): void;
  /** Called for every progress notification of a running tool call. */
  onProgress?(event: ToolCallProgressEvent): void;
  /** Called with the whole tool call on every lifecycle update (same as the `tool-call-update` event). */
  onToolCallUpdate?(toolCall: ToolCall): void;
}
