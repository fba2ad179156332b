// Shortening the text of a result into at most a given number of characters: JSON (alone, or
// between a few short lines such as the host's error header) stays valid JSON, shortened by
// prepareJsonShortening; other text keeps its head and its tail around a marker line saying what was
// left out and where it sits in the full text, so the model can page straight to it.
import { formatCount, plural } from './format-count.js';
import { parseJsonText } from './json-value.js';
import { prepareJsonShortening, type JsonOmissions } from './shorten-json.js';
import { cutBoundary } from './unicode-boundary.js';

/** How far into the text (and back from its end) JSON may start (and end) after a few other lines. */
const JSON_EDGE = 4096;
/** Share of the kept plain text taken from the head (the rest from the tail). */
const HEAD_SHARE = 0.7;
/** Room kept for the marker line of plain text. */
const MARKER_ROOM = 200;

/** A shortened text and what was left out. */
export interface ShortenedText {
  /** The shortened text. */
  readonly text: string;
  /** `json` when the JSON in the text was shortened as JSON (it stays valid), else `text`. */
  readonly kind: 'json' | 'text';
  /** For JSON: array items, keys, strings and nested values left out or cut. */
  readonly json?: JsonOmissions;
  /** For plain text: the characters and lines left out in the middle. */
  readonly cut?: { readonly from: number; readonly to: number; readonly lines: number };
}

/** Where JSON sits in `text`: the JSON itself, with a short prefix and suffix of other lines. */
interface JsonRegion {
  readonly prefix: string;
  readonly value: unknown;
  readonly suffix: string;
}

/** Most candidate starts (and ends) of JSON tried after other lines: each failed try may parse the whole text. */
const MAX_CANDIDATES = 3;

function findJsonRegion(text: string): JsonRegion | undefined {
  const whole = parseJsonText(text);
  if (whole !== undefined) return { prefix: '', value: whole.value, suffix: '' };
  // JSON between a few short lines (the host's "[MCP tool 'x' reported an error]" before it, media
  // marker lines after it): a line starting with { or [ near the start, one ending with } or ] near the end.
  const starts: number[] = [];
  for (let index = 0; index < Math.min(text.length, JSON_EDGE) && starts.length < MAX_CANDIDATES; index++) {
    const code = text.charCodeAt(index);
    if ((code === 0x7b || code === 0x5b) && (index === 0 || text.charCodeAt(index - 1) === 0x0a)) starts.push(index);
  }
  const ends: number[] = [];
  for (let index = text.length - 1; index >= Math.max(0, text.length - JSON_EDGE) && ends.length < MAX_CANDIDATES; index--) {
    const code = text.charCodeAt(index);
    if ((code === 0x7d || code === 0x5d) && (index === text.length - 1 || text.charCodeAt(index + 1) === 0x0a)) ends.push(index + 1);
  }
  for (const start of starts) {
    // A start whose first line is not JSON's opening (`[MCP tool …]`) fails at once; only a real
    // start with a wrong end costs a whole parse.
    for (const end of ends) {
      if (end <= start || (start === 0 && end === text.length)) continue;
      const inner = parseJsonText(text.slice(start, end));
      if (inner !== undefined) return { prefix: text.slice(0, start), value: inner.value, suffix: text.slice(end) };
    }
  }
  return undefined;
}

/** Where `text` may be cut near `index`: after a line break within `slack` characters, else at a safe boundary. */
function lineCut(text: string, index: number, slack: number, direction: 'back' | 'forward'): number {
  if (direction === 'back') {
    const newline = text.lastIndexOf('\n', index - 1);
    if (newline >= 0 && newline + 1 >= index - slack) return newline + 1;
  } else {
    const newline = text.indexOf('\n', index);
    if (newline >= 0 && newline + 1 <= index + slack) return newline + 1;
  }
  return cutBoundary(text, index, direction);
}

function countLines(text: string, from: number, to: number): number {
  let lines = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}

/** Options of {@link shortenText}. */
export interface ShortenTextOptions {
  /** Most levels of JSON shown before nested values are summarised. */
  readonly maxDepth: number;
  /** Words for the plain-text marker telling how to read what was left out (with `{offset}`), or none. */
  readonly pagingHint?: ((offset: number) => string) | undefined;
}

/** The plain text `text` in about `room` characters: head, a marker line, tail. */
function shortenPlainText(text: string, room: number, options: ShortenTextOptions): ShortenedText {
  const keep = Math.max(0, room - MARKER_ROOM);
  const headLength = Math.floor(keep * HEAD_SHARE);
  const tailLength = keep - headLength;
  const headEnd = lineCut(text, headLength, Math.floor(headLength * 0.2), 'back');
  const tailStart = Math.max(headEnd, lineCut(text, text.length - tailLength, Math.floor(tailLength * 0.2), 'forward'));
  const lines = countLines(text, headEnd, tailStart);
  const hint = options.pagingHint?.(headEnd) ?? '';
  const marker =
    `[… ${plural(tailStart - headEnd, 'character')}${lines > 0 ? ` (${plural(lines, 'line')})` : ''} left out here: ` +
    `characters ${formatCount(headEnd)} to ${formatCount(tailStart)} of ${formatCount(text.length)}${hint}]`;
  const before = headEnd > 0 && text.charCodeAt(headEnd - 1) !== 0x0a ? '\n' : '';
  const after = tailStart < text.length ? '\n' : '';
  return {
    text: `${text.slice(0, headEnd)}${before}${marker}${after}${text.slice(tailStart)}`,
    kind: 'text',
    cut: { from: headEnd, to: tailStart, lines },
  };
}

/**
 * A function shortening `text` into about `room` characters (see the file header). The text is
 * parsed and measured once, here; each call then costs about its room (plus a line count for plain
 * text). Deterministic.
 */
export function prepareTextShortening(text: string, options: ShortenTextOptions): (room: number) => ShortenedText {
  const region = findJsonRegion(text);
  const json = region === undefined ? undefined : prepareJsonShortening(region.value, options.maxDepth);
  return (room) => {
    if (text.length <= room) return { text, kind: 'text' };
    if (region !== undefined && json !== undefined && region.prefix.length + region.suffix.length <= room / 2) {
      const { text: shortened, omissions } = json(room - region.prefix.length - region.suffix.length);
      return { text: `${region.prefix}${shortened}${region.suffix}`, kind: 'json', json: omissions };
    }
    return shortenPlainText(text, room, options);
  };
}
