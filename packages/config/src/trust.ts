// Public API of @toolhost/config/trust: trusted folders and the project servers pinned in them
// (reading, deciding, recording, the stores, and Gemini CLI's and Qwen Code's files). A subpath,
// so that the root stays about loading and validating settings.
export {
  GEMINI_TRUSTED_FOLDERS_FILE_NAME,
  PINNED_SERVERS_FILE_NAME,
  TRUSTED_FOLDERS_FILE_NAME,
  getTrustStore,
  getTrustedFoldersFilePath,
} from './settings-paths.js';
export type { TrustStore, TrustStoreFormat } from './settings-paths.js';
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
export type { TrustedFolders, FolderPins } from './read-trusted-folders.js';
export {
  GEMINI_TRUST_LEVELS,
  findGeminiTrustDecision,
  parseGeminiTrustedFolders,
  readGeminiTrustedFolders,
  readPinnedServersFile,
} from './gemini-trusted-folders.js';
export type { GeminiTrustDecision, GeminiTrustLevel, GeminiTrustedFolders, PinnedServersFile } from './gemini-trusted-folders.js';
export { pinServer, describeLaunchChange, formatServerLaunch, readProjectServersToPin } from './pin-project-servers.js';
export type { PinnedServer, ProjectServerToPin } from './pin-project-servers.js';
