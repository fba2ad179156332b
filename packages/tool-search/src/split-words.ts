import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

// Runs of letters and digits; everything else (space, `_`, `-`, `.`, `/`, punctuation) separates.
const RUN = /[\p{L}\p{M}\p{N}]+/gu;
// Inside a run: an acronym's plural (`URLs`, `PRs`, `getIDsFor` → get, IDs, For), an acronym before a
// capitalised word (`HTTPServer` → HTTP, Server), a capitalised or lower-case word (`getFileContents`
// → get, File, Contents), an acronym, digits, then any other letters (scripts without case) with
// their marks.
const PART = /\p{Lu}{2,}s(?!\p{Ll})|\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+[\p{M}]*|\p{N}+|[\p{L}\p{M}]+/gu;

/**
 * The words of a text or an identifier, lower case, in order: `update_pull_request_branch`,
 * `updatePullRequestBranch` and `update-pull-request-branch` all give `update pull request branch`.
 * Reads at most `maxChars` characters; words longer than `maxWordChars` (ids, base64, padding)
 * are dropped, so the cost stays linear in the bounded input.
 */
export function splitWords(text: string, maxChars: number): string[] {
  const bounded = (text.length > maxChars ? text.slice(0, maxChars) : text).normalize('NFKC');
  const words: string[] = [];
  for (const run of bounded.match(RUN) ?? []) {
    for (const part of run.match(PART) ?? []) {
      if (part.length <= TOOL_SEARCH_LIMITS.maxWordChars) words.push(part.toLowerCase());
    }
  }
  return words;
}
