// Public API of @toolhost/config: loading, validating and merging mcpServers settings. Trusted
// folders are on @toolhost/config/trust, settings edits on @toolhost/config/edit, the file lock
// and atomic writes on @toolhost/config/files.
export {
  McpServerConfigSchema,
  McpOAuthConfigSchema,
  TRANSPORT_TYPES,
  AUTH_PROVIDER_TYPES,
  DEFAULT_MCP_TIMEOUT_MS,
  MCP_PROTOCOL_VERSIONS,
} from './server-config-schema.js';
export type { McpServerConfig, McpOAuthConfig, McpTransportType, AuthProviderType, McpProtocolVersion } from './server-config-schema.js';
export { ConfigError } from './config-error.js';
export type { ConfigErrorCode, ConfigErrorOptions } from './config-error.js';
export { ConfigWarningCode } from './config-warning.js';
export type { ConfigWarning } from './config-warning.js';
export { expandEnvVars } from './expand-env-vars.js';
export type { EnvironmentVariables, ExpandEnvVarsOptions } from './expand-env-vars.js';
export { DEFAULT_EXCLUDED_ENV_VARS, ENV_FILE_NAME } from './load-env-file.js';
export { SERVER_COMMAND_SERVER_NAME } from './parse-server-command.js';
export { loadSettings } from './load-settings.js';
export type { LoadSettingsOptions, LoadedSettings, LoadedServer, SettingsFileStatus } from './load-settings.js';
export { parseSettingsText } from './parse-settings-text.js';
export type { ParseSettingsTextOptions, ParsedSettingsFile, ParsedServerEntry } from './parse-settings-text.js';
export { createServerAccessPolicy, normalizeServerName } from './server-access-policy.js';
export type { ServerAccessPolicy, ServerAccessPolicyOptions, ServerBlockReason } from './server-access-policy.js';
export { getServerTransport } from './get-server-transport.js';
export { formatCommandLine } from './format-command-line.js';
export { describeLookAlikeHost } from './describe-look-alike-host.js';
export { describeInvalidHeader } from './describe-invalid-header.js';
export { describeInvalidClientMetadataUrl } from './describe-invalid-client-metadata-url.js';
export type { DescribeLookAlikeHostOptions } from './describe-look-alike-host.js';
export type { ServerTransportInfo } from './get-server-transport.js';
export {
  APP_DIR_ENV_VAR,
  DEFAULT_APP_DIR,
  ENABLEMENT_FILE_NAME,
  SETTINGS_FILE_NAME,
  SETTINGS_SCOPES,
  SYSTEM_DEFAULTS_FILE_NAME,
  TOOLHOST_CLI_PACKAGE,
  formatToolhostCommand,
  getAppDirFromEnv,
  getAppSettingsLocation,
  getDefaultSystemSettingsPath,
  getEnablementFilePath,
  getSettingsFilePath,
  getWritableSettingsFilePath,
  quoteShellWord,
} from './settings-paths.js';
export type { FormatToolhostCommandOptions } from './settings-paths.js';
export type { AppSettingsLocationOptions, SettingsLocation, SettingsScope, WritableSettingsScope } from './settings-paths.js';
export { canonicalJson } from './canonical-json.js';
export { readServerEnablement } from './read-server-enablement.js';
export type { ServerEnablement } from './read-server-enablement.js';
export { formatJsonPath } from './json-path.js';
export type { JsonPathSegment } from './json-path.js';
