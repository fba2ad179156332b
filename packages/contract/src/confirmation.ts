/**
 * What the user chose when asked whether a tool may run, with the effect of each:
 * - `ProceedOnce`: run this call; nothing is remembered.
 * - `ProceedAlwaysTool`: run, and always allow this tool while its definition stays the same.
 * - `ProceedAlwaysServer`: run, and always allow every tool of this server (each tool's
 *   definition is pinned when it is first used under this approval).
 * - `Cancel`: do not run; nothing is remembered.
 */
export const ConfirmationOutcome = {
  /** Run this call only. */
  ProceedOnce: 'proceed_once',
  /** Run and always allow this tool (while its definition stays the same). */
  ProceedAlwaysTool: 'proceed_always_tool',
  /** Run and always allow every tool of this server (while each tool's definition stays the same). */
  ProceedAlwaysServer: 'proceed_always_server',
  /** Do not run the tool. */
  Cancel: 'cancel',
} as const;

/** One of the values of {@link ConfirmationOutcome}: the id of a {@link ConfirmationOption}. */
export type ConfirmationOutcome = (typeof ConfirmationOutcome)[keyof typeof ConfirmationOutcome];

/** One choice offered to the user. */
export interface ConfirmationOption {
  /** The outcome this choice stands for; `UiHooks.confirm` may answer with it or with the whole option. */
  readonly id: ConfirmationOutcome;
  /** Human-readable label (`Allow once`). */
  readonly name: string;
  /** A longer explanation, for a tooltip. */
  readonly description?: string;
}

/** The choices offered for an MCP tool, in the order of the seeds' dialog. */
export const CONFIRMATION_OPTIONS: readonly ConfirmationOption[] = Object.freeze([
  Object.freeze({ id: 'proceed_once', name: 'Allow once', description: 'Run this call only.' }),
  Object.freeze({
    id: 'proceed_always_tool',
    name: 'Always allow this tool',
    description: 'Run it now and whenever it is called again with the same definition.',
  }),
  Object.freeze({
    id: 'proceed_always_server',
    name: 'Always allow this server',
    description: 'Run every tool of this server without asking.',
  }),
  Object.freeze({ id: 'cancel', name: 'Cancel', description: 'Do not run the tool.' }),
] as const);

/**
 * What a `confirm` hook answers: the id of one of the offered options (`'proceed_once'`), or the
 * option object itself (`request.options[0]`). Anything else fails the call with
 * `INVALID_CONFIRMATION_ANSWER`; it is never taken as "no".
 */
export type ConfirmationAnswer = ConfirmationOutcome | ConfirmationOption;

/** Why the user is being asked. */
export type ConfirmationReason =
  /** No approval covers this tool. */
  | 'not-approved'
  /** The tool was approved, but its definition changed since (see `changes`). */
  | 'definition-changed'
  /** The tool or server was approved, but the server's identity (command, URL) changed since. */
  | 'server-changed';

/** One field of a tool definition that changed since it was approved. */
export interface ToolDefinitionChange {
  /** The top-level field (`description`, `inputSchema`, `outputSchema`, `annotations`, `title`, ...). */
  readonly field: string;
  /** Whether the field appeared, disappeared or changed. */
  readonly kind: 'added' | 'removed' | 'changed';
  /** The old value: the text itself for strings, canonical JSON otherwise (shortened when long). */
  readonly before?: string;
  /** The new value, in the same form. */
  readonly after?: string;
  /** Finer changes, one sentence each (`added property 'force'`, `readOnlyHint: true → false`). */
  readonly details: readonly string[];
}

/** Which MCP server and tool a confirmation is about. */
export interface McpConfirmationDetails {
  /** The server that provides the tool. */
  readonly serverName: string;
  /** The tool's own name on its server. */
  readonly toolName: string;
  /** The name the model used. */
  readonly registeredName: string;
  /** The tool's display title, when it has one. */
  readonly toolTitle?: string;
  /** The tool's description, as the server gives it now. */
  readonly toolDescription: string;
  /** The tool's input schema. */
  readonly toolParameterSchema: Readonly<Record<string, unknown>>;
  /** The tool's annotations (untrusted hints, never used to skip confirmation), when it has them. */
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/**
 * What the user is asked before a tool runs: hand it to a dialog, answer with one of `options`.
 * The same object travels in `ToolCall.confirmationRequest` (development-tool extension).
 */
export interface ConfirmationRequest {
  /** The tool call being confirmed. */
  readonly toolCallId: string;
  /** Dialog title (`Confirm MCP Tool Execution`). */
  readonly title: string;
  /** The choices, in display order. */
  readonly options: readonly ConfirmationOption[];
  /** Which server and tool. */
  readonly mcpDetails: McpConfirmationDetails;
  /** The arguments the model produced. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The arguments as JSON, or `[Payload omitted due to length with parameters: a, b]` when long. */
  readonly argumentsPreview: string;
  /** Why the user is asked. */
  readonly reason: ConfirmationReason;
  /** What changed since the previous approval (`definition-changed`), else empty. */
  readonly changes: readonly ToolDefinitionChange[];
  /** `changes` as text for the dialog, else `''`. */
  readonly changeSummary: string;
  /** The server identity the previous approval was made for (`server-changed`). */
  readonly previousServerIdentity?: string;
}
