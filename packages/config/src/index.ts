// Public API of @toolhost/config.
export {
  McpServerConfigSchema,
  McpOAuthConfigSchema,
  TRANSPORT_TYPES,
  AUTH_PROVIDER_TYPES,
  DEFAULT_MCP_TIMEOUT_MS,
} from './server-config-schema.js';
export type { McpServerConfig, McpOAuthConfig, McpTransportType, AuthProviderType } from './server-config-schema.js';
