// The client side of MCP for one server connection (sampling, elicitation, roots, logging,
// resources, completions). Internal to @toolhost/host: McpToolHost wires it to every client.
export { createClientFeatures, type AttachedClientFeatures } from './create-client-features.js';
export { RootsController, type ProjectFolder } from './roots-controller.js';
export { setLogLevel, type ServerLogEvent } from './logging.js';
export { readResourceParts, type ResourceContent } from './read-resource-parts.js';
export type { ResourceSubscriptions } from './resource-subscriptions.js';
export { resolveResourceReferences, type ResolvedResourceReferences } from './resource-references.js';
export { completeArgument, type CompletionSuggestions } from './complete-argument.js';
export { DEFAULT_MAX_MESSAGE_DEPTH, type TraceContext } from './outbound-meta.js';
export {
  ServerRequestLimiter,
  RATE_LIMITED_CODE,
  DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS,
  DEFAULT_MAX_SERVER_REQUESTS_PER_SECOND,
  type ServerRequestLimits,
} from './server-request-limiter.js';
