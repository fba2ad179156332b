import type { ToolVocabulary } from './developer-vocabulary.js';
import { readQueryEntities } from './query-entities.js';
import { splitWords } from './split-words.js';
import { stemWord } from './stem-word.js';
import { STOP_WORDS } from './stop-words.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/** How much a synonym of a request word counts against the word itself (1). */
export const SYNONYM_WEIGHT = 0.9;
/** How much a related word (the vocabulary's one-way `related`) counts. */
export const RELATED_WEIGHT = 0.6;
/** Words whose stems an analyser remembers. */
const MAX_CACHED_STEMS = 50_000;
/** Phrases of the vocabulary are at most this many words long. */
const MAX_PHRASE_WORDS = 4;

/** One term a query concept may match in a tool's text, and how much a match counts. */
export interface ConceptTerm {
  /** An indexed term: a stem (`branch`) or a phrase of stems (`pull request`). */
  readonly term: string;
  /** 1 for the request's own word, less for a synonym or a related word. */
  readonly weight: number;
}

/** One thing a query asks for: a word or a phrase of the request, with the terms that express it. */
export interface QueryConcept {
  /** The request's word or phrase, as written (lower case). */
  readonly text: string;
  /** The term itself first, then its synonyms and related words (each at most once, best weight). */
  readonly terms: readonly ConceptTerm[];
}

interface Token {
  readonly word: string;
  readonly stem: string;
}

/**
 * Turns tool text into indexed terms and a query into concepts, the same way on both sides:
 * words split from identifiers and prose, stemmed, stop words dropped, and the phrases the
 * vocabulary knows ("pull request", "go to") kept as one more term.
 */
export class TextAnalyzer {
  /** Phrase keys (stems joined by a space) of every multi-word entry of the vocabulary. */
  readonly #phrases = new Set<string>();
  /** The first stem of every phrase: only where one of these stands can a phrase start. */
  readonly #phraseStarts = new Set<string>();
  /** Stems of the words seen, by word: tools and queries repeat their words, stemming is the costly part. */
  readonly #stems = new Map<string, string>();
  /** Term → the terms that also express it, with their weight. */
  readonly #expansions = new Map<string, Map<string, number>>();

  /** Compile `vocabulary` (its words split and stemmed like tool text). */
  constructor(vocabulary: ToolVocabulary) {
    const key = (entry: string): string | undefined => {
      const stems = this.#tokens(entry, TOOL_SEARCH_LIMITS.maxNameChars).map((token) => token.stem);
      if (stems.length === 0 || stems.length > MAX_PHRASE_WORDS) return undefined;
      if (stems.length > 1) {
        this.#phrases.add(stems.join(' '));
        this.#phraseStarts.add(stems[0] as string);
      }
      return stems.join(' ');
    };
    const link = (from: string, to: string, weight: number): void => {
      if (from === to) return;
      const targets = this.#expansions.get(from) ?? new Map<string, number>();
      targets.set(to, Math.max(targets.get(to) ?? 0, weight));
      this.#expansions.set(from, targets);
    };
    for (const group of vocabulary.synonyms) {
      const keys = group.map(key).filter((entry): entry is string => entry !== undefined);
      for (const from of keys) for (const to of keys) link(from, to, SYNONYM_WEIGHT);
    }
    for (const [word, targets] of Object.entries(vocabulary.related)) {
      const from = key(word);
      if (from === undefined) continue;
      for (const target of targets) {
        const to = key(target);
        if (to !== undefined) link(from, to, RELATED_WEIGHT);
      }
    }
  }

  /** The indexed terms of a tool's text (at most `maxChars` of it read): stems and known phrases. */
  terms(text: string, maxChars: number): string[] {
    const tokens = this.#tokens(text, maxChars);
    const terms: string[] = [];
    for (let index = 0; index < tokens.length; index += 1) {
      const token = tokens[index] as Token;
      if (isSearchable(token.word)) terms.push(token.stem);
      for (const phrase of this.#phrasesAt(tokens, index)) terms.push(phrase);
    }
    return terms;
  }

  /**
   * The concepts of a query, each once: first what the things it names by value are (an address
   * is a `url`, `package.json` a `file`: {@link readQueryEntities}), then in order a known phrase
   * where one starts (longest first), else a word that is not a stop word. At most
   * `maxQueryWords` of them.
   */
  concepts(query: string): QueryConcept[] {
    const entities = readQueryEntities(query.slice(0, TOOL_SEARCH_LIMITS.maxQueryChars));
    const tokens = this.#tokens(entities.text, TOOL_SEARCH_LIMITS.maxQueryChars);
    const concepts: QueryConcept[] = [];
    const seen = new Set<string>();
    for (const kind of entities.kinds) {
      const term = this.#stem(kind);
      seen.add(term);
      concepts.push({ text: kind, terms: this.#expand(term) });
    }
    for (let index = 0; index < tokens.length && concepts.length < TOOL_SEARCH_LIMITS.maxQueryWords;) {
      const phrase = this.#phrasesAt(tokens, index)[0];
      const length = phrase === undefined ? 1 : phrase.split(' ').length;
      const token = tokens[index] as Token;
      const term = phrase ?? token.stem;
      const text = tokens
        .slice(index, index + length)
        .map((entry) => entry.word)
        .join(' ');
      index += length;
      if ((phrase === undefined && !isSearchable(token.word)) || seen.has(term)) continue;
      seen.add(term);
      concepts.push({ text, terms: this.#expand(term) });
    }
    return concepts;
  }

  /** `term` (weight 1) and what the vocabulary says also expresses it, best weight first. */
  #expand(term: string): ConceptTerm[] {
    const expansions = [...(this.#expansions.get(term) ?? new Map<string, number>())]
      .map(([entry, weight]) => ({ term: entry, weight }))
      .sort((a, b) => b.weight - a.weight || compareStrings(a.term, b.term));
    return [{ term, weight: 1 }, ...expansions];
  }

  /** The known phrases that start at `index`, longest first. */
  #phrasesAt(tokens: readonly Token[], index: number): string[] {
    const first = tokens[index];
    if (first === undefined || !this.#phraseStarts.has(first.stem)) return [];
    const found: string[] = [];
    let key = first.stem;
    const end = Math.min(MAX_PHRASE_WORDS, tokens.length - index);
    for (let length = 2; length <= end; length += 1) {
      key += ` ${(tokens[index + length - 1] as Token).stem}`;
      if (this.#phrases.has(key)) found.unshift(key);
    }
    return found;
  }

  #tokens(text: string, maxChars: number): Token[] {
    return splitWords(text, maxChars).map((word) => ({ word, stem: this.#stem(word) }));
  }

  /** `stemWord(word)`, remembered (at most `MAX_CACHED_STEMS` words: the cache is bounded whatever the tools say). */
  #stem(word: string): string {
    let stem = this.#stems.get(word);
    if (stem === undefined) {
      stem = stemWord(word);
      if (this.#stems.size < MAX_CACHED_STEMS) this.#stems.set(word, stem);
    }
    return stem;
  }
}

/** A word worth searching for on its own: not a stop word, not a single letter. */
function isSearchable(word: string): boolean {
  return word.length > 1 && !STOP_WORDS.has(word);
}

/** Code-unit order: the same in every runtime and locale (unlike `localeCompare`). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
