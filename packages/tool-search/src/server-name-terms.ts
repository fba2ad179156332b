import { splitWords } from './split-words.js';
import { stemWord } from './stem-word.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/**
 * The terms by which a request names a server: its whole name without separators (`mongodb`,
 * `chromedevtools`, `github`) and, for a name of several words, its first word (`chrome` of
 * `chrome-devtools`) when it is longer than two letters; stemmed like the words of a query, so
 * "puppeteer" names the server `puppeteer`.
 */
export function serverNameTerms(server: string): string[] {
  const words = splitWords(server, TOOL_SEARCH_LIMITS.maxNameChars);
  const terms = new Set<string>();
  if (words.length > 0) terms.add(stemWord(words.join('')));
  const [first] = words;
  if (words.length > 1 && first !== undefined && first.length > 2) terms.add(stemWord(first));
  return [...terms];
}
