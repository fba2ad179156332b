import { splitWords } from './split-words.js';
import type { ToolSearchEntry } from './tool-search-entry.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/** Words a question starts with ("which databases exist", "is CI green", "how many users"). */
const QUESTION_WORDS: ReadonlySet<string> = new Set(
  'what whats which who whom whose when where why how is are was were does do did has have can could any'.split(' '),
);

/** First words of tool names that only read (`get_issue`, `list_pages`, `search_code`). */
const READ_VERBS: ReadonlySet<string> = new Set(
  'get list read search find fetch retrieve query describe show view count explain inspect check lookup browse stat stats status'.split(
    ' ',
  ),
);

/** Whether `query` asks a question (starts with a question word or ends with `?`): it wants a tool that reads. */
export function isQuestion(query: string): boolean {
  if (query.trimEnd().endsWith('?')) return true;
  const [first] = splitWords(query.slice(0, TOOL_SEARCH_LIMITS.maxNameChars), TOOL_SEARCH_LIMITS.maxNameChars);
  return first !== undefined && QUESTION_WORDS.has(first);
}

/**
 * Whether a tool only reads: its `annotations.readOnlyHint` when the server sent one (true or
 * false), else whether its name starts (after the server's shared prefix) with a verb that reads.
 */
export function isReadOnly(tool: ToolSearchEntry, prefix: string | undefined): boolean {
  const annotations = tool.annotations;
  if (typeof annotations === 'object' && annotations !== null) {
    const hint = (annotations as { readOnlyHint?: unknown }).readOnlyHint;
    if (typeof hint === 'boolean') return hint;
  }
  const words = splitWords(tool.toolName, TOOL_SEARCH_LIMITS.maxNameChars);
  const verb = words[0] === prefix && words.length > 1 ? words[1] : words[0];
  return verb !== undefined && READ_VERBS.has(verb);
}
