import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const CLI_ERROR_CODES = [
  'USAGE',
  'SERVER_NOT_FOUND',
  'NOT_A_REMOTE_SERVER',
  'SERVER_BLOCKED',
  'NO_BROWSER_SIGN_IN',
  'INVALID_ENVIRONMENT',
] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link CliError} (each explained in the contract's `ERROR_CODES`):
 * - `USAGE`: the command line does not match the command (unknown option, missing argument, bad
 *   choice), or a value is malformed (`-e` without `=`, a header without `:`, a bad `--timeout`).
 * - `SERVER_NOT_FOUND`: `mcp auth <name>`: no server of that name is configured.
 * - `NOT_A_REMOTE_SERVER`: `mcp auth <name>`: the server is a local (stdio) server, OAuth applies to remote ones only.
 * - `SERVER_BLOCKED`: `mcp auth <name>`: the server is blocked by `mcp.allowed` or `mcp.excluded`.
 * - `NO_BROWSER_SIGN_IN`: `mcp auth <name>`: the server uses Google credentials, which need no browser sign-in here.
 * - `INVALID_ENVIRONMENT`: `TOOLHOST_TEST_BROWSER` has a value other than `follow-redirects`.
 */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** Fields of a {@link CliError}: the common `code`, `message`, `serverName`, `cause`. */
export type CliErrorOptions = ToolhostErrorOptions<CliErrorCode>;

/**
 * An error in what was typed on the command line (or a server it names that cannot be used that
 * way), family `cli`; settings problems are `ConfigError`s and sign-in failures `OAuthError`s instead.
 *
 * @example
 * ```ts
 * if (CliError.isInstance(e) && e.code === 'USAGE') printHelp();
 * ```
 */
export class CliError extends ToolhostError<CliErrorCode> {
  /** The family of these errors: `cli`. */
  static override readonly family = 'cli';
  /** The codes a `CliError` can carry. */
  static override readonly codes = CLI_ERROR_CODES;

  /** Creates an error with a stable code and a message for people; see {@link CliErrorOptions}. */
  constructor(options: CliErrorOptions) {
    super(options);
  }
}
