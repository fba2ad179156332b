// Client-side MCP features of @toolhost/host (re-exported from the package's public API).
export { ClientFeatureError, type ClientFeatureErrorCode, type ClientFeatureErrorOptions } from './client-feature-error.js';
export {
  createClientFeatures,
  type AttachedClientFeatures,
  type ClientFeatureHooks,
  type ClientFeatures,
  type ClientFeaturesOptions,
} from './create-client-features.js';
export {
  createSamplingHandler,
  registerSampling,
  toSamplingRequest,
  SAMPLING_REJECTED_ERROR_CODE,
  type SamplingApprovalDecision,
  type SamplingApprovalHook,
  type SamplingApprovalRequest,
  type SamplingOptions,
  type SamplingResultReviewHook,
} from './sampling.js';
export {
  createElicitationHandler,
  registerElicitation,
  type ElicitationHook,
  type ElicitationOptions,
  type ElicitationRequest,
  type ElicitationResponse,
  type FormElicitationRequest,
  type UrlElicitationRequest,
} from './elicitation.js';
export {
  applyElicitationDefaults,
  describeElicitationForm,
  type ElicitationField,
  type ElicitationOption,
} from './elicitation-form.js';
export { RootsController, type ProjectFolder, type RootsControllerOptions } from './roots-controller.js';
export { toFileUri } from './to-file-uri.js';
export { LOG_LEVELS, registerLogging, setLogLevel, type LoggingOptions, type ServerLogEvent } from './logging.js';
export { listAllResources, listAllResourceTemplates, type ListResourcesOptions } from './list-resources.js';
export { readResourceParts, type ReadResourceOptions, type ResourceContentPart } from './read-resource-parts.js';
export {
  ResourceSubscriptions,
  type ResourceSubscriptionsOptions,
  type ResourceUpdatedEvent,
} from './resource-subscriptions.js';
export {
  parseResourceReferences,
  resolveResourceReferences,
  type ResolvedResourceReferences,
  type ResolveResourceReferencesOptions,
  type ResourceReference,
} from './resource-references.js';
export { completeArgument, type CompleteArgumentOptions, type CompletionSuggestions } from './complete-argument.js';
export {
  checkStructuredContent,
  type CheckStructuredContentOptions,
  type StructuredContentCheck,
  type StructuredContentStatus,
} from './structured-content.js';
export {
  callToolWithFeatures,
  DEFAULT_TOOL_TIMEOUT_MS,
  type CallToolWithFeaturesOptions,
  type CallToolWithFeaturesResult,
  type ToolProgressEvent,
} from './call-tool-with-features.js';
export { LenientClient } from './lenient-client.js';
export { getToolPresentation, type ToolIcon, type ToolPresentation } from './tool-presentation.js';
