// Public API of @toolhost/result-budget: token estimates, shortening, stores and paging for the
// results of MCP tools. Runs anywhere JavaScript runs; the file store is in ./node.
export { ResultBudgetError } from './result-budget-error.js';
export type { ResultBudgetErrorCode, ResultBudgetErrorOptions } from './result-budget-error.js';

export { estimateTextTokens } from './estimate-text-tokens.js';
export { createTokenEstimator, defaultTokenEstimator } from './token-estimator.js';
export type { TokenEstimator, TokenEstimatorOptions } from './token-estimator.js';
export { AUDIO_TOKENS_PER_SECOND, estimateAudioTokens, estimateImageTokens } from './media-tokens.js';
export type { AnthropicImageProfile, ImageTokenOptions, TokenVendor } from './media-tokens.js';
export { readImageSize } from './read-image-size.js';
export type { ImageSize } from './read-image-size.js';
export { readAudioDuration } from './read-audio-duration.js';
export type { AudioDuration } from './read-audio-duration.js';

export { resultText } from './budget-result.js';
export type { BudgetResult } from './budget-result.js';
export {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_PAGE_LENGTH,
  MIN_RESULT_BUDGET_TOKENS,
  READ_TOOL_RESULT_TOOL_NAME,
  estimateResultTokens,
  shortenResult,
} from './shorten-result.js';
export type { ResultOmissions, ResultTokens, ShortenResultOptions, ShortenedResult } from './shorten-result.js';
export { applyResultBudget } from './apply-result-budget.js';
export type { ApplyResultBudgetOptions, BudgetedResult } from './apply-result-budget.js';

export {
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_ENTRY_BYTES,
  DEFAULT_MAX_TOTAL_BYTES,
  DEFAULT_RESULT_TTL_MS,
  createResultId,
  isResultId,
  storedResultSize,
} from './result-store.js';
export type { ResultStore, ResultStoreLimits, StoredResult, StoredResultInput } from './result-store.js';
export { MemoryResultStore } from './memory-result-store.js';
export type { MemoryResultStoreOptions } from './memory-result-store.js';
export {
  MAX_PAGE_LENGTH,
  READ_TOOL_RESULT_DESCRIPTION,
  READ_TOOL_RESULT_INPUT_SCHEMA,
  describePage,
  readStoredResult,
} from './read-stored-result.js';
export type { ReadStoredResultOptions, ReadStoredResultRequest, StoredResultPage } from './read-stored-result.js';

export {
  ANTHROPIC_MAX_RESULT_SIZE_CHARS_KEY,
  DEFAULT_RESULT_BUDGET_CEILING_TOKENS,
  DEFAULT_RESULT_BUDGET_TOKENS,
  DEFAULT_RESULT_WARNING_TOKENS,
  MAX_RESULT_TOKENS_META_KEY,
  resolveResultBudget,
  resultBudgetForContextWindow,
} from './resolve-result-budget.js';
export type { ResolveResultBudgetOptions, ResolvedResultBudget, ResultBudgetSource } from './resolve-result-budget.js';
