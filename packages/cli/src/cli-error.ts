const BRAND = Symbol.for('toolhost.cli');

/** Stable codes of {@link CliError}. */
export const CliErrorCode = {
  /** A command-line value is malformed (`-e` without `=`, a header without `:`, a bad `--timeout`). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The command line does not match the command (unknown option, missing argument, bad choice). */
  USAGE: 'USAGE',
  /** `mcp auth <name>`: no server of that name is configured. */
  SERVER_NOT_FOUND: 'SERVER_NOT_FOUND',
  /** `mcp auth <name>`: the server is a local (stdio) server, OAuth applies to remote ones only. */
  NOT_A_REMOTE_SERVER: 'NOT_A_REMOTE_SERVER',
  /** `mcp auth <name>`: the server is blocked by `mcp.allowed` or `mcp.excluded`. */
  SERVER_BLOCKED: 'SERVER_BLOCKED',
  /** `mcp auth <name>`: the server uses Google credentials, which need no browser sign-in here. */
  NO_BROWSER_SIGN_IN: 'NO_BROWSER_SIGN_IN',
  /** `TOOLHOST_TEST_BROWSER` has a value other than `follow-redirects`. */
  INVALID_ENVIRONMENT: 'INVALID_ENVIRONMENT',
} as const;

/** One of the values of {@link CliErrorCode}. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

/**
 * An error in what was typed on the command line (or a server it names that cannot be used that
 * way); settings problems are `ConfigError`s and sign-in failures `OAuthError`s instead.
 */
export class CliError extends Error {
  private readonly [BRAND] = true;
  /** Stable code of the failure. */
  readonly code: CliErrorCode;

  /** Creates an error with a stable code and a message for people. */
  constructor(code: CliErrorCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.code = code;
  }

  /** True for a `CliError` from any copy of this package. */
  static isInstance(error: unknown): error is CliError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
