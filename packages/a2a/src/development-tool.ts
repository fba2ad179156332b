// The development-tool extension of the A2A protocol (Gemini CLI's RFC), as JSON on the wire.
import type { ToolCall } from '@toolhost/contract';
import type { SlashCommand } from '@toolhost/host';

/**
 * The URI of the development-tool extension, as Gemini CLI's RFC writes it in the agent card.
 * It embeds the extension's version (`v0`); a client extracts it and decides compatibility by
 * Semantic Versioning 2.0.0 rules. Every custom object in a `metadata` field is keyed by it.
 */
export const DEVELOPMENT_TOOL_EXTENSION_URI = 'https://github.com/google-gemini/gemini-cli/blob/main/docs/a2a/developer-profile/v0/spec.md';

/**
 * What a `TaskStatusUpdateEvent` carries (`DevelopmentToolEvent.kind` of the RFC):
 * - `STATE_CHANGE`: the task's state changed (`working`, `input-required`, `completed`, `failed`, `canceled`).
 * - `TOOL_CALL_UPDATE`: a DataPart with the whole {@link WireToolCall}, on every lifecycle step.
 * - `TOOL_CALL_CONFIRMATION`: the same, for the `PENDING` update that carries a `confirmation_request`.
 * - `TEXT_CONTENT`: a TextPart with the model's text.
 * - `THOUGHT`: a DataPart with an {@link AgentThought}.
 */
export const DevelopmentToolEventKind = {
  /** The task's state changed. */
  StateChange: 'STATE_CHANGE',
  /** A tool call's lifecycle update (the whole ToolCall in a DataPart). */
  ToolCallUpdate: 'TOOL_CALL_UPDATE',
  /** A tool call waits for the user's permission (its ToolCall, `PENDING`, with `confirmation_request`). */
  ToolCallConfirmation: 'TOOL_CALL_CONFIRMATION',
  /** The model's text (a TextPart). */
  TextContent: 'TEXT_CONTENT',
  /** A thought of the model (a DataPart with `subject` and `description`). */
  Thought: 'THOUGHT',
} as const;

/** One of the values of {@link DevelopmentToolEventKind}. */
export type DevelopmentToolEventKind = (typeof DevelopmentToolEventKind)[keyof typeof DevelopmentToolEventKind];

/**
 * The RFC's `DevelopmentToolEvent`, found at `event.metadata[DEVELOPMENT_TOOL_EXTENSION_URI]`
 * of every `TaskStatusUpdateEvent` (its `kind` is repeated as `event.metadata.kind`).
 */
export interface DevelopmentToolEvent {
  /** What the event carries. */
  readonly kind: DevelopmentToolEventKind;
  /** The model in use, when the agent knows it. */
  readonly model?: string;
  /** An unexpected error of the agent, on the `failed` state change. */
  readonly error?: string;
}

/** The RFC's `AgentThought`: a thought of the model, sent as a DataPart with kind `THOUGHT`. */
export interface AgentThought {
  /** A short subject line. */
  readonly subject: string;
  /** The thought itself. */
  readonly description: string;
}

/** The RFC's `AgentSettings`, in the first message's `metadata[DEVELOPMENT_TOOL_EXTENSION_URI]`. */
export interface AgentSettings {
  /** Absolute path of the workspace folder; it becomes the host's MCP roots. */
  readonly workspace_path: string;
}

/** The RFC's `ToolCallConfirmation`: a DataPart the client sends to answer a confirmation. */
export interface ToolCallConfirmation {
  /** The id of the tool call that waits (`tool_call_id` of its {@link WireToolCall}). */
  readonly tool_call_id: string;
  /** The `id` of the chosen option (`proceed_once`, `proceed_always_tool`, `proceed_always_server`, `cancel`). */
  readonly selected_option_id: string;
}

/** A `ConfirmationOption` of the RFC. */
export interface WireConfirmationOption {
  /** Unique id of the choice (`proceed_once`, `cancel`, ...). */
  readonly id: string;
  /** Human-readable choice (`Allow once`). */
  readonly name: string;
  /** A longer explanation, for a tooltip. */
  readonly description?: string;
}

/** The RFC's `ConfirmationRequest`, with `mcp_details` (toolhost only confirms MCP tools). */
export interface WireConfirmationRequest {
  /** The choices, in display order. */
  readonly options: readonly WireConfirmationOption[];
  /** Which MCP server and tool. */
  readonly mcp_details: {
    /** The MCP server that provides the tool. */
    readonly server_name: string;
    /** The tool's own name on that server. */
    readonly tool_name: string;
  };
}

/** The RFC's `ToolCall` in snake_case, sent whole in a DataPart on every update of a tool call. */
export interface WireToolCall {
  /** Unique id, assigned by the agent; a {@link ToolCallConfirmation} names it. */
  readonly tool_call_id: string;
  /** `PENDING`, `EXECUTING`, `SUCCEEDED`, `FAILED` or `CANCELLED`. */
  readonly status: ToolCall['status'];
  /** The tool name the model used. */
  readonly tool_name: string;
  /** What is being called, for the user (`server › tool`). */
  readonly description?: string;
  /** The arguments the model produced. */
  readonly input_parameters: Readonly<Record<string, unknown>>;
  /** Live progress text while `EXECUTING`; replaced on every update. */
  readonly live_content?: string;
  /**
   * Set on `SUCCEEDED`: `text` (a short summary of the result, `[Image: image/png]` for each image)
   * and `structured_data` (the server's structured content) when there is one. The images and
   * audio of the result travel as FileParts of the same message.
   */
  readonly output?: { readonly text: string; readonly structured_data?: Readonly<Record<string, unknown>> };
  /** Set on `FAILED` and `CANCELLED`: the message and the toolhost error code as `type`. */
  readonly error?: { readonly message: string; readonly type?: string };
  /** Set while `PENDING` when the user must decide. */
  readonly confirmation_request?: WireConfirmationRequest;
}

/** The host's {@link ToolCall} (camelCase) as the RFC's {@link WireToolCall} (snake_case). */
export function toWireToolCall(toolCall: ToolCall): WireToolCall {
  const request = toolCall.confirmationRequest;
  return {
    tool_call_id: toolCall.toolCallId,
    status: toolCall.status,
    tool_name: toolCall.toolName,
    ...(toolCall.description !== undefined ? { description: toolCall.description } : {}),
    input_parameters: toolCall.inputParameters,
    ...(toolCall.liveContent !== undefined ? { live_content: toolCall.liveContent } : {}),
    ...(toolCall.output
      ? {
          output: {
            text: toolCall.output.text,
            ...(toolCall.output.structuredData ? { structured_data: toolCall.output.structuredData } : {}),
          },
        }
      : {}),
    ...(toolCall.error ? { error: { message: toolCall.error.message, type: toolCall.error.type } } : {}),
    ...(request
      ? {
          confirmation_request: {
            options: request.options.map((option) => ({
              id: option.id,
              name: option.name,
              ...(option.description !== undefined ? { description: option.description } : {}),
            })),
            mcp_details: { server_name: request.mcpDetails.serverName, tool_name: request.mcpDetails.toolName },
          },
        }
      : {}),
  };
}

/** A `SlashCommand` of the RFC's `commands/get`. */
export interface WireSlashCommand {
  /** The command name without the slash (`mcp`, `poem-writer`). */
  readonly name: string;
  /** What the command does. */
  readonly description: string;
  /** The arguments it accepts. */
  readonly arguments: ReadonlyArray<{
    /** The argument's name. */
    readonly name: string;
    /** What it is for. */
    readonly description: string;
    /** Whether the command needs it. */
    readonly is_required: boolean;
  }>;
  /** Nested commands (`/mcp desc`). */
  readonly sub_commands: readonly WireSlashCommand[];
}

/** A slash command of `host.commands.list()` as the RFC's {@link WireSlashCommand}. */
export function toWireSlashCommand(command: SlashCommand): WireSlashCommand {
  return {
    name: command.name,
    description: command.description,
    arguments: command.arguments.map((argument) => ({
      name: argument.name,
      description: argument.description,
      is_required: argument.isRequired,
    })),
    sub_commands: command.subCommands.map(toWireSlashCommand),
  };
}

/** The RFC's `ExecuteSlashCommandResponse` (the answer of `command/execute`). */
export interface ExecuteSlashCommandResponse {
  /** The id of the A2A task that runs the command: follow it with `tasks/resubscribe` or `tasks/get`. */
  readonly execution_id: string;
  /** `STARTED`, or `FAILED_TO_START` (unknown command; `message` says why). */
  readonly status: 'STARTED' | 'FAILED_TO_START' | 'AWAITING_SHELL_CONFIRMATION' | 'AWAITING_ACTION_CONFIRMATION';
  /** Why the command did not start, or what it started. */
  readonly message: string;
}
