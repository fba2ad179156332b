// Public API of @toolhost/config.
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
  GEMINI_TRUSTED_FOLDERS_FILE_NAME,
  PINNED_SERVERS_FILE_NAME,
  SETTINGS_FILE_NAME,
  SETTINGS_SCOPES,
  SYSTEM_DEFAULTS_FILE_NAME,
  TOOLHOST_CLI_PACKAGE,
  TRUSTED_FOLDERS_FILE_NAME,
  formatToolhostCommand,
  getAppDirFromEnv,
  getAppSettingsLocation,
  getDefaultSystemSettingsPath,
  getEnablementFilePath,
  getSettingsFilePath,
  getTrustStore,
  getTrustedFoldersFilePath,
  getWritableSettingsFilePath,
  quoteShellWord,
} from './settings-paths.js';
export type { FormatToolhostCommandOptions, TrustStore, TrustStoreFormat } from './settings-paths.js';
export { getFolderTrust } from './get-folder-trust.js';
export type { FolderTrust, FolderTrustOptions } from './get-folder-trust.js';
export { setFolderTrust, setStoredFolderTrust, trustFolder, untrustFolder } from './set-folder-trust.js';
export type {
  FolderTrustFilesChange,
  SetFolderTrustOptions,
  SetFolderTrustResult,
  SetStoredFolderTrustResult,
} from './set-folder-trust.js';
export { MemoryFolderTrustStore, changeRecordedFolderTrust, findRecordedFolderTrust } from './folder-trust-store.js';
export type {
  FolderTrustChange,
  FolderTrustDecision,
  FolderTrustRecords,
  FolderTrustStore,
  FolderTrustWriteOptions,
  PinnedServers,
} from './folder-trust-store.js';
export { FileFolderTrustStore } from './file-folder-trust-store.js';
export type { FileFolderTrustStoreOptions } from './file-folder-trust-store.js';
export { parsePinnedServers, readTrustedFolders, realFolderPath } from './read-trusted-folders.js';
export {
  GEMINI_TRUST_LEVELS,
  findGeminiTrustDecision,
  parseGeminiTrustedFolders,
  readGeminiTrustedFolders,
  readPinnedServersFile,
} from './gemini-trusted-folders.js';
export type { GeminiTrustDecision, GeminiTrustLevel, GeminiTrustedFolders, PinnedServersFile } from './gemini-trusted-folders.js';
export type { TrustedFolders, FolderPins } from './read-trusted-folders.js';
export { pinServer, describeLaunchChange, formatServerLaunch, readProjectServersToPin, canonicalJson } from './pin-project-servers.js';
export type { PinnedServer, ProjectServerToPin } from './pin-project-servers.js';
export type { AppSettingsLocationOptions, SettingsLocation, SettingsScope, WritableSettingsScope } from './settings-paths.js';
export { withFileLock } from './file-lock.js';
export type { FileLockFailure } from './file-lock.js';
export { addServer } from './add-server.js';
export type { AddServerOptions, AddServerResult } from './add-server.js';
export { removeServer } from './remove-server.js';
export type { RemoveServerOptions, RemoveServerResult } from './remove-server.js';
export { setServerEnabled } from './set-server-enabled.js';
export type { SetServerEnabledOptions, SetServerEnabledResult } from './set-server-enabled.js';
export { readServerEnablement } from './read-server-enablement.js';
export type { ServerEnablement } from './read-server-enablement.js';
export { setJsoncProperty, removeJsoncProperty } from './edit-jsonc.js';
export type { JsoncPropertyEdit } from './edit-jsonc.js';
export { writeFileAtomic, NEW_SETTINGS_FILE_MODE } from './write-file-atomic.js';
export { formatJsonPath } from './json-path.js';
export type { JsonPathSegment } from './json-path.js';
