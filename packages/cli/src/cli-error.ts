const BRAND = Symbol.for('toolhost.cli');

/** Stable codes of {@link CliError}. */
export const CliErrorCode = {
  /** A command-line value is malformed (`-e` without `=`, a header without `:`, a bad `--timeout`). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The command line does not match the command (unknown option, missing argument, bad choice). */
  USAGE: 'USAGE',
} as const;

/** One of the values of {@link CliErrorCode}. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

/** An error in what was typed on the command line; settings problems are `ConfigError`s instead. */
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
