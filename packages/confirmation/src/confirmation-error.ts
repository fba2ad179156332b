import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const CONFIRMATION_ERROR_CODES = [
  'INVALID_TOOL_ARGUMENTS',
  'CONFIRMATION_REQUIRED',
  'TOOL_CALL_DENIED',
  'DENIED_BY_POLICY',
  'INVALID_CONFIRMATION_ANSWER',
  'STORE_FAILED',
] as const satisfies readonly ErrorCode[];

/** Codes of {@link ConfirmationError}. */
export type ConfirmationErrorCode = (typeof CONFIRMATION_ERROR_CODES)[number];

/** One problem found in a tool call's arguments. */
export interface ArgumentIssue {
  /** JSON pointer of the offending value in the arguments (`''` for the arguments object). */
  readonly path: string;
  /** What is wrong (`must be string`). */
  readonly message: string;
}

/** Fields of a {@link ConfirmationError}. */
export interface ConfirmationErrorOptions extends ToolhostErrorOptions<ConfirmationErrorCode> {
  /** The tool's original name on its server. */
  readonly toolName?: string | undefined;
  /** Problems in the arguments (`INVALID_TOOL_ARGUMENTS`). */
  readonly issues?: readonly ArgumentIssue[] | undefined;
  /** The allow-list file involved (`STORE_FAILED`). */
  readonly filePath?: string | undefined;
}

/**
 * An error of `@toolhost/confirmation`: a call that may not run (and why), or a store that
 * failed. Its `message` is written so it can go back to the model (`INVALID_TOOL_ARGUMENTS`)
 * or to the user.
 *
 * @example
 * ```ts
 * if (ConfirmationError.isInstance(error) && error.code === 'INVALID_TOOL_ARGUMENTS') console.log(error.issues);
 * ```
 */
export class ConfirmationError extends ToolhostError<ConfirmationErrorCode> {
  static override readonly family = 'confirmation';
  static override readonly codes = CONFIRMATION_ERROR_CODES;
  /** The tool's original name on its server. */
  readonly toolName: string | undefined;
  /** Problems in the arguments (`INVALID_TOOL_ARGUMENTS`), else empty. */
  readonly issues: readonly ArgumentIssue[];
  /** The allow-list file involved (`STORE_FAILED`). */
  readonly filePath: string | undefined;

  /** Create an error; see {@link ConfirmationErrorOptions}. */
  constructor(options: ConfirmationErrorOptions) {
    super(options);
    this.toolName = options.toolName;
    this.issues = options.issues ?? [];
    this.filePath = options.filePath;
  }
}
