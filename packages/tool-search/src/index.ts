// @toolhost/tool-search: rank the tools of MCP servers for a request, deterministically and offline.
export { createToolIndex } from './create-tool-index.js';
export { DEVELOPER_VOCABULARY, type ToolVocabulary } from './developer-vocabulary.js';
export { RELATED_WEIGHT, SYNONYM_WEIGHT } from './text-analyzer.js';
export {
  DEFAULT_FIELD_WEIGHTS,
  ToolIndex,
  type ToolField,
  type ToolFieldWeights,
  type ToolIndexOptions,
  type ToolMatchExplanation,
} from './tool-index.js';
export type { RankedTool, ToolRanker, ToolRankerFactory, ToolSearchRequest, ToolSearchResult } from './tool-ranker.js';
export { ToolSearch, type ToolSearchOptions } from './tool-search.js';
export type { ToolSearchEntry, ToolSearchInput } from './tool-search-entry.js';
export { ToolSearchError, type ToolSearchErrorCode } from './tool-search-error.js';
export { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';
