// Public API of @toolhost/host.
export { McpToolHost, DEFAULT_MAX_TOTAL_CALL_TIMEOUT_MS } from './mcp-tool-host.js';
export type { HandledModelResponse, ServerInstructions } from './mcp-tool-host.js';
export type { McpToolHostOptions } from './host-options.js';
export type { HostSettings, SettingsSource } from './resolve-servers.js';
export type { HostStores } from './tool-policy.js';
export type { ResultMappingOptions } from './map-tool-result.js';
export type {
  SchemaProfile,
  JsonSchemaObject,
  HostToolDefinition,
  ModelToolCall,
  ToolResultPart,
  ToolCallOutcome,
  ModelAdapter,
  SamplingRequest,
  SamplingResponse,
} from './model-adapter.js';
export type { UiHooks, ServerStatusChange, ToolCallProgressEvent } from './ui-hooks.js';
export { CONFIRMATION_OPTIONS } from './tool-call.js';
export type {
  ToolCall,
  ToolCallStatus,
  ToolCallOutput,
  ToolCallErrorDetails,
  ToolCallProgress,
  ConfirmationRequest,
  ConfirmationOption,
  ConfirmationOptionId,
  McpConfirmationDetails,
} from './tool-call.js';
export type { ToolCallResult } from './run-tool-call.js';
export type { HostEvents, HostEventListener } from './host-events.js';
export { HostError } from './host-error.js';
export type { HostErrorCode, HostErrorOptions } from './host-error.js';
export { formatStatus } from './format-status.js';
export type { HostStatus, ServerStatusView, StatusTool, FormatStatusOptions } from './host-status.js';
export { parsePromptArguments, tokenizePositional } from './parse-prompt-arguments.js';
export type { PromptArgumentSpec, ParsedPromptArguments } from './parse-prompt-arguments.js';
export { parseSlashCommandLine } from './slash-command.js';
export type {
  SlashCommand,
  SlashCommandArgument,
  GetAllSlashCommandsResponse,
  ExecuteSlashCommandRequest,
  ExecuteSlashCommandResponse,
  CommandExecutionStatus,
  PromptCommand,
  SlashCommandResult,
  ParsedSlashCommandLine,
} from './slash-command.js';
export { createScriptedAdapter } from './create-scripted-adapter.js';
export type {
  ScriptedAdapter,
  ScriptedAdapterOptions,
  ScriptedAdapterHistory,
  ScriptedTurn,
  ScriptedToolDeclaration,
  ScriptedToolResults,
} from './create-scripted-adapter.js';
export { describeToolArguments } from './describe-tool-arguments.js';
export * from './client-features/index.js';
