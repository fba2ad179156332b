import {
  CONFIRMATION_OPTIONS,
  escapeControlText,
  type ConfirmationReason,
  type ConfirmationRequest,
  type ToolDefinitionChange,
} from '@toolhost/contract';
import { formatToolDefinitionChanges } from './diff-tool-definitions.js';
import type { ToolDefinition } from './tool-definition.js';

/** One tool call to decide on. */
export interface ToolCallSubject {
  /** The call's id (carried into the {@link ConfirmationRequest}). */
  readonly toolCallId: string;
  /** The server that provides the tool. */
  readonly serverName: string;
  /** The name the model used. */
  readonly registeredName: string;
  /** The tool's definition as the server lists it now (its `name` is the original tool name). */
  readonly tool: ToolDefinition;
  /** The arguments the model produced. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The server entry's `trust: true`: no confirmation at all. */
  readonly trust?: boolean;
  /**
   * Identity of the server (URL, or command and arguments), so an approval does not carry over
   * when the configuration behind a name changes. Without it approvals are bound to the name only.
   */
  readonly serverIdentity?: string;
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

/** Why the user is asked, and what changed since an earlier approval. */
export interface ConfirmationContext {
  /** Why the user is asked. */
  readonly reason: ConfirmationReason;
  /** What changed since the previous approval. @default [] */
  readonly changes?: readonly ToolDefinitionChange[];
  /** The server identity of the previous approval (`server-changed`). */
  readonly previousServerIdentity?: string;
}

/**
 * The {@link ConfirmationRequest} for one call: what a dialog shows and the options it offers.
 * Server-controlled text (tool name, title, description, the arguments preview, the change
 * summary) shows control, BiDi and zero-width characters as visible `\uXXXX` escapes, so a dialog
 * cannot be made to show something other than what runs; `arguments` stays the exact value.
 */
export function buildConfirmationRequest(subject: ToolCallSubject, context: ConfirmationContext): ConfirmationRequest {
  const { tool } = subject;
  const changes = context.changes ?? [];
  return {
    toolCallId: subject.toolCallId,
    title: 'Confirm MCP Tool Execution',
    options: CONFIRMATION_OPTIONS,
    mcpDetails: {
      serverName: subject.serverName,
      toolName: escapeControlText(tool.name),
      registeredName: subject.registeredName,
      ...(typeof tool.title === 'string' ? { toolTitle: escapeControlText(tool.title) } : {}),
      toolDescription: escapeControlText(tool.description ?? '', { multiline: true }),
      toolParameterSchema: tool.inputSchema ?? {},
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    },
    arguments: subject.arguments,
    argumentsPreview: escapeControlText(formatArgumentsPreview(subject.arguments)),
    reason: context.reason,
    changes,
    changeSummary: escapeControlText(formatToolDefinitionChanges(changes), { multiline: true }),
    ...(context.previousServerIdentity !== undefined ? { previousServerIdentity: context.previousServerIdentity } : {}),
  };
}
