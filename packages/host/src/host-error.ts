const HOST_ERROR_BRAND = Symbol.for('toolhost.host');

/** Stable codes of {@link HostError}; match on these, never on the message. */
export type HostErrorCode =
  /** The host was used after `close()`. */
  | 'HOST_CLOSED'
  /** Options given to `McpToolHost.create` are inconsistent or incomplete. */
  | 'INVALID_OPTIONS'
  /** Loading the settings files failed. */
  | 'SETTINGS_LOAD_FAILED'
  /** No registered tool has the requested name. */
  | 'TOOL_NOT_FOUND'
  /** The model's arguments do not match the tool's input schema; the server was not called. */
  | 'INVALID_TOOL_ARGUMENTS'
  /** The user (or the non-interactive default) declined the call. */
  | 'TOOL_CALL_DENIED'
  /** The call was aborted through its signal. */
  | 'TOOL_CALL_CANCELLED'
  /** The call did not finish within the server's timeout (or the overall cap). */
  | 'TOOL_CALL_TIMEOUT'
  /** The server could not be reached or failed the request. */
  | 'TOOL_CALL_FAILED'
  /** The tool ran and reported `isError: true`. */
  | 'TOOL_REPORTED_ERROR'
  /** A slash command line could not be parsed. */
  | 'INVALID_SLASH_COMMAND'
  /** No slash command (prompt or built-in) has the requested name. */
  | 'COMMAND_NOT_FOUND'
  /** A prompt was invoked without all of its required arguments (see `missingArguments`). */
  | 'MISSING_PROMPT_ARGUMENTS'
  /** `prompts/get` failed on the server. */
  | 'PROMPT_FAILED'
  /** The server's prompt response holds no text the model can use. */
  | 'INVALID_PROMPT_RESPONSE'
  /** The named server is not configured or not connected. */
  | 'SERVER_NOT_FOUND'
  /**
   * The server needs the user to sign in (or to grant more scopes, a 403 `insufficient_scope`)
   * and the host may not start a browser flow now: run `toolhost mcp auth <server>` or the host's
   * equivalent (`McpToolHost.authenticate`).
   */
  | 'AUTH_REQUIRED'
  /** A step-up (signing in again for more scopes after a 403 `insufficient_scope`) failed; `cause` is the OAuth error. */
  | 'STEP_UP_FAILED'
  /** The server still answered 403 `insufficient_scope` after a step-up; the request is not retried again. */
  | 'STEP_UP_LIMIT';

/** Structured fields carried by a {@link HostError}. */
export interface HostErrorOptions {
  /** The stable code. */
  readonly code: HostErrorCode;
  /** What happened and what the user can do. */
  readonly message: string;
  /** The MCP server involved, when there is one. */
  readonly serverName?: string;
  /** The registered tool name involved, when there is one. */
  readonly toolName?: string;
  /** The slash command or prompt involved, when there is one. */
  readonly commandName?: string;
  /** Required prompt arguments that were not given (for `MISSING_PROMPT_ARGUMENTS`). */
  readonly missingArguments?: readonly string[];
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The one error family of `@toolhost/host`. Every error the host raises (or reports in a
 * tool-call outcome) is a `HostError` with a stable {@link HostErrorCode}.
 *
 * @example
 * ```ts
 * try { await host.runSlashCommand('/poem-writer'); }
 * catch (e) { if (HostError.isInstance(e) && e.code === 'MISSING_PROMPT_ARGUMENTS') console.log(e.missingArguments); }
 * ```
 */
export class HostError extends Error {
  /** The stable code. */
  readonly code: HostErrorCode;
  /** The MCP server involved, when there is one. */
  readonly serverName?: string;
  /** The registered tool name involved, when there is one. */
  readonly toolName?: string;
  /** The slash command or prompt involved, when there is one. */
  readonly commandName?: string;
  /** Required prompt arguments that were not given. */
  readonly missingArguments?: readonly string[];
  private readonly [HOST_ERROR_BRAND] = true;

  constructor(options: HostErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HostError';
    this.code = options.code;
    if (options.serverName !== undefined) this.serverName = options.serverName;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    if (options.commandName !== undefined) this.commandName = options.commandName;
    if (options.missingArguments !== undefined) this.missingArguments = options.missingArguments;
  }

  /** True for any `HostError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is HostError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[HOST_ERROR_BRAND] === true;
  }
}
