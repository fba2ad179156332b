// Public API of @toolhost/confirmation (runtime-neutral; the JSON file store is on `@toolhost/confirmation/node`).
export { ConfirmationPolicy } from './confirmation-policy.js';
export type { AllowReason, AnswerDecision, Authorization, ConfirmationPolicyOptions, HostPolicy } from './confirmation-policy.js';
export { buildConfirmationRequest, formatArgumentsPreview } from './confirmation-request.js';
export type { ConfirmationContext, ToolCallSubject } from './confirmation-request.js';
export { resolveConfirmationAnswer } from './confirmation-answer.js';
export { isConfirmationOutcome } from './confirmation-outcome.js';
export { ConfirmationError } from './confirmation-error.js';
export type { ArgumentIssue, ConfirmationErrorCode, ConfirmationErrorOptions } from './confirmation-error.js';
export { emptyAllowList, fromAllowListDocument, toAllowListDocument } from './allow-list.js';
export type { AllowList, AllowListDocument, PinnedDefinition, ServerApproval, ToolApproval } from './allow-list.js';
export { InMemoryAllowListStore } from './allow-list-store.js';
export type { AllowListStore } from './allow-list-store.js';
export { hashToolDefinition } from './tool-definition.js';
export type { ToolDefinition } from './tool-definition.js';
export { diffToolDefinitions, formatToolDefinitionChanges } from './diff-tool-definitions.js';
export { ToolArgumentValidator, validateToolArguments } from './validate-tool-arguments.js';
export type { ArgumentValidationResult, ValidateToolArgumentsOptions } from './validate-tool-arguments.js';
export { createLinearTimeAjv, linearTimeRegExp, LinearTimeJsonSchemaValidator } from './linear-time-regexp.js';
export type { LinearTimeAjvDialect, LinearTimePattern, LinearTimeValidationResult } from './linear-time-regexp.js';
// The shared shapes from @toolhost/contract, for users of this package on its own.
export { CONFIRMATION_OPTIONS, ConfirmationOutcome } from '@toolhost/contract';
export type { ConfirmationAnswer, ConfirmationOption, ConfirmationRequest, ToolDefinitionChange } from '@toolhost/contract';
