import type { ToolDefinitionChange } from '@toolhost/confirmation';

/**
 * The tool-call lifecycle reported to a host's UI, in the shape of Gemini CLI's
 * `development-tool` extension: the whole {@link ToolCall} is sent on every update, so a
 * client UI can be built on these events alone.
 *
 * `PENDING` (with `confirmationRequest` when the user must decide) → `EXECUTING` (with
 * `liveContent` while progress arrives) → `SUCCEEDED`, `FAILED` or `CANCELLED`;
 * `PENDING` → `CANCELLED` when the user declines; `PENDING` → `FAILED` when the arguments are invalid.
 */
export type ToolCallStatus = 'PENDING' | 'EXECUTING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** Ids of the choices offered in a {@link ConfirmationRequest}. */
export type ConfirmationOptionId = 'proceed_once' | 'proceed_always_tool' | 'proceed_always_server' | 'cancel';

/** One choice offered to the user. */
export interface ConfirmationOption {
  /** Stable id of the choice; `UiHooks.confirm` answers with one of these. */
  readonly id: ConfirmationOptionId;
  /** Human-readable label (`Allow once`). */
  readonly name: string;
  /** A longer explanation, for a tooltip. */
  readonly description?: string;
}

/** The MCP-specific details of a confirmation. */
export interface McpConfirmationDetails {
  /** The server that provides the tool. */
  readonly serverName: string;
  /** The tool's own name on its server. */
  readonly toolName: string;
  /** The name the tool is registered under for the model. */
  readonly registeredName: string;
  /** The tool's description, as the server gave it. */
  readonly toolDescription: string;
  /** The tool's input schema, as the server gave it. */
  readonly toolParameterSchema: Readonly<Record<string, unknown>>;
}

/** What the user is asked before a tool runs. */
export interface ConfirmationRequest {
  /** The tool call being confirmed. */
  readonly toolCallId: string;
  /** Dialog title (`Confirm MCP Tool Execution`). */
  readonly title: string;
  /** The arguments as JSON, shortened when long (`[Payload omitted due to length with parameters: a, b]`). */
  readonly description: string;
  /** The arguments the model produced. */
  readonly toolArgs: Readonly<Record<string, unknown>>;
  /** The choices, in display order. */
  readonly options: readonly ConfirmationOption[];
  /** Which server and tool. */
  readonly mcpDetails: McpConfirmationDetails;
  /**
   * Why the user is asked: `not-approved`, or `definition-changed` / `server-changed` when an
   * earlier "always allow" no longer covers the tool because the server changed it.
   */
  readonly reason: string;
  /** What changed in the tool's definition since it was approved (empty unless `definition-changed`). */
  readonly changes: readonly ToolDefinitionChange[];
  /** `changes` as text for the dialog (`''` when nothing changed). */
  readonly changeSummary: string;
}

/** The final output of a successful call. */
export interface ToolCallOutput {
  /** Short user-facing summary of the result (`Here is the logo. [Image: image/png]`). */
  readonly text: string;
  /** The server's `structuredContent`, when it sent one. */
  readonly structuredData?: Readonly<Record<string, unknown>>;
}

/** Why a call failed or was cancelled. */
export interface ToolCallErrorDetails {
  /** User-facing message. */
  readonly message: string;
  /** The `HostErrorCode` of the failure (`TOOL_CALL_DENIED`, `TOOL_REPORTED_ERROR`, ...). */
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

/** One tool call, sent whole on every `tool-call-update`. */
export interface ToolCall {
  /** Unique id assigned by the host (the model's call id when it has one). */
  readonly toolCallId: string;
  /** Where the call is in its lifecycle. */
  readonly status: ToolCallStatus;
  /** The registered name the model used. */
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
  /** The latest progress notification while `EXECUTING`. */
  readonly progress?: ToolCallProgress;
  /** Set on `SUCCEEDED`. */
  readonly output?: ToolCallOutput;
  /** Set on `FAILED` and `CANCELLED`. */
  readonly error?: ToolCallErrorDetails;
  /** Set while `PENDING` when the user must decide. */
  readonly confirmationRequest?: ConfirmationRequest;
}

/** The options offered for an MCP tool, in the seeds' order. */
export const CONFIRMATION_OPTIONS: readonly ConfirmationOption[] = [
  { id: 'proceed_once', name: 'Allow once', description: 'Run this call only.' },
  { id: 'proceed_always_tool', name: 'Always allow this tool', description: 'Add the tool to the allow-list.' },
  {
    id: 'proceed_always_server',
    name: 'Always allow this server',
    description: 'Add every tool of this server to the allow-list.',
  },
  { id: 'cancel', name: 'Cancel', description: 'Do not run the tool.' },
];
