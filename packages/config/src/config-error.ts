const BRAND = Symbol.for('toolhost.config');

/** Stable codes of {@link ConfigError}; match on these, never on message text. */
export const ConfigErrorCode = {
  /** A settings file is not valid JSON with comments; `line` and `column` point at the problem. */
  FILE_MALFORMED: 'FILE_MALFORMED',
  /** A settings file exists but could not be read (a directory, no permission, an I/O error). */
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  /** A settings file could not be written (no permission, disk full, the folder cannot be created). */
  FILE_UNWRITABLE: 'FILE_UNWRITABLE',
  /** A value has the wrong JSON type, e.g. `args` is a string instead of a list of strings. */
  INVALID_TYPE: 'INVALID_TYPE',
  /** A value has the right type but is not allowed, e.g. a negative `timeout` or an unknown `type`. */
  INVALID_VALUE: 'INVALID_VALUE',
  /** A server entry has none of `command`, `url` or `httpUrl`, so there is nothing to connect to. */
  MISSING_TRANSPORT: 'MISSING_TRANSPORT',
  /** A server name is empty or one of the reserved keys `__proto__`, `constructor`, `prototype`. */
  INVALID_SERVER_NAME: 'INVALID_SERVER_NAME',
  /** No server with this name is configured (in the scope that was asked for). */
  SERVER_NOT_FOUND: 'SERVER_NOT_FOUND',
  /** The server is blocked (by `mcp.allowed`, `mcp.excluded`, or an untrusted project folder), so it cannot be enabled. */
  SERVER_BLOCKED: 'SERVER_BLOCKED',
  /** A folder to trust or untrust does not exist (or is not a folder). */
  FOLDER_NOT_FOUND: 'FOLDER_NOT_FOUND',
  /** Project scope was chosen while the project directory is the home directory. */
  PROJECT_SCOPE_IN_HOME: 'PROJECT_SCOPE_IN_HOME',
  /** Project scope was chosen but no project directory was given. */
  PROJECT_DIR_MISSING: 'PROJECT_DIR_MISSING',
} as const;

/** One of the values of {@link ConfigErrorCode}. */
export type ConfigErrorCode = (typeof ConfigErrorCode)[keyof typeof ConfigErrorCode];

/** Fields of a {@link ConfigError}. */
export interface ConfigErrorOptions {
  /** Stable code of the failure. */
  code: ConfigErrorCode;
  /** What happened and what the user can do; shown to people, never matched by code. */
  message: string;
  /** Settings file the problem is in. */
  filePath?: string;
  /** Location inside the file, e.g. `mcpServers.github.command` (empty string for the whole file). */
  jsonPath?: string;
  /** 1-based line of the problem in the file, when known. */
  line?: number;
  /** 1-based column of the problem in the file, when known. */
  column?: number;
  /** Server the problem belongs to. */
  serverName?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Base class of every error raised or reported by `@toolhost/config`.
 *
 * @example
 * if (ConfigError.isInstance(e) && e.code === 'FILE_MALFORMED') showLocation(e.filePath, e.line, e.column);
 */
export class ConfigError extends Error {
  private readonly [BRAND] = true;
  /** Stable code of the failure. */
  readonly code: ConfigErrorCode;
  /** Settings file the problem is in. */
  readonly filePath: string | undefined;
  /** Location inside the file, e.g. `mcpServers.github.command`. */
  readonly jsonPath: string | undefined;
  /** 1-based line of the problem, when known. */
  readonly line: number | undefined;
  /** 1-based column of the problem, when known. */
  readonly column: number | undefined;
  /** Server the problem belongs to. */
  readonly serverName: string | undefined;

  /** Creates an error; see {@link ConfigErrorOptions}. */
  constructor(options: ConfigErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConfigError';
    this.code = options.code;
    this.filePath = options.filePath;
    this.jsonPath = options.jsonPath;
    this.line = options.line;
    this.column = options.column;
    this.serverName = options.serverName;
  }

  /** True for a `ConfigError` from any copy of this package. */
  static isInstance(error: unknown): error is ConfigError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
