const BRAND = Symbol.for('toolhost.confirmation');

/** Stable codes of {@link ConfirmationError}; match on these, never on message text. */
export const ConfirmationErrorCode = {
  /** The arguments do not match the tool's input schema; the server was not called. */
  INVALID_ARGUMENTS: 'INVALID_ARGUMENTS',
  /** The call needs confirmation but the host cannot ask (no `confirm` hook, or non-interactive). */
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  /** The user declined (chose cancel, the dialog failed, or the request was aborted). */
  CANCELLED: 'CANCELLED',
  /** The host's policy denied the call. */
  DENIED_BY_POLICY: 'DENIED_BY_POLICY',
  /** The allow-list store could not be read or written. */
  STORE_FAILED: 'STORE_FAILED',
} as const;

/** One of the values of {@link ConfirmationErrorCode}. */
export type ConfirmationErrorCode = (typeof ConfirmationErrorCode)[keyof typeof ConfirmationErrorCode];

/** One problem found in a tool call's arguments. */
export interface ArgumentIssue {
  /** JSON pointer of the offending value in the arguments (`''` for the arguments object). */
  readonly path: string;
  /** What is wrong (`must be string`). */
  readonly message: string;
}

/** Fields of a {@link ConfirmationError}. */
export interface ConfirmationErrorOptions {
  /** Stable code of the failure. */
  code: ConfirmationErrorCode;
  /** Server of the tool. */
  serverName?: string;
  /** The tool's original name on its server. */
  toolName?: string;
  /** Problems in the arguments (`INVALID_ARGUMENTS`). */
  issues?: readonly ArgumentIssue[];
  /** The allow-list file involved (`STORE_FAILED`). */
  filePath?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Base class of every error raised or returned by `@toolhost/confirmation`. Its `message` is
 * written so it can go back to the model (`INVALID_ARGUMENTS`) or to the user.
 *
 * @example
 * if (ConfirmationError.isInstance(e) && e.code === 'INVALID_ARGUMENTS') sendToModel(e.message);
 */
export class ConfirmationError extends Error {
  private readonly [BRAND] = true;
  /** Stable code of the failure. */
  readonly code: ConfirmationErrorCode;
  /** Server of the tool. */
  readonly serverName: string | undefined;
  /** The tool's original name on its server. */
  readonly toolName: string | undefined;
  /** Problems in the arguments (`INVALID_ARGUMENTS`), else empty. */
  readonly issues: readonly ArgumentIssue[];
  /** The allow-list file involved (`STORE_FAILED`). */
  readonly filePath: string | undefined;

  /** Create an error; `message` says what happened, to which tool, and what to do. */
  constructor(message: string, options: ConfirmationErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConfirmationError';
    this.code = options.code;
    this.serverName = options.serverName;
    this.toolName = options.toolName;
    this.issues = options.issues ?? [];
    this.filePath = options.filePath;
  }

  /** True for any `ConfirmationError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is ConfirmationError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
