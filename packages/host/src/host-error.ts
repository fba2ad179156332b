import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const HOST_ERROR_CODES = [
  'CLOSED',
  'INVALID_OPTIONS',
  'UNSUPPORTED_ADAPTER',
  'SETTINGS_LOAD_FAILED',
  'SERVER_NOT_FOUND',
  'SERVER_NOT_CONNECTED',
  'CONNECT_FAILED',
  'CONNECTION_POOL_FULL',
  // Runtime changes of the servers (add, enable, disable).
  'DUPLICATE_SERVER_NAME',
  'SERVER_BLOCKED',
  'INVALID_CONFIG',
  'FILE_UNWRITABLE',
  'CAPABILITY_NOT_SUPPORTED',
  'INVALID_ROOT',
  // Tool calls (reported in the outcome, never thrown).
  'TOOL_NOT_FOUND',
  'INVALID_TOOL_ARGUMENTS',
  'CONFIRMATION_REQUIRED',
  'TOOL_CALL_DENIED',
  'DENIED_BY_POLICY',
  'INVALID_CONFIRMATION_ANSWER',
  'CONFIRMATION_FAILED',
  'CONFIRMATION_NOT_PENDING',
  'DUPLICATE_TOOL_CALL_ID',
  'STORE_FAILED',
  'CANCELLED',
  'REQUEST_TIMEOUT',
  'REQUEST_FAILED',
  'CONNECTION_CLOSED',
  'MESSAGE_TOO_LARGE',
  'TOOL_REPORTED_ERROR',
  'INVALID_CALL_OPTIONS',
  'INTERCEPTOR_FAILED',
  // Tasks (MCP tasks: long calls the server runs as tasks).
  'TASK_REQUIRED',
  'TASK_FAILED',
  'TASK_NOT_FOUND',
  // Slash commands, prompts and resources.
  'INVALID_SLASH_COMMAND',
  'COMMAND_NOT_FOUND',
  'MISSING_PROMPT_ARGUMENTS',
  'INVALID_RESPONSE',
  'RESOURCE_NOT_FOUND',
  'LIST_FAILED',
  // Skills (the Skills extension).
  'SKILL_NOT_FOUND',
  'SKILL_VERIFICATION_FAILED',
  // OAuth around a request.
  'AUTH_REQUIRED',
  'STEP_UP_FAILED',
  'STEP_UP_LIMIT',
] as const satisfies readonly ErrorCode[];

/** Codes of {@link HostError}; see `ERROR_CODES` of `@toolhost/contract` for what each means. */
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

/** Fields of a {@link HostError}. */
export interface HostErrorOptions extends ToolhostErrorOptions<HostErrorCode> {
  /** The tool name the model used, when a tool is involved. */
  readonly toolName?: string | undefined;
  /** The slash command or prompt involved, when there is one. */
  readonly commandName?: string | undefined;
  /** The resource URI involved, when there is one. */
  readonly uri?: string | undefined;
  /** Required prompt arguments that were not given (`MISSING_PROMPT_ARGUMENTS`). */
  readonly missingArguments?: readonly string[] | undefined;
}

/**
 * An error of `McpToolHost`: thrown by its methods, and carried (never thrown) by a failed tool
 * call's outcome, whose `error.code` says what happened (`TOOL_CALL_DENIED`, `REQUEST_TIMEOUT`,
 * `TOOL_REPORTED_ERROR`, ...) and whose `cause` is the lower layer's error, when there is one.
 *
 * @example
 * ```ts
 * try {
 *   await host.commands.run({ line: '/poem-writer' });
 * } catch (error) {
 *   if (HostError.isInstance(error) && error.code === 'MISSING_PROMPT_ARGUMENTS') console.log(error.missingArguments);
 *   else throw error;
 * }
 * ```
 */
export class HostError extends ToolhostError<HostErrorCode> {
  static override readonly family = 'host';
  static override readonly codes = HOST_ERROR_CODES;
  /** The tool name the model used, when a tool is involved. */
  readonly toolName: string | undefined;
  /** The slash command or prompt involved, when there is one. */
  readonly commandName: string | undefined;
  /** The resource URI involved, when there is one. */
  readonly uri: string | undefined;
  /** Required prompt arguments that were not given (`MISSING_PROMPT_ARGUMENTS`). */
  readonly missingArguments: readonly string[] | undefined;

  /** Create an error; see {@link HostErrorOptions}. */
  constructor(options: HostErrorOptions) {
    super(options);
    this.toolName = options.toolName;
    this.commandName = options.commandName;
    this.uri = options.uri;
    this.missingArguments = options.missingArguments;
  }
}
