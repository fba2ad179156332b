// Public API of @toolhost/host.
export { McpToolHost, DEFAULT_MAX_TOTAL_CALL_TIMEOUT_MS } from './mcp-tool-host.js';
export type { HandledModelResponse, ServerInstructions } from './mcp-tool-host.js';
export type { McpToolHostOptions } from './host-options.js';
export type { HostSettings, SettingsSource, ResolvedServers, ResolvedServer } from './resolve-servers.js';
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
export type { ToolCallResult, StructuredContentReport } from './run-tool-call.js';
export { findArgumentPosition } from './complete-slash-command.js';
export type { SlashCommandArgumentPosition, SlashCommandCompletion } from './complete-slash-command.js';
/** Resources and resource templates as `McpToolHost.listResources` / `listResourceTemplates` return them. */
export type { RegisteredResource, RegisteredResourceTemplate } from '@toolhost/discovery';
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
// Client-side MCP features (sampling, elicitation, roots, logging, resources, completions).
export {
  ClientFeatureError,
  createClientFeatures,
  createSamplingHandler,
  registerSampling,
  toSamplingRequest,
  SAMPLING_REJECTED_ERROR_CODE,
  createElicitationHandler,
  registerElicitation,
  applyElicitationDefaults,
  describeElicitationForm,
  RootsController,
  toFileUri,
  LOG_LEVELS,
  registerLogging,
  setLogLevel,
  listAllResources,
  listAllResourceTemplates,
  readResourceParts,
  ResourceSubscriptions,
  parseResourceReferences,
  resolveResourceReferences,
  completeArgument,
  checkStructuredContent,
  callToolWithFeatures,
  DEFAULT_TOOL_TIMEOUT_MS,
  LenientClient,
  getToolPresentation,
} from './client-features/index.js';
export type {
  ClientFeatureErrorCode,
  ClientFeatureErrorOptions,
  AttachedClientFeatures,
  ClientFeatureHooks,
  ClientFeatures,
  ClientFeaturesOptions,
  SamplingApprovalDecision,
  SamplingApprovalHook,
  SamplingApprovalRequest,
  SamplingOptions,
  SamplingResultReviewHook,
  ElicitationHook,
  ElicitationOptions,
  ElicitationRequest,
  ElicitationResponse,
  FormElicitationRequest,
  UrlElicitationRequest,
  ElicitationField,
  ElicitationOption,
  ProjectFolder,
  RootsControllerOptions,
  LoggingOptions,
  ServerLogEvent,
  ListResourcesOptions,
  ReadResourceOptions,
  ResourceContentPart,
  ResourceSubscriptionsOptions,
  ResourceUpdatedEvent,
  ResolvedResourceReferences,
  ResolveResourceReferencesOptions,
  ResourceReference,
  CompleteArgumentOptions,
  CompletionSuggestions,
  CheckStructuredContentOptions,
  StructuredContentCheck,
  StructuredContentStatus,
  CallToolWithFeaturesOptions,
  CallToolWithFeaturesResult,
  ToolProgressEvent,
  ToolIcon,
  ToolPresentation,
} from './client-features/index.js';
