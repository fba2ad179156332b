import { escapeControlText } from '@toolhost/contract';
import { resultMedia, resultText, type BudgetResult } from './budget-result.js';
import { ResultBudgetError } from './result-budget-error.js';
import type { ResultStore } from './result-store.js';
import {
  checkBudget,
  estimateResultTokens,
  shortenEstimatedResult,
  type ShortenedResult,
  type ShortenResultOptions,
} from './shorten-result.js';
import { defaultTokenEstimator } from './token-estimator.js';

/** Options of {@link applyResultBudget}. */
export interface ApplyResultBudgetOptions extends Omit<ShortenResultOptions, 'resultId' | 'notStoredReason'> {
  /** Where the full result of an over-budget result is kept for paging; without one it is not kept. */
  readonly store?: ResultStore | undefined;
  /** The server the result came from (stored with it). */
  readonly serverName?: string | undefined;
}

/** What {@link applyResultBudget} returns: the shortened result, and the stored result's id. */
export interface BudgetedResult extends ShortenedResult {
  /** The id of the stored full result (over budget, with a store that took it). */
  readonly resultId?: string | undefined;
  /** Why the full result could not be stored (`RESULT_TOO_LARGE`, `STORE_FAILED`), when it could not. */
  readonly storeError?: ResultBudgetError | undefined;
}

/**
 * Apply a result budget the way a host does for every tool result: estimate it; within budget,
 * return it untouched; over budget, put the full result in `store` (its text as `resultText`
 * gives it, and its media) and return the shortened result whose note names the new id. A store
 * that refuses (too large, failing) does not fail the call: the note then says the full result was
 * not kept, and `storeError` says why. Errors of other kinds (a throwing estimator) propagate.
 *
 * @example
 * ```ts
 * const store = new MemoryResultStore();
 * const budgeted = await applyResultBudget(outcome, { budgetTokens: 25_000, store, toolName: 'list_issues' });
 * if (budgeted.shortened) console.log(budgeted.resultId, budgeted.omitted);
 * ```
 */
export async function applyResultBudget(result: BudgetResult, options: ApplyResultBudgetOptions): Promise<BudgetedResult> {
  checkBudget(options.budgetTokens);
  const estimator = options.estimator ?? defaultTokenEstimator;
  const original = estimateResultTokens(result, { estimator, countStructuredContent: options.countStructuredContent });
  if (original.total <= options.budgetTokens) return shortenEstimatedResult(result, { ...options, estimator }, original);
  let resultId: string | undefined;
  let storeError: ResultBudgetError | undefined;
  if (options.store !== undefined) {
    try {
      resultId = await options.store.put({
        text: resultText(result),
        media: resultMedia(result),
        ...(options.serverName !== undefined ? { serverName: options.serverName } : {}),
        ...(options.toolName !== undefined ? { toolName: options.toolName } : {}),
      });
    } catch (error) {
      storeError = ResultBudgetError.isInstance(error)
        ? error
        : new ResultBudgetError({
            code: 'STORE_FAILED',
            message: `The result store could not keep the full result: ${escapeControlText(error instanceof Error ? error.message : String(error), { maxLength: 300 })}.`,
            cause: error,
          });
    }
  }
  const shortened = shortenEstimatedResult(
    result,
    {
      ...options,
      estimator,
      ...(resultId !== undefined ? { resultId } : {}),
      ...(resultId === undefined
        ? {
            notStoredReason:
              storeError !== undefined
                ? storeError.code === 'RESULT_TOO_LARGE'
                  ? 'it is too large to keep'
                  : 'the result store failed'
                : 'no result store is set up',
          }
        : {}),
    },
    original,
  );
  return { ...shortened, ...(resultId !== undefined ? { resultId } : {}), ...(storeError !== undefined ? { storeError } : {}) };
}
