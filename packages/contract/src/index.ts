// Public API of @toolhost/contract: the types every toolhost package agrees on, and the error base.
export { ERROR_CODES, isErrorCode } from './error-codes.js';
export type { ErrorCode } from './error-codes.js';
export { ToolhostError, findErrorInChain } from './toolhost-error.js';
export type { ErrorFamily, ToolhostErrorOptions } from './toolhost-error.js';
export { escapeControlText, stripTagCharacters } from './escape-control-text.js';
export type { EscapeControlTextOptions } from './escape-control-text.js';
export { jsonBoundsBreach } from './json-bounds-breach.js';
export type { JsonBounds } from './json-bounds-breach.js';
export { maskUrl } from './mask-url.js';
export { AdapterError } from './adapter-error.js';
export type { AdapterErrorCode, AdapterErrorOptions } from './adapter-error.js';
export type { ContentPart, InlineDataPart, InlineDataSource, TextPart } from './content-part.js';
export { DEFAULT_TOOL_NAME_POLICY } from './tool-name-policy.js';
export { VENDOR_LIMIT_NAMES, resolveContextWindowTokens, resolveVendorLimits } from './vendor-limits.js';
export type { VendorLimits } from './vendor-limits.js';
export { vendorLimitChecks } from './vendor-limit-checks.js';
export type { ToolDeclarationCheck, VendorLimitChecks, VendorLimitChecksOptions } from './vendor-limit-checks.js';
export type { ToolNamePolicy } from './tool-name-policy.js';
export type {
  HostToolDefinition,
  JsonSchemaObject,
  ModelAdapter,
  ModelToolCall,
  SamplingRequest,
  SamplingResponse,
  SchemaProfile,
  ToolCallContext,
  ToolCallOutcome,
  ToolIcon,
} from './model-adapter.js';
export { DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH, collectModelStream } from './model-stream.js';
export { streamedArgumentChecks, type StreamedArgumentChecks, type StreamedCallRef } from './streamed-arguments.js';
export type {
  CollectModelStreamOptions,
  ModelStreamAccumulator,
  ModelStreamEvent,
  ModelStreamOptions,
  ModelStreamReasoningDelta,
  ModelStreamTextDelta,
  ModelStreamToolCallDelta,
  ModelStreamToolCallEnd,
  ModelStreamToolCallStart,
  StreamingModelAdapter,
} from './model-stream.js';
export { CONFIRMATION_OPTIONS, ConfirmationOutcome } from './confirmation.js';
export type {
  ConfirmationAnswer,
  ConfirmationOption,
  ConfirmationReason,
  ConfirmationRequest,
  McpConfirmationDetails,
  ToolDefinitionChange,
} from './confirmation.js';
export type {
  ToolCall,
  ToolCallError,
  ToolCallOutput,
  ToolCallProgress,
  ToolCallStatus,
  ToolCallTask,
  ToolCallTaskStatus,
} from './tool-call.js';
export type {
  ElicitationField,
  ElicitationOption,
  ElicitationRequest,
  ElicitationResponse,
  FormElicitationRequest,
  SamplingApprovalDecision,
  SamplingApprovalRequest,
  SamplingResultReview,
  UiHooks,
  UrlElicitationRequest,
} from './ui-hooks.js';
