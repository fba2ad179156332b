import { escapeControlText, type ContentPart, type InlineDataPart } from '@toolhost/contract';
import { resultMedia, resultText, type BudgetResult } from './budget-result.js';
import { formatBytes, formatCount, plural } from './format-count.js';
import { serializeJson } from './json-value.js';
import { ResultBudgetError } from './result-budget-error.js';
import { describeOmissions, prepareJsonShortening, type JsonOmissions } from './shorten-json.js';
import { prepareTextShortening, type ShortenedText } from './shorten-text.js';
import { defaultTokenEstimator, type TokenEstimator } from './token-estimator.js';

/** The name of the model-facing tool that pages through a stored result. */
export const READ_TOOL_RESULT_TOOL_NAME = 'read_tool_result';

/** Characters a page of a stored result has when the model asks for no `length`. */
export const DEFAULT_PAGE_LENGTH = 40_000;

/** The smallest budget a result can be shortened to (the note alone takes about 150 tokens). */
export const MIN_RESULT_BUDGET_TOKENS = 1_000;

/** Levels of JSON shown before deeper values are summarised, by default. */
export const DEFAULT_MAX_JSON_DEPTH = 32;

/** Most attempts at fitting the text into its share of the budget (each one shrinks the room). */
const MAX_FIT_ATTEMPTS = 8;

/** Options of {@link shortenResult}. */
export interface ShortenResultOptions {
  /** Most tokens the model may get for this result (the note included). At least {@link MIN_RESULT_BUDGET_TOKENS}. */
  readonly budgetTokens: number;
  /** How tokens are counted. @default defaultTokenEstimator */
  readonly estimator?: TokenEstimator | undefined;
  /**
   * The id under which the full result is stored (see `ResultStore`); the note tells the model to
   * page through it with {@link READ_TOOL_RESULT_TOOL_NAME}. Without one the note says the full
   * result cannot be read back.
   */
  readonly resultId?: string | undefined;
  /** Why the full result was not stored, when `resultId` is absent (one sentence, for the note). */
  readonly notStoredReason?: string | undefined;
  /** How long the full result is kept, for the note (`1 hour`). */
  readonly keptFor?: string | undefined;
  /** The tool's name, for the note. */
  readonly toolName?: string | undefined;
  /** The name of the paging tool the note tells the model to call. @default 'read_tool_result' */
  readonly readToolName?: string | undefined;
  /** The page length the note suggests. @default DEFAULT_PAGE_LENGTH */
  readonly pageLength?: number | undefined;
  /**
   * Whether the model is sent `structuredContent` as well as the parts (the Gemini adapter's
   * `includeStructuredContent`, the AI SDK bridge): then it counts toward the budget. It is
   * summarised in a shortened result either way. @default false
   */
  readonly countStructuredContent?: boolean | undefined;
  /** Levels of JSON shown before deeper values are summarised. @default DEFAULT_MAX_JSON_DEPTH */
  readonly maxJsonDepth?: number | undefined;
}

/** What a shortened result left out. */
export interface ResultOmissions {
  /** Estimated tokens left out (the original's estimate minus what is sent). */
  readonly tokens: number;
  /**
   * Characters of the result's full text (see `resultText`) left out: exactly, for text cut in the
   * middle; for JSON (written again, compact) how much shorter it got.
   */
  readonly characters: number;
  /** JSON array items left out. */
  readonly items: number;
  /** JSON object keys left out. */
  readonly keys: number;
  /** Long JSON strings cut short. */
  readonly strings: number;
  /** JSON values nested too deep, replaced by a summary. */
  readonly nested: number;
  /** Images, audio clips and blobs left out. */
  readonly media: number;
}

/** What {@link shortenResult} returns. */
export interface ShortenedResult extends BudgetResult {
  /** Parts for the model: the (shortened) text, the note, then the inline-data parts kept. */
  readonly parts: ContentPart[];
  /** The server's `structuredContent`, summarised when the result was shortened. */
  readonly structuredContent?: Record<string, unknown> | undefined;
  /** True when anything was left out (the result was over its budget). */
  readonly shortened: boolean;
  /** Estimated tokens of what is sent (the note and, when counted, `structuredContent` included). */
  readonly tokens: number;
  /** Estimated tokens of the result as it came. */
  readonly originalTokens: number;
  /** The note for the model (also in `parts`), when shortened. */
  readonly note?: string | undefined;
  /** What was left out (all zero when not shortened). */
  readonly omitted: ResultOmissions;
}

const NOTHING_OMITTED: ResultOmissions = { tokens: 0, characters: 0, items: 0, keys: 0, strings: 0, nested: 0, media: 0 };

/** Estimated tokens of each piece of a result, as {@link shortenResult} counts them. */
export interface ResultTokens {
  /** Tokens of all text parts together. */
  readonly text: number;
  /** Tokens of each inline-data part, in order. */
  readonly media: readonly number[];
  /** Tokens of `structuredContent`'s JSON, with `countStructuredContent` (else 0: it is not counted). */
  readonly structuredContent: number;
  /** What the model is sent: text, media and, with `countStructuredContent`, `structuredContent`. */
  readonly total: number;
}

/**
 * Estimate what a result costs the model. `structuredContent` counts toward `total` only with
 * `countStructuredContent` (most adapters send only the parts).
 *
 * @example
 * ```ts
 * estimateResultTokens({ parts: [{ type: 'text', text: 'hello world' }] }).total; // 2
 * ```
 */
export function estimateResultTokens(
  result: BudgetResult,
  options: { readonly estimator?: TokenEstimator | undefined; readonly countStructuredContent?: boolean | undefined } = {},
): ResultTokens {
  const estimator = options.estimator ?? defaultTokenEstimator;
  let text = 0;
  const media: number[] = [];
  for (const part of result.parts) {
    if (part.type === 'text') text += estimator.text(part.text);
    else media.push(estimator.media(part));
  }
  // Written out and counted only when the model is sent it: most results never pay for it.
  const structured =
    result.structuredContent === undefined || options.countStructuredContent !== true
      ? 0
      : estimator.text(serializeJson(result.structuredContent));
  const total = text + media.reduce((sum, tokens) => sum + tokens, 0) + structured;
  return { text, media, structuredContent: structured, total };
}

function describeMedia(part: InlineDataPart): string {
  const kind =
    part.source === 'audio' || part.mimeType.startsWith('audio/') ? 'audio clip' : part.mimeType.startsWith('image/') ? 'image' : 'file';
  const padding = part.data.endsWith('==') ? 2 : part.data.endsWith('=') ? 1 : 0;
  return `${kind} (${escapeControlText(part.mimeType, { maxLength: 60 })}, ${formatBytes(Math.floor((part.data.length * 3) / 4) - padding)})`;
}

/** `budgetTokens` checked (`INVALID_OPTIONS` unless a whole number of at least the minimum). @internal */
export function checkBudget(budgetTokens: unknown): number {
  if (typeof budgetTokens !== 'number' || !Number.isInteger(budgetTokens) || budgetTokens < MIN_RESULT_BUDGET_TOKENS) {
    throw new ResultBudgetError({
      code: 'INVALID_OPTIONS',
      message: `shortenResult: budgetTokens must be a whole number of at least ${formatCount(MIN_RESULT_BUDGET_TOKENS)}; got ${escapeControlText(String(budgetTokens), { maxLength: 40 })}.`,
    });
  }
  return budgetTokens;
}

interface NoteFacts {
  readonly options: ShortenResultOptions;
  readonly originalTokens: number;
  readonly sentTokens: number;
  readonly textLength: number;
  readonly omissions: string[];
}

function writeNote(facts: NoteFacts): string {
  const { options } = facts;
  const tool =
    options.toolName === undefined ? 'This tool result' : `The result of tool '${escapeControlText(options.toolName, { maxLength: 100 })}'`;
  const read = options.readToolName ?? READ_TOOL_RESULT_TOOL_NAME;
  const what = facts.omissions.length > 0 ? ` (${facts.omissions.join('; ')})` : '';
  let note =
    `[toolhost] ${tool} was about ${formatCount(facts.originalTokens)} tokens, over its budget of ${formatCount(options.budgetTokens)}, ` +
    `so it was shortened to about ${formatCount(facts.sentTokens)} tokens${what}.`;
  if (options.resultId !== undefined) {
    const args = JSON.stringify({ id: options.resultId, offset: 0, length: options.pageLength ?? DEFAULT_PAGE_LENGTH });
    note +=
      ` The full result is stored as "${options.resultId}"${options.keptFor === undefined ? '' : ` for ${options.keptFor}`}: ` +
      `call ${read} with ${args} to read its ${plural(facts.textLength, 'character')} of text page by page (each page says where the next one starts).`;
  } else {
    const reason = options.notStoredReason === undefined ? '' : ` (${escapeControlText(options.notStoredReason, { maxLength: 300 })})`;
    note += ` The full result was not kept${reason}, so it cannot be read back: if you need more of it, call the tool again with narrower arguments (a filter, a limit or a page).`;
  }
  return note;
}

/** Summarised `structuredContent`: an object of valid JSON in about `room` characters. */
/**
 * `structuredContent` summarised into an object of valid JSON of at most about `shareTokens`, the
 * room shrunk until the estimate fits (the summary is parsed back with JSON.parse: plain data).
 */
function summariseStructured(
  value: Readonly<Record<string, unknown>>,
  shareTokens: number,
  estimator: TokenEstimator,
  maxDepth: number,
): { value: Record<string, unknown>; text: string; tokens: number; omissions: JsonOmissions } {
  const write = prepareJsonShortening(value, maxDepth);
  let room = Math.max(64, shareTokens * 3);
  let written = write(room);
  let tokens = estimator.text(written.text);
  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS && tokens > shareTokens && room > 64; attempt++) {
    room = Math.max(64, Math.floor(room * Math.min(0.95, (shareTokens / tokens) * 0.97)));
    written = write(room);
    tokens = estimator.text(written.text);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(written.text);
  } catch {
    parsed = undefined;
  }
  const object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { value: object, text: written.text, tokens, omissions: written.omissions };
}

function addOmissions(target: JsonOmissions, more: JsonOmissions | undefined): void {
  if (more === undefined) return;
  target.items += more.items;
  target.keys += more.keys;
  target.strings += more.strings;
  target.summarised += more.summarised;
}

/**
 * Fit a tool result into `budgetTokens`. Within budget it comes back as it was (`shortened:
 * false`). Over budget the model gets a shortened result that keeps its structure:
 * - JSON text stays valid JSON: long arrays keep their head items and end with a marker string
 *   (`"[… 19,950 more items]"`), small object fields stay whole and large ones are shortened (keys
 *   left out are listed under a `"…"` key), long strings are cut with a marker, and values nested
 *   deeper than `maxJsonDepth` become a one-line summary; JSON after a few short lines (the host's
 *   error header) is handled the same, the lines kept;
 * - other text keeps its head and tail around a marker line that gives the offsets left out;
 * - `structuredContent` is summarised the same way (it stays an object);
 * - images, audio and blobs are kept in order while they fit, the rest left out;
 * - a note for the model, its own text part after the text, says how much was left out and how to
 *   read the full result (`read_tool_result` with the `resultId`), or that it was not kept.
 *
 * Deterministic, and bounded on hostile input: the text is parsed and measured once (JSON nested
 * 100,000 levels deep is fine: nothing recurses deeper than `maxJsonDepth`), then written a few
 * times into a shrinking room until the estimate fits; the estimator runs on the whole text once.
 * Cuts never split a surrogate pair and, where the runtime can tell, never a grapheme cluster.
 *
 * @example
 * ```ts
 * const shortened = shortenResult({ parts: [{ type: 'text', text: hugeJson }] }, { budgetTokens: 25_000, resultId: id });
 * shortened.parts[0]; // valid JSON, shortened; shortened.parts[1] is the note
 * ```
 */
export function shortenResult(result: BudgetResult, options: ShortenResultOptions): ShortenedResult {
  return shortenEstimatedResult(result, options, undefined);
}

/** {@link shortenResult} with the result's estimate already made (it costs a pass over the whole text). @internal */
export function shortenEstimatedResult(
  result: BudgetResult,
  options: ShortenResultOptions,
  estimate: ResultTokens | undefined,
): ShortenedResult {
  const budget = checkBudget(options.budgetTokens);
  const estimator = options.estimator ?? defaultTokenEstimator;
  const countStructured = options.countStructuredContent === true;
  const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const original = estimate ?? estimateResultTokens(result, { estimator, countStructuredContent: countStructured });
  if (original.total <= budget) {
    return {
      parts: [...result.parts],
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
      shortened: false,
      tokens: original.total,
      originalTokens: original.total,
      omitted: NOTHING_OMITTED,
    };
  }

  const text = resultText(result);
  const hasTextPart = result.parts.some((part) => part.type === 'text');
  const media = resultMedia(result);
  // The note's cost, written with the largest numbers it can hold.
  const noteReserve =
    estimator.text(
      writeNote({
        options,
        originalTokens: original.total,
        sentTokens: budget,
        textLength: text.length,
        omissions: [
          `${plural(text.length, 'array item')} left out`,
          `${plural(text.length, 'object key')} left out`,
          `${plural(text.length, 'long string')} cut`,
          `${plural(text.length, 'nested value')} summarised`,
          `${plural(media.length, 'file')} left out`,
        ],
      }),
    ) + 16;
  const available = Math.max(0, budget - noteReserve);

  // structuredContent: a quarter of the budget at most; counted against it only when sent.
  const structuredShare =
    result.structuredContent === undefined
      ? 0
      : countStructured
        ? Math.min(original.structuredContent, Math.floor(budget / 4))
        : Math.floor(budget / 4);
  const textAndMedia = available - (countStructured ? structuredShare : 0);

  // Media in order while they fit, leaving the text at least half of the room (or all it needs).
  const textNeed = hasTextPart ? original.text : 0;
  const mediaRoom = Math.max(textAndMedia - textNeed, Math.floor(textAndMedia / 2));
  const keptMedia: InlineDataPart[] = [];
  const droppedMedia: InlineDataPart[] = [];
  let mediaTokens = 0;
  media.forEach((part, index) => {
    const tokens = original.media[index] as number;
    if (droppedMedia.length === 0 && mediaTokens + tokens <= mediaRoom) {
      keptMedia.push(part);
      mediaTokens += tokens;
    } else droppedMedia.push(part);
  });
  const textRoomTokens = Math.max(0, textAndMedia - mediaTokens);

  // The text: shortened into a room in characters, shrunk until its estimate fits.
  const omissions: JsonOmissions = { items: 0, keys: 0, strings: 0, summarised: 0 };
  let shortenedText: ShortenedText | undefined;
  if (hasTextPart) {
    if (original.text <= textRoomTokens) shortenedText = { text, kind: 'text' };
    else {
      const read = options.readToolName ?? READ_TOOL_RESULT_TOOL_NAME;
      const shorten = prepareTextShortening(text, {
        maxDepth,
        pagingHint:
          options.resultId === undefined
            ? undefined
            : (offset) => `; read them with ${read} ${JSON.stringify({ id: options.resultId, offset })}`,
      });
      const charsPerToken = text.length / Math.max(1, original.text);
      let room = Math.floor(textRoomTokens * charsPerToken);
      for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS; attempt++) {
        shortenedText = shorten(room);
        const tokens = estimator.text(shortenedText.text);
        if (tokens <= textRoomTokens || room === 0) break;
        room = Math.floor(room * Math.min(0.95, (textRoomTokens / tokens) * 0.97));
      }
      if (shortenedText !== undefined && estimator.text(shortenedText.text) > textRoomTokens) {
        // The estimator disagrees with every room tried (an unusual tokenizer): send no text.
        shortenedText = { text: '', kind: 'text', cut: { from: 0, to: text.length, lines: 0 } };
      }
      addOmissions(omissions, shortenedText?.json);
    }
  }

  let structuredContent: Record<string, unknown> | undefined;
  let structuredTokens = 0;
  if (result.structuredContent !== undefined) {
    const summary = summariseStructured(result.structuredContent, Math.max(64, structuredShare), estimator, maxDepth);
    structuredContent = summary.value;
    if (countStructured) structuredTokens = summary.tokens;
    // When the model never sees it, its omissions are not the model's business.
    if (countStructured || !hasTextPart) addOmissions(omissions, summary.omissions);
  }

  const keptText = shortenedText?.text;
  const textTokens = keptText === undefined ? 0 : estimator.text(keptText);
  // Plain text: exactly the characters cut out; JSON (written again, compact): how much shorter it got.
  const omittedCharacters =
    shortenedText === undefined || shortenedText.text === text
      ? 0
      : shortenedText.cut !== undefined
        ? shortenedText.cut.to - shortenedText.cut.from
        : Math.max(0, text.length - shortenedText.text.length);
  const words = describeOmissions(omissions);
  if (shortenedText?.cut !== undefined && omittedCharacters > 0)
    words.unshift(`${plural(omittedCharacters, 'character')} of text left out`);
  if (droppedMedia.length > 0)
    words.push(
      `${plural(droppedMedia.length, 'file')} left out: ${droppedMedia.slice(0, 5).map(describeMedia).join(', ')}${droppedMedia.length > 5 ? ', …' : ''}`,
    );
  const draftTokens = textTokens + mediaTokens + structuredTokens;
  const note = writeNote({
    options,
    originalTokens: original.total,
    sentTokens: draftTokens + noteReserve,
    textLength: text.length,
    omissions: words,
  });
  const noteTokens = estimator.text(note);
  const parts: ContentPart[] = [];
  if (keptText !== undefined && keptText !== '') parts.push({ type: 'text', text: keptText });
  parts.push({ type: 'text', text: note });
  parts.push(...keptMedia);
  const tokens = draftTokens + noteTokens;
  return {
    parts,
    ...(structuredContent !== undefined ? { structuredContent } : {}),
    shortened: true,
    tokens,
    originalTokens: original.total,
    note,
    omitted: {
      tokens: Math.max(0, original.total - tokens),
      characters: omittedCharacters,
      items: omissions.items,
      keys: omissions.keys,
      strings: omissions.strings,
      nested: omissions.summarised,
      media: droppedMedia.length,
    },
  };
}
