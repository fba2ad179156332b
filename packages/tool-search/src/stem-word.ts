import stem from 'wink-porter2-stemmer';

/**
 * The Porter2 (Snowball English) stem of a lower-case word: `repositories` → `repositori`,
 * `branches` → `branch`. Words of digits or of letters without case are returned unchanged. The
 * caller bounds the word's length (the stemmer's patterns backtrack on very long input).
 */
export function stemWord(word: string): string {
  return /^[a-z]+$/.test(word) ? stem(word) : word;
}
