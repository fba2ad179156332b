// Public API of @toolhost/oauth/token-files: the token store in files (toolhost's own layout, or Gemini
// CLI's and Qwen Code's), with the DPoP key file next to it.
export { FileTokenStore, DPOP_KEY_FILE_NAME, type FileTokenStoreOptions, type TokenFileFormat } from './file-token-store.js';
