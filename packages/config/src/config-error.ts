import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const CONFIG_ERROR_CODES = [
  'FILE_MALFORMED',
  'FILE_UNREADABLE',
  'FILE_UNWRITABLE',
  'INVALID_TYPE',
  'INVALID_VALUE',
  'MISSING_TRANSPORT',
  'INVALID_SERVER_NAME',
  'SERVER_NOT_FOUND',
  'SERVER_BLOCKED',
  'FOLDER_NOT_FOUND',
  'PROJECT_SCOPE_IN_HOME',
  'PROJECT_DIR_MISSING',
] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link ConfigError} (each explained in the contract's `ERROR_CODES`); match on
 * these, never on message text:
 * - `FILE_MALFORMED`: a settings file is not valid JSON with comments; `line` and `column` point at the problem.
 * - `FILE_UNREADABLE`: a settings file exists but could not be read (a directory, no permission, an I/O error).
 * - `FILE_UNWRITABLE`: a settings file could not be written (no permission, disk full, the folder cannot be created).
 * - `INVALID_TYPE`: a value has the wrong JSON type, e.g. `args` is a string instead of a list of strings.
 * - `INVALID_VALUE`: a value has the right type but is not allowed, e.g. a negative `timeout` or an unknown `type`.
 * - `MISSING_TRANSPORT`: a server entry has none of `command`, `url` or `httpUrl`.
 * - `INVALID_SERVER_NAME`: a server name is empty or one of the reserved keys `__proto__`, `constructor`, `prototype`;
 *   `addServer` also refuses a name with characters other than letters, digits, `_`, `.`, `-`, with `__`, or ending in `_`.
 * - `SERVER_NOT_FOUND`: no server with this name is configured (in the scope that was asked for).
 * - `SERVER_BLOCKED`: the server is blocked (by `mcp.allowed`, `mcp.excluded`, or an untrusted project folder), so it cannot be enabled.
 * - `FOLDER_NOT_FOUND`: a folder to trust or untrust does not exist (or is not a folder).
 * - `PROJECT_SCOPE_IN_HOME`: project scope was chosen while the project directory is the home directory.
 * - `PROJECT_DIR_MISSING`: project scope was chosen but no project directory was given.
 */
export type ConfigErrorCode = (typeof CONFIG_ERROR_CODES)[number];

/** Fields of a {@link ConfigError}: the common `code`, `message`, `serverName`, `cause`, plus where the problem is. */
export interface ConfigErrorOptions extends ToolhostErrorOptions<ConfigErrorCode> {
  /** Settings file the problem is in. */
  readonly filePath?: string | undefined;
  /** Location inside the file, e.g. `mcpServers.github.command` (empty string for the whole file). */
  readonly jsonPath?: string | undefined;
  /** 1-based line of the problem in the file, when known. */
  readonly line?: number | undefined;
  /** 1-based column of the problem in the file, when known. */
  readonly column?: number | undefined;
}

/**
 * The error raised or reported by `@toolhost/config` (family `config`): a settings file that
 * cannot be read, parsed or written, or an entry that is not valid.
 *
 * @example
 * ```ts
 * if (ConfigError.isInstance(e) && e.code === 'FILE_MALFORMED') showLocation(e.filePath, e.line, e.column);
 * ```
 */
export class ConfigError extends ToolhostError<ConfigErrorCode> {
  /** The family of these errors: `config`. */
  static override readonly family = 'config';
  /** The codes a `ConfigError` can carry. */
  static override readonly codes = CONFIG_ERROR_CODES;
  /** Settings file the problem is in. */
  readonly filePath: string | undefined;
  /** Location inside the file, e.g. `mcpServers.github.command`. */
  readonly jsonPath: string | undefined;
  /** 1-based line of the problem, when known. */
  readonly line: number | undefined;
  /** 1-based column of the problem, when known. */
  readonly column: number | undefined;

  /** Creates an error; see {@link ConfigErrorOptions}. */
  constructor(options: ConfigErrorOptions) {
    super(options);
    this.filePath = options.filePath;
    this.jsonPath = options.jsonPath;
    this.line = options.line;
    this.column = options.column;
  }
}
