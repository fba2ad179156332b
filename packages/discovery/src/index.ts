// Public API of @toolhost/discovery.
export { McpServerStatus, DiscoveryState } from './server-status.js';
export { DiscoveryError } from './discovery-error.js';
export type { DiscoveryErrorCode, DiscoveryErrorOptions } from './discovery-error.js';
export { McpServerManager, DEFAULT_CLIENT_INFO } from './mcp-server-manager.js';
export type {
  McpServerManagerOptions,
  McpServerManagerEvents,
  ServerDefinition,
  ServerSnapshot,
  ServerErrorInfo,
  RegisteredTool,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredSkill,
  RequestOptions,
  ServerSetChange,
} from './manager-types.js';
export type { ReadonlyRegistry, RegistryDiff } from './registry.js';
export { promptCommandName, qualifiedToolName, resourceKey } from './build-registry-entries.js';
export type { CallOptions } from './server-session.js';
export type { ReconnectOptions } from './reconnect-delay.js';
// What one connection needs, from @toolhost/connection (exported here as before it moved there).
export { connectClient, versionNegotiationOptions, isModernRevision, STDIO_PROBE_TIMEOUT_MS } from '@toolhost/connection';
export type { TransportOptions, ConnectClientOptions, OpenedConnection, ConnectionRequest, OpenConnection } from '@toolhost/connection';
export type { StderrEvent } from '@toolhost/transport';
export { probeServer, probeTimeoutMs, DEFAULT_PROBE_TIMEOUT_MS } from './probe-server.js';
export type { ExcludedTool } from './discover-server.js';
export { MAX_SKILLS_PER_SERVER, MAX_SKILL_FRONTMATTER_BYTES, declaresSkills } from './skill-listing.js';
export type { ExcludedSkill } from './skill-listing.js';
export type { ProbeServerOptions, ProbeResult } from './probe-server.js';
export { isToolEnabled } from './is-tool-enabled.js';
export type { ToolFilter } from './is-tool-enabled.js';
export { listAllPages, DEFAULT_MAX_PAGES } from './list-all-pages.js';
export type { ListAllPagesOptions, ListPage } from './list-all-pages.js';
export type { Listener } from './typed-emitter.js';
export { DEFAULT_MAX_DEFINITION_DEPTH, DEFAULT_MAX_DEFINITION_LENGTH } from './judge-list-items.js';
export { RESERVED_HEADER_NAMES } from './header-declarations.js';
