/**
 * The bounds of tool search. Tool descriptions and schemas come from servers and queries come
 * from a model: both are hostile in size, so only a bounded part of each is read, and the work
 * of one search is bounded whatever the input.
 */
export const TOOL_SEARCH_LIMITS = {
  /** Results when a request gives no `limit`. */
  defaultLimit: 5,
  /** The largest `limit`; a larger one is lowered to this. */
  maxLimit: 50,
  /** Characters of a query read; the rest is ignored. */
  maxQueryChars: 1_000,
  /** Words (after phrases are joined) of a query searched for; the rest are ignored. */
  maxQueryWords: 32,
  /** Names in one `select:` list; the rest are ignored. */
  maxSelectNames: 50,
  /** Characters of a tool's name, title or server description indexed. */
  maxNameChars: 200,
  /** Characters of a tool's description indexed (enough for every real description seen). */
  maxDescriptionChars: 4_000,
  /** Characters of parameter text (names, descriptions, enum values) indexed per tool. */
  maxParameterChars: 4_000,
  /** Schema nodes visited per tool when collecting parameter text. */
  maxSchemaNodes: 200,
  /** Characters of one parameter description indexed. */
  maxParameterDescriptionChars: 300,
  /** Longer words are not words (ids, base64, hostile padding): they are skipped. */
  maxWordChars: 40,
} as const;
