import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const RESULT_BUDGET_ERROR_CODES = [
  'RESULT_NOT_FOUND',
  'RESULT_TOO_LARGE',
  'STORE_FAILED',
  'INVALID_OPTIONS',
  'INVALID_TOOL_ARGUMENTS',
] as const satisfies readonly ErrorCode[];

/** Codes of {@link ResultBudgetError}. */
export type ResultBudgetErrorCode = (typeof RESULT_BUDGET_ERROR_CODES)[number];

/** Fields of a {@link ResultBudgetError}. */
export interface ResultBudgetErrorOptions extends ToolhostErrorOptions<ResultBudgetErrorCode> {
  /** The stored result concerned (escaped and cut when it came from the model), when there is one. */
  readonly resultId?: string | undefined;
}

/**
 * An error of `@toolhost/result-budget`: an unknown or expired result id (`RESULT_NOT_FOUND`), a
 * result too large to store (`RESULT_TOO_LARGE`), a store that cannot read or write
 * (`STORE_FAILED`), options that cannot be used (`INVALID_OPTIONS`), or paging arguments from the
 * model that are not usable (`INVALID_TOOL_ARGUMENTS`). Messages are written so they can go back
 * to the model as the answer of a paging tool.
 *
 * @example
 * ```ts
 * if (ResultBudgetError.isInstance(error) && error.code === 'RESULT_NOT_FOUND') console.log(error.message);
 * ```
 */
export class ResultBudgetError extends ToolhostError<ResultBudgetErrorCode> {
  static override readonly family = 'result-budget';
  static override readonly codes = RESULT_BUDGET_ERROR_CODES;
  /** The stored result concerned, when there is one. */
  readonly resultId: string | undefined;

  /** Create an error; see {@link ResultBudgetErrorOptions}. */
  constructor(options: ResultBudgetErrorOptions) {
    super(options);
    this.resultId = options.resultId;
  }
}
