// Public API of @toolhost/connection: one MCP server's connection. The task wire is on
// `@toolhost/connection/tasks`.
export { ConnectionClient, DEFAULT_MAX_MESSAGE_DEPTH } from './connection-client.js';
export type { ConnectionClientSettings } from './connection-client.js';
export type { OutboundMetaSources, TraceContext } from './trace-meta.js';
export { createClientFeatures } from './create-client-features.js';
export type { AttachedClientFeatures, ClientFeatures, ClientFeaturesOptions, SchemaValidatorFactory } from './create-client-features.js';
export { ConnectionError } from './connection-error.js';
export type { ConnectionErrorCode, ConnectionErrorOptions } from './connection-error.js';
// The client features (createClientFeatures installs their handlers).
export { SAMPLING_REJECTED_ERROR_CODE } from './sampling.js';
export { readElicitationUrl } from './url-elicitation.js';
export type { UrlElicitationTarget } from './url-elicitation.js';
export { RootsController } from './roots-controller.js';
export type { ProjectFolder, RootsControllerOptions } from './roots-controller.js';
export { toFileUri } from './to-file-uri.js';
export { LOG_LEVELS, setLogLevel } from './logging.js';
export type { ServerLogEvent } from './logging.js';
export { ResourceSubscriptions } from './resource-subscriptions.js';
export type { ResourceSubscriptionsOptions, ResourceUpdatedEvent } from './resource-subscriptions.js';
export {
  ServerRequestLimiter,
  RATE_LIMITED_CODE,
  RATE_LIMITED_METHODS,
  DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS,
  DEFAULT_MAX_SERVER_REQUESTS_PER_SECOND,
} from './server-request-limiter.js';
export type { ServerRequestLimits } from './server-request-limiter.js';
export { isPlainTextToolResult, mayMirrorHeaders } from './tool-call-answer.js';
export { readSkillFile, SKILLS_EXTENSION_ID } from './skill-files.js';
export type { ReadSkillFileOptions } from './skill-files.js';
export { isConnectionClosed, isRequestTimeout, serverErrorAnswer, skillVerificationFailure, SERVER_ERROR_CODES } from './sdk-errors.js';
export type { ServerErrorAnswer, SkillVerificationFailure } from './sdk-errors.js';
// The MCP SDK's types that a caller of a ConnectionClient meets.
export type * from './sdk-types.js';
// Connecting one server.
export { connectClient } from './connect-client.js';
export type { ConnectClientOptions, OpenedConnection, TransportOptions } from './connect-client.js';
export type { ConnectionRequest, OpenConnection } from './connection-request.js';
export { versionNegotiationOptions, isModernRevision, STDIO_PROBE_TIMEOUT_MS } from './version-negotiation.js';
