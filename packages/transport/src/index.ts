// Public API of @toolhost/transport: build and connect the MCP transport (stdio, SSE, Streamable HTTP) of a server entry.
export { createTransport } from './create-transport.js';
export { connectTransport, SSE_FALLBACK_STATUSES } from './connect-transport.js';
export type { ConnectTransportOptions, ConnectedTransport } from './connect-transport.js';
export type { TransportOptions, TransportHandle } from './transport-options.js';
export { resolveTransportKind } from './resolve-transport-kind.js';
export type { TransportKind, TransportTarget } from './resolve-transport-kind.js';
export { TransportError } from './transport-error.js';
export type { TransportErrorCode, TransportErrorOptions } from './transport-error.js';
export {
  sanitizeEnvironment,
  ALWAYS_INHERITED_ENV_VARS,
  PACKAGE_RUNNER_INHERITED_ENV_VARS,
  INHERITED_ENV_NAME_PATTERN,
  SECRET_ENV_NAME_PATTERN,
  SECRET_ENV_VALUE_PATTERN,
} from './sanitize-environment.js';
export type { SanitizeEnvironmentOptions } from './sanitize-environment.js';
export { StderrBuffer, DEFAULT_STDERR_LINES } from './stderr-buffer.js';
export { StderrStream, DEFAULT_STDERR_LINES_PER_SECOND } from './stderr-stream.js';
export type { StderrEvent, StderrStreamOptions } from './stderr-stream.js';
export { StdioTransport, DEFAULT_CLOSE_GRACE_MS } from './stdio-transport.js';
export type { ExitStatus, StdioTransportOptions } from './stdio-transport.js';
export { resolveSpawnCommand } from './resolve-spawn-command.js';
export type { ResolveSpawnCommandInput, SpawnPlan } from './resolve-spawn-command.js';
export { packageRunnerOf, PACKAGE_RUNNER_START_TIMEOUT_MS, DEFAULT_INSTALL_GRACE_MS } from './package-runner.js';
export { slowStartAdvice } from './slow-start-advice.js';
export { describeNetworkFailure } from './describe-network-failure.js';
export type { NetworkFailure } from './describe-network-failure.js';
export { describeErrorChain } from './describe-error-chain.js';
export { StreamableHttpSessionTransport, DEFAULT_SESSION_DELETE_TIMEOUT_MS } from './streamable-http-session-transport.js';
export type { StreamableHttpSessionTransportOptions } from './streamable-http-session-transport.js';
export { createHttpFetch, PER_CALL_AUTHORIZATION_HEADER, readAuthParameter } from './create-http-fetch.js';
export type { AuthChallenge, CreateHttpFetchOptions, HttpObservations, StreamEnd } from './create-http-fetch.js';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  MIN_SSE_RETRY_MS,
  MAX_SSE_RETRY_MS,
  MESSAGE_TOO_LARGE_CODE,
  findMessageTooLarge,
} from './message-limits.js';
