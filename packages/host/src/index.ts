// Public API of @toolhost/host.
export { McpToolHost } from './mcp-tool-host.js';
export type { HandledModelResponse, HostRoots } from './mcp-tool-host.js';
export type { McpToolHostOptions, HostStores, ReconnectPolicy } from './host-options.js';
export type { HostSettings, SettingsSource } from './resolve-servers.js';
export { HostError } from './host-error.js';
export type { HostErrorCode, HostErrorOptions } from './host-error.js';
export type {
  HostEvents,
  HostEventListener,
  HostWarning,
  ServerStatusChange,
  ToolCallProgressEvent,
  ServerLogEvent,
  ResourceUpdateEvent,
  LogLevel,
} from './host-events.js';
export type { ToolCallResult } from './tool-call/run-tool-call.js';
export type { ResultMappingOptions, StructuredContentReport } from './tool-call/map-tool-result.js';
// The groups of McpToolHost.
export type { HostServers, RequestOptions, ServerInstructions } from './host-servers.js';
export type { HostStatus, ServerStatusView, StatusTool, FormatStatusOptions } from './host-status.js';
export type { HostPrompts, PromptResult } from './host-prompts.js';
export type { HostCommands } from './host-commands.js';
export type { SlashCommand, SlashCommandArgument, SlashCommandResult, PromptCommand } from './slash-command.js';
export type { SlashCommandCompletion } from './complete-slash-command.js';
export type { PromptArgumentSpec } from './parse-prompt-arguments.js';
export type { CompletionSuggestions, ProjectFolder, ResolvedResourceReferences, ResourceContent } from './client-features/index.js';
export type { HostResources, HostResource, HostResourceTemplate } from './host-resources.js';
// An offline model for tests, demos and examples.
export { createScriptedAdapter } from './create-scripted-adapter.js';
export type { ScriptedAdapter, ScriptedAdapterOptions, ScriptedTurn, ScriptedToolDeclaration, ScriptedToolResults } from './create-scripted-adapter.js';
// What host users need from @toolhost/contract.
export { CONFIRMATION_OPTIONS, ConfirmationOutcome, ToolhostError } from '@toolhost/contract';
export type {
  ConfirmationAnswer,
  ConfirmationOption,
  ConfirmationRequest,
  ContentPart,
  ElicitationRequest,
  ElicitationResponse,
  HostToolDefinition,
  ModelAdapter,
  ModelToolCall,
  ToolCall,
  ToolCallStatus,
  UiHooks,
} from '@toolhost/contract';
