/** Stable codes of {@link ConfigWarning}. */
export const ConfigWarningCode = {
  /** A field that toolhost does not know; it is kept but has no effect. */
  UNKNOWN_FIELD: 'UNKNOWN_FIELD',
  /** A `__proto__`, `constructor` or `prototype` key, which is always ignored. */
  IGNORED_KEY: 'IGNORED_KEY',
  /** The same key appears twice in one object; the last one wins. */
  DUPLICATE_KEY: 'DUPLICATE_KEY',
  /** A `$VAR` with no value and no default; it was replaced by an empty string. */
  UNSET_ENV_VAR: 'UNSET_ENV_VAR',
  /** More than one of `command`, `url`, `httpUrl` is set; the message says which one is used. */
  CONFLICTING_TRANSPORT: 'CONFLICTING_TRANSPORT',
  /** A Gemini CLI v1 key (`allowMCPServers`, `excludeMCPServers`) was read in place of its `mcp.*` name. */
  DEPRECATED_KEY: 'DEPRECATED_KEY',
  /** Two servers have names that differ only in letter case, so allow/exclude lists cannot tell them apart. */
  SERVER_NAME_CASE_COLLISION: 'SERVER_NAME_CASE_COLLISION',
  /** The `.env` file that was found could not be read; its variables are not used. */
  ENV_FILE_UNREADABLE: 'ENV_FILE_UNREADABLE',
  /** `mcp.serverCommand` defines the server `mcp`, which replaces an `mcpServers` entry of the same name. */
  SERVER_COMMAND_REPLACES_ENTRY: 'SERVER_COMMAND_REPLACES_ENTRY',
  /** An entry of the trusted-folders file that is not `"<absolute folder>": { "trusted": true | false }`; it is ignored. */
  INVALID_TRUST_ENTRY: 'INVALID_TRUST_ENTRY',
  /**
   * A project folder trusted only by Gemini CLI or Qwen Code (in their `trustedFolders.json`): its
   * servers run, as in those programs, but toolhost has not recorded them, so a changed entry is
   * not noticed until `toolhost --app-dir <dir> trust` pins them.
   */
  TRUST_NOT_PINNED: 'TRUST_NOT_PINNED',
} as const;

/** One of the values of {@link ConfigWarningCode}. */
export type ConfigWarningCode = (typeof ConfigWarningCode)[keyof typeof ConfigWarningCode];

/** Something in a settings file that is probably a mistake but does not stop anything from loading. */
export interface ConfigWarning {
  /** Stable code of the warning. */
  readonly code: ConfigWarningCode;
  /** What was found and what to do about it. */
  readonly message: string;
  /** Settings file it was found in. */
  readonly filePath: string;
  /** Location inside the file, e.g. `mcpServers.github.comand`. */
  readonly jsonPath: string;
  /** Server it belongs to, if any. */
  readonly serverName?: string;
}
