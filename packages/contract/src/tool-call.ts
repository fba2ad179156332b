import type { ConfirmationRequest } from './confirmation.js';

/**
 * Where a tool call is in its lifecycle (the development-tool extension's statuses):
 * `PENDING` (with `confirmationRequest` when the user must decide) → `EXECUTING` (with
 * `liveContent` while progress arrives) → `SUCCEEDED`, `FAILED` or `CANCELLED`;
 * `PENDING` → `CANCELLED` when the user declines; `PENDING` → `FAILED` when the call cannot run.
 */
export type ToolCallStatus = 'PENDING' | 'EXECUTING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** The final output of a successful call. */
export interface ToolCallOutput {
  /** Short user-facing summary of the result (`Here is the logo. [Image: image/png]`). */
  readonly text: string;
  /** The server's `structuredContent`, when it sent one. */
  readonly structuredData?: Readonly<Record<string, unknown>>;
}

/** Why a call failed or was cancelled. */
export interface ToolCallError {
  /** User-facing message. */
  readonly message: string;
  /** The error code (`TOOL_CALL_DENIED`, `TOOL_REPORTED_ERROR`, ...; see `ERROR_CODES`). */
  readonly type: string;
}

/** Progress reported by the server while the call runs. */
export interface ToolCallProgress {
  /** Progress so far (grows with every notification). */
  readonly progress: number;
  /** Total, when the server knows it. */
  readonly total?: number;
  /** The server's progress message, when it sent one. */
  readonly message?: string;
}

/** Where the server-side task of a long-running call is (MCP tasks), as the server last reported it. */
export type ToolCallTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * The server-side task that runs a long tool call (MCP tasks: the server answered the call with a
 * task handle and the host polls it). Present while the call is `EXECUTING` as a task, and kept on
 * the final update.
 */
export interface ToolCallTask {
  /** The server's id of the task. */
  readonly taskId: string;
  /** The task's status as last reported by the server. */
  readonly status: ToolCallTaskStatus;
  /** The server's status message, escaped (no control characters) and cut to 500 characters. */
  readonly statusMessage?: string;
}

/**
 * One tool call, sent whole on every update, so a client UI can be built on these updates
 * alone (the development-tool extension's `ToolCall`, in camelCase).
 */
export interface ToolCall {
  /** Unique id (the model's call id when it has one). */
  readonly toolCallId: string;
  /** Where the call is in its lifecycle. */
  readonly status: ToolCallStatus;
  /** The name the model used. */
  readonly toolName: string;
  /** The server that provides the tool (absent when the name is unknown). */
  readonly serverName?: string;
  /** The tool's own name on its server (absent when the name is unknown). */
  readonly serverToolName?: string;
  /** Short description of what is being called, for the UI. */
  readonly description?: string;
  /** The arguments the model produced. */
  readonly inputParameters: Readonly<Record<string, unknown>>;
  /** Live progress text while `EXECUTING`; replaced on every update. */
  readonly liveContent?: string;
  /** The latest progress while `EXECUTING`. */
  readonly progress?: ToolCallProgress;
  /** Set on `SUCCEEDED`. */
  readonly output?: ToolCallOutput;
  /** Set on `FAILED` and `CANCELLED`. */
  readonly error?: ToolCallError;
  /** Set while `PENDING` when the user must decide. */
  readonly confirmationRequest?: ConfirmationRequest;
  /** The server-side task running the call, when the server runs it as one (MCP tasks). */
  readonly task?: ToolCallTask;
}
