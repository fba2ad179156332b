import type { ConfirmationOutcome } from './confirmation-outcome.js';
import type { ToolDefinitionChange } from './diff-tool-definitions.js';
import type { ToolDefinition } from './tool-definition.js';

/** One tool call to decide on. */
export interface ToolCallSubject {
  /** The server that provides the tool. */
  readonly serverName: string;
  /** The name the model used (registered name); defaults to the tool's own name. */
  readonly registeredName?: string;
  /** The tool's definition as the server lists it now (its `name` is the original tool name). */
  readonly tool: ToolDefinition;
  /** The arguments the model produced. */
  readonly arguments: unknown;
  /** The server entry's `trust: true`: no confirmation at all. */
  readonly trust?: boolean;
  /**
   * Identity of the server (canonical URL, or command + args), so an approval does not carry
   * over when the configuration behind a name changes. Optional; without it approvals are
   * bound to the server name only.
   */
  readonly serverIdentity?: string;
}

/** Why the user is being asked. */
export type ConfirmationReason =
  /** No approval covers this tool. */
  | 'not-approved'
  /** The tool was approved, but its definition changed since (see `changes`). */
  | 'definition-changed'
  /** The tool or server was approved, but the server's identity changed since. */
  | 'server-changed';

/** What the user is asked before a tool runs; hand it to a dialog. */
export interface ConfirmationRequest {
  /** The server. */
  readonly serverName: string;
  /** The tool's original name on its server. */
  readonly toolName: string;
  /** The name the model used. */
  readonly registeredName: string;
  /** The arguments, exactly as the model produced them. */
  readonly arguments: unknown;
  /** The arguments as JSON, or `[Payload omitted due to length with parameters: a, b, ...]` past 500 characters. */
  readonly argumentsPreview: string;
  /** The tool's description, as the server gives it now. */
  readonly description: string;
  /** The tool's title, when it has one. */
  readonly title?: string;
  /** The tool's annotations (untrusted hints), when it has them. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** The tool's input schema. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** The choices to offer, in order. */
  readonly options: readonly ConfirmationOutcome[];
  /** The hash of the definition an approval would be pinned to. */
  readonly definitionHash: string;
  /** Why the user is asked. */
  readonly reason: ConfirmationReason;
  /** What changed since the previous approval (`definition-changed`), else empty. */
  readonly changes: readonly ToolDefinitionChange[];
  /** `changes` rendered as text for a dialog, else `''`. */
  readonly changeSummary: string;
  /** The server identity the previous approval was made for (`server-changed`). */
  readonly previousServerIdentity?: string;
}

const PREVIEW_LIMIT = 500;

/** The arguments as shown in a dialog: JSON, or the parameter names when the JSON is long. */
export function formatArgumentsPreview(args: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(args) ?? 'undefined';
  } catch {
    json = '[unserialisable arguments]';
  }
  if (json.length <= PREVIEW_LIMIT) return json;
  const names = typeof args === 'object' && args !== null ? Object.keys(args) : [];
  const shown = names.slice(0, 5).join(', ');
  return `[Payload omitted due to length with parameters: ${shown}${names.length > 5 ? ', ...' : ''}]`;
}
