import MiniSearch from 'minisearch';
import { checkTools, invalid } from './check-tools.js';
import { DEVELOPER_VOCABULARY, type ToolVocabulary } from './developer-vocabulary.js';
import { mergeResults } from './merge-results.js';
import { isQuestion, isReadOnly } from './read-intent.js';
import { serverNameTerms } from './server-name-terms.js';
import { sharedNamePrefixes } from './shared-name-prefixes.js';
import { TextAnalyzer, compareStrings, type QueryConcept } from './text-analyzer.js';
import { ToolNameMatcher } from './tool-name-matcher.js';
import { parseToolQuery } from './tool-query.js';
import type { RankedTool, ToolRanker, ToolSearchRequest, ToolSearchResult } from './tool-ranker.js';
import type { ToolSearchEntry, ToolSearchInput } from './tool-search-entry.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';
import { toolText, type ToolText } from './tool-text.js';

/** The parts of a tool's text, as weighted by {@link ToolFieldWeights}. */
export type ToolField = 'name' | 'title' | 'description' | 'parameters' | 'server';

/** How much a match in each part of a tool's text counts (a BM25 score per part, times its weight). */
export type ToolFieldWeights = Readonly<Record<ToolField, number>>;

/**
 * The built-in weights: a word of the tool's name says most about what it does, then its title,
 * its description, its parameters; the server's name and description are a weak hint shared by
 * all of its tools ("in notion").
 */
export const DEFAULT_FIELD_WEIGHTS: ToolFieldWeights = { name: 3, title: 2, description: 1, parameters: 0.5, server: 0.3 };

/** Options of a {@link ToolIndex}. */
export interface ToolIndexOptions {
  /** Synonyms and related words; default {@link DEVELOPER_VOCABULARY}. */
  readonly vocabulary?: ToolVocabulary | undefined;
  /** Weights of the parts of a tool's text; missing parts keep {@link DEFAULT_FIELD_WEIGHTS}. */
  readonly fieldWeights?: Partial<ToolFieldWeights> | undefined;
}

/** Why a tool matched a query: {@link ToolIndex.explain}. */
export interface ToolMatchExplanation {
  /** The tool. */
  readonly name: string;
  /** Its ranking score for the query (before scores are divided by the best one); 0 when nothing matched. */
  readonly score: number;
  /** Each concept of the query (a word, or a phrase the vocabulary knows) and what of it matched. */
  readonly concepts: ReadonlyArray<{
    /** The query's word or phrase (lower case). */
    readonly text: string;
    /** The term that matched best (the word's stem, a synonym, a related word); absent when none did. */
    readonly term?: string;
    /** 1 for the word itself, less for a synonym or related word. */
    readonly weight?: number;
    /** Where in the tool's text the term was found. */
    readonly fields?: readonly ToolField[];
  }>;
}

const FIELDS: readonly ToolField[] = ['name', 'title', 'description', 'parameters', 'server'];

interface ConceptHit {
  readonly score: number;
  readonly term: string;
  readonly weight: number;
  readonly fields: readonly ToolField[];
}

/**
 * The built-in ranker: a deterministic, offline index of tools by what they say. Tool names are
 * split into words (`update_pull_request_branch`, `getFileContents`), every part of a tool's text
 * is stemmed and scored with BM25 per part (name over title over description over parameters over
 * server), and each word of a query also finds its synonyms and related words from the vocabulary
 * ("bump the PR branch" finds `update_pull_request_branch`). On top of that:
 * - a tool that matches more of the query's words ranks higher, and a query word no tool has is
 *   ignored instead of lowering every score;
 * - a word that tools of a server repeat in their text scores by the part that says it most, not
 *   once per part;
 * - addresses and file names in a query count as what they are (`https://…` a URL, `cat.png` an
 *   image file), not as their words;
 * - the first word most tool names of a server share (`browser_`, `API-`) counts as the server's;
 * - tools of a server the query names ("in notion", "on GitHub") rank higher, and so do tools that
 *   only read when the query is a question ("which databases exist?").
 *
 * No network, no model, nothing random: the same tools and query give the same answer, ties in
 * name order.
 *
 * It is also a complete synchronous search: {@link ToolIndex.search} answers tool names and
 * `select:` lists first, as {@link ToolSearch} does for any ranker.
 *
 * @example
 * ```ts
 * const index = new ToolIndex([
 *   { name: 'update_pull_request_branch', serverName: 'github', toolName: 'update_pull_request_branch', description: 'Update a pull request branch with the latest changes from the base branch' },
 *   { name: 'read_file', serverName: 'filesystem', toolName: 'read_file', description: 'Read the complete contents of a file' },
 * ]);
 * index.search({ query: 'bump the PR branch', limit: 3 });
 * // [{ name: 'update_pull_request_branch', serverName: 'github', toolName: 'update_pull_request_branch', score: 1 }]
 * ```
 */
export class ToolIndex implements ToolRanker {
  readonly #tools: ReadonlyMap<string, ToolSearchEntry>;
  readonly #names: readonly string[];
  readonly #matcher: ToolNameMatcher;
  readonly #analyzer: TextAnalyzer;
  readonly #index: MiniSearch<{ id: number } & ToolText>;
  readonly #boost: ToolFieldWeights;
  readonly #fields: ToolField[];
  /** Per tool id, its server's name. */
  readonly #serverOf: readonly string[];
  /** Per tool id, whether it only reads ({@link isReadOnly}). */
  readonly #readOnly: readonly boolean[];
  /** A term → the servers a request names with it ({@link serverNameTerms}). */
  readonly #serversByTerm = new Map<string, string[]>();

  /**
   * Index `tools`. Throws a {@link ToolSearchError} (`INVALID_OPTIONS`) when an entry lacks a
   * name, server name or tool name, or two entries share a name. Only a bounded part of each
   * tool's text is read ({@link TOOL_SEARCH_LIMITS}).
   */
  constructor(tools: readonly ToolSearchInput[], options: ToolIndexOptions = {}) {
    this.#tools = checkTools(tools);
    this.#names = [...this.#tools.keys()];
    this.#matcher = new ToolNameMatcher(this.#tools);
    this.#analyzer = new TextAnalyzer(options.vocabulary ?? DEVELOPER_VOCABULARY);
    this.#boost = { ...DEFAULT_FIELD_WEIGHTS, ...definedWeights(options.fieldWeights) };
    // A weight of 0 leaves the field out (MiniSearch reads a boost of 0 as the default, 1).
    this.#fields = FIELDS.filter((field) => this.#boost[field] > 0);
    const entries = [...this.#tools.values()];
    const prefixes = sharedNamePrefixes(entries);
    this.#serverOf = entries.map((tool) => tool.serverName);
    this.#readOnly = entries.map((tool) => isReadOnly(tool, prefixes.get(tool.serverName)));
    for (const server of new Set(this.#serverOf)) {
      for (const term of serverNameTerms(server)) this.#serversByTerm.set(term, [...(this.#serversByTerm.get(term) ?? []), server]);
    }
    this.#index = new MiniSearch<{ id: number } & ToolText>({
      fields: [...FIELDS],
      // Tool text is analysed by the same analyser as queries; fields are already bounded strings.
      tokenize: (text) => this.#analyzer.terms(text, Number.MAX_SAFE_INTEGER),
      processTerm: (term) => term,
    });
    this.#index.addAll(entries.map((tool, id) => ({ id, ...toolText(tool, prefixes.get(tool.serverName)) })));
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.#names.length;
  }

  /**
   * The best tools for the words of `request.query` (tool names get no special treatment here),
   * at most `request.limit`, best first with ties in name order. Scores are the raw ranking
   * scores: compare them within one answer only.
   */
  rank(request: Required<ToolSearchRequest>): RankedTool[] {
    const { limit } = request;
    if (!Number.isInteger(limit) || limit < 1) throw invalid(`the limit must be a whole number of at least 1, got ${String(limit)}`);
    const scored = [...this.#scores(String(request.query))].map(([id, score]) => ({ name: this.#names[id] as string, score }));
    scored.sort((a, b) => b.score - a.score || compareStrings(a.name, b.name));
    return scored.slice(0, Math.min(limit, TOOL_SEARCH_LIMITS.maxLimit));
  }

  /**
   * Search synchronously: tools named by the query first (its whole text or an identifier in it:
   * `read_file`, `github__create_issue`, a tool's own name), then the best matches of its words;
   * `select:a,b` answers exactly the tools listed. See {@link ToolSearch.search} for the rules.
   * Throws a {@link ToolSearchError} (`INVALID_OPTIONS`) for an empty query or a bad limit.
   */
  search(request: ToolSearchRequest): ToolSearchResult[] {
    const query = parseToolQuery(request);
    const named = this.#matcher.match(query.names);
    const ranked = query.select === undefined ? this.rank({ query: query.text, limit: query.limit + named.length }) : [];
    return mergeResults(query, named, ranked, this.#tools);
  }

  /**
   * Why `name` ranks where it does for `query`: each concept of the query and the term that
   * matched it, with where. Undefined when the index holds no tool of that name.
   */
  explain(query: string, name: string): ToolMatchExplanation | undefined {
    const id = this.#names.indexOf(name);
    if (id < 0) return undefined;
    const concepts = this.#analyzer.concepts(String(query));
    const hits = this.#match(concepts).get(id);
    return {
      name,
      score: this.#scores(String(query)).get(id) ?? 0,
      concepts: concepts.map((concept, index) => {
        const hit = hits?.hits.get(index);
        return hit === undefined ? { text: concept.text } : { text: concept.text, term: hit.term, weight: hit.weight, fields: hit.fields };
      }),
    };
  }

  /** Each matching tool's score for `query`, by id. */
  #scores(query: string): Map<number, number> {
    const concepts = this.#analyzer.concepts(query);
    const servers = this.#namedServers(concepts);
    const question = isQuestion(query);
    const scores = new Map<number, number>();
    for (const [id, match] of this.#match(concepts)) {
      const server = 1 + SERVER_BOOST * (servers.get(this.#serverOf[id] as string) ?? 0);
      const read = question && this.#readOnly[id] === true ? 1 + READ_BOOST : 1;
      scores.set(id, total(match) * server * read);
    }
    return scores;
  }

  /** The servers the query names ("in notion", "on GitHub", "mongo"), each with the best weight of a term naming it. */
  #namedServers(concepts: readonly QueryConcept[]): Map<string, number> {
    const named = new Map<string, number>();
    for (const concept of concepts) {
      for (const { term, weight } of concept.terms) {
        for (const server of this.#serversByTerm.get(term) ?? []) named.set(server, Math.max(named.get(server) ?? 0, weight));
      }
    }
    return named;
  }

  /**
   * Per tool, the best-scoring term of each concept it matches, and how many concepts match any
   * tool at all (a query word no tool has must not count against the tools that match the rest).
   * A term's score for a tool is its BM25 score in the part of the tool's text where it scores
   * best, plus a share of its scores in the other parts: a tool that says a word in its name, title,
   * description and parameters is not four times as relevant as one that says it in its name.
   */
  #match(concepts: readonly QueryConcept[]): Map<number, ToolMatch> {
    const byTool = new Map<number, ToolMatch>();
    let matchable = 0;
    concepts.forEach((concept, conceptIndex) => {
      let matched = false;
      for (const { term, weight } of concept.terms) {
        for (const [id, { best, sum, fields }] of this.#termScores(term)) {
          matched = true;
          const score = weight * (best + OTHER_FIELDS_SHARE * (sum - best));
          const entry = byTool.get(id) ?? { hits: new Map<number, ConceptHit>(), matchable: 0 };
          const previous = entry.hits.get(conceptIndex);
          if (previous === undefined || score > previous.score) entry.hits.set(conceptIndex, { score, term, weight, fields });
          byTool.set(id, entry);
        }
      }
      if (matched) matchable += 1;
    });
    for (const entry of byTool.values()) entry.matchable = matchable;
    return byTool;
  }

  /** Per tool that has `term`: its best weighted BM25 score in one part, the sum over parts, and the parts. */
  #termScores(term: string): Map<number, { best: number; sum: number; fields: ToolField[] }> {
    const perTool = new Map<number, { best: number; sum: number; fields: ToolField[] }>();
    for (const field of this.#fields) {
      const options = { fields: [field], boost: { [field]: this.#boost[field] }, tokenize: single, processTerm: same };
      for (const result of this.#index.search(term, options)) {
        const id = result.id as number;
        const entry = perTool.get(id) ?? { best: 0, sum: 0, fields: [] };
        entry.best = Math.max(entry.best, result.score);
        entry.sum += result.score;
        entry.fields.push(field);
        perTool.set(id, entry);
      }
    }
    return perTool;
  }
}

interface ToolMatch {
  readonly hits: Map<number, ConceptHit>;
  matchable: number;
}

/** A score in the part of a tool's text that says a word most counts whole; in each other part, this share. */
const OTHER_FIELDS_SHARE = 0.25;
/** Tools of a server the query names score this much more (times the naming term's weight). */
const SERVER_BOOST = 0.5;
/** Tools that only read score this much more when the query is a question. */
const READ_BOOST = 0.3;

/** A tool's score: the sum of its concepts' best scores, times the share of the query's matchable concepts it matches. */
function total({ hits, matchable }: ToolMatch): number {
  let sum = 0;
  for (const hit of hits.values()) sum += hit.score;
  return matchable === 0 ? 0 : (sum * hits.size) / matchable;
}

function definedWeights(weights: Partial<ToolFieldWeights> | undefined): Partial<ToolFieldWeights> {
  const defined: Partial<Record<ToolField, number>> = {};
  for (const field of FIELDS) {
    const weight = weights?.[field];
    if (weight === undefined) continue;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw invalid(`the weight of the ${field} field must be a finite number of at least 0, got ${String(weight)}`);
    }
    defined[field] = weight;
  }
  return defined;
}

const single = (term: string): string[] => [term];
const same = (term: string): string => term;
