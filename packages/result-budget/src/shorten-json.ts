// Shortening a JSON value into at most a given number of characters of valid JSON, keeping its
// shape: the head items of long arrays and a marker saying how many were left out, small fields of
// objects whole and large ones shortened, long strings cut with a marker, and containers nested
// deeper than a bound replaced by a one-line summary. Two passes, both bounded: sizes are measured
// once with a stack of their own (never deeper than `maxDepth`), then the output is written top
// down, recursing at most `maxDepth` levels and visiting only what it writes.
import { formatCount, plural } from './format-count.js';
import { isContainer, jsonStringLength, scalarJson, scalarJsonLength, serializeJson } from './json-value.js';
import { cutBoundary } from './unicode-boundary.js';

/** What shortening a JSON value left out. */
export interface JsonOmissions {
  /** Array items left out (summed over every shortened array). */
  items: number;
  /** Object keys left out. */
  keys: number;
  /** Strings cut short. */
  strings: number;
  /** Containers replaced by a summary (nested too deep, or a cycle). */
  summarised: number;
}

/** Smallest room a shortened value is given; below it the value is summarised or left out. */
const MIN_PIECE = 40;
/** Room kept at the end of an array for its `"[… N more items]"` marker. */
const ARRAY_MARKER_ROOM = 34;
/** Room kept at the end of an object for its marker listing the keys left out. */
const OBJECT_MARKER_ROOM = 120;

type Container = unknown[] | Record<string, unknown>;

interface Measured {
  /** Compact JSON length of each container, deep parts counted as their summaries. */
  readonly sizes: Map<object, number>;
  /** Containers written as a summary wherever they appear (nested deeper than the bound). */
  readonly summarised: Set<object>;
  /** Containers with a summarised container somewhere inside (never written whole). */
  readonly hasSummarised: Set<object>;
}

interface MeasureFrame {
  readonly node: Container;
  readonly keys: readonly string[] | undefined;
  readonly depth: number;
  index: number;
  size: number;
  inner: boolean;
}

function countOf(node: Container): number {
  return Array.isArray(node) ? node.length : Object.keys(node).length;
}

/** The one-line summary that stands for a container (a JSON string). */
function summaryOf(node: Container, reason: 'deep' | 'cycle'): string {
  if (reason === 'cycle') return JSON.stringify('[… circular reference]');
  return Array.isArray(node)
    ? JSON.stringify(`[… array of ${plural(node.length, 'item')}, nested too deep to show]`)
    : JSON.stringify(`{… object with ${plural(Object.keys(node).length, 'key')}, nested too deep to show}`);
}

function measure(root: Container, maxDepth: number): Measured {
  const sizes = new Map<object, number>();
  const summarised = new Set<object>();
  const hasSummarised = new Set<object>();
  const onPath = new Set<object>();
  const open = (node: Container, depth: number): MeasureFrame => {
    onPath.add(node);
    const keys = Array.isArray(node) ? undefined : Object.keys(node);
    const count = keys === undefined ? (node as unknown[]).length : keys.length;
    let size = 2 + Math.max(0, count - 1);
    if (keys !== undefined) for (const key of keys) size += jsonStringLength(key) + 1;
    return { node, keys, depth, index: 0, size, inner: false };
  };
  const stack: MeasureFrame[] = [open(root, 1)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as MeasureFrame;
    const count = frame.keys === undefined ? (frame.node as unknown[]).length : frame.keys.length;
    if (frame.index >= count) {
      stack.pop();
      onPath.delete(frame.node);
      sizes.set(frame.node, frame.size);
      if (frame.inner) hasSummarised.add(frame.node);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) {
        parent.size += frame.size;
        parent.inner ||= frame.inner;
      }
      continue;
    }
    const position = frame.index++;
    const child =
      frame.keys === undefined
        ? (frame.node as unknown[])[position]
        : (frame.node as Record<string, unknown>)[frame.keys[position] as string];
    if (!isContainer(child)) {
      frame.size += scalarJsonLength(child);
      continue;
    }
    const known = sizes.get(child);
    if (known !== undefined && !summarised.has(child)) {
      frame.size += known;
      frame.inner ||= hasSummarised.has(child);
      continue;
    }
    if (onPath.has(child)) {
      // A reference back to an ancestor (an application's object, never parsed JSON): written as a marker there.
      frame.size += summaryOf(child, 'cycle').length;
      frame.inner = true;
      continue;
    }
    if (summarised.has(child) || (frame.depth >= maxDepth && countOf(child) > 0)) {
      summarised.add(child);
      frame.size += summaryOf(child, 'deep').length;
      frame.inner = true;
      continue;
    }
    stack.push(open(child, frame.depth + 1));
  }
  return { sizes, summarised, hasSummarised };
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Characters one UTF-16 code unit takes in a JSON string (a lone surrogate half is escaped). */
function jsonCharWidth(code: number): number {
  if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) return 2;
  if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff)) return 6;
  return 1;
}

/** A string value cut to at most `room` characters of JSON, with a marker saying how much was cut. */
function cutString(text: string, room: number, omissions: JsonOmissions): string {
  // The marker's length with the most digits it could need, so the cut always fits.
  const markerRoom = ` … [cut: ${formatCount(text.length)} more characters]`.length;
  const target = room - 2 - markerRoom;
  let kept = 0;
  let length = 0;
  // Walk only as far as the room allows, whatever the string's length.
  while (kept < text.length) {
    const code = text.charCodeAt(kept);
    const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(kept + 1));
    const width = pair ? 2 : jsonCharWidth(code);
    if (length + width > target) break;
    length += width;
    kept += pair ? 2 : 1;
  }
  kept = cutBoundary(text, kept, 'back');
  omissions.strings++;
  return JSON.stringify(`${text.slice(0, kept)} … [cut: ${formatCount(text.length - kept)} more characters]`);
}

class JsonShortener {
  readonly #measured: Measured;
  readonly #maxDepth: number;
  /** The containers being written, outermost first: meeting one again is a cycle. */
  readonly #path = new Set<object>();
  readonly omissions: JsonOmissions = { items: 0, keys: 0, strings: 0, summarised: 0 };

  constructor(measured: Measured, maxDepth: number) {
    this.#measured = measured;
    this.#maxDepth = maxDepth;
  }

  /** Size of a value written whole, or `undefined` when it cannot be written whole. */
  #wholeSize(value: unknown): number | undefined {
    if (!isContainer(value)) return scalarJsonLength(value);
    if (this.#measured.summarised.has(value) || this.#measured.hasSummarised.has(value)) return undefined;
    return this.#measured.sizes.get(value);
  }

  /** JSON text of `value` in at most `room` characters (a summary when even that is too little). */
  write(value: unknown, room: number, depth: number): string {
    if (!isContainer(value)) {
      if (typeof value === 'string' && jsonStringLength(value) > room) return cutString(value, Math.max(room, MIN_PIECE), this.omissions);
      return scalarJson(value);
    }
    if (this.#measured.summarised.has(value) || this.#path.has(value)) {
      this.omissions.summarised++;
      return summaryOf(value, this.#path.has(value) ? 'cycle' : 'deep');
    }
    const whole = this.#wholeSize(value);
    if (whole !== undefined && whole <= room) return serializeJson(value);
    if (depth > this.#maxDepth || room < MIN_PIECE) {
      this.omissions.summarised++;
      return Array.isArray(value)
        ? JSON.stringify(`[… ${plural(value.length, 'item')}]`)
        : JSON.stringify(`{… ${plural(Object.keys(value).length, 'key')}}`);
    }
    this.#path.add(value);
    try {
      return Array.isArray(value) ? this.#writeArray(value, room, depth) : this.#writeObject(value, room, depth);
    } finally {
      this.#path.delete(value);
    }
  }

  #writeArray(array: unknown[], room: number, depth: number): string {
    const out: string[] = ['['];
    let used = 1;
    // A one-item array never needs its marker.
    const available = room - 1 - (array.length > 1 ? ARRAY_MARKER_ROOM : 0);
    let kept = 0;
    for (const item of array) {
      const separator = kept > 0 ? 1 : 0;
      const size = this.#wholeSize(item);
      if (size !== undefined && used + separator + size <= available) {
        if (separator) out.push(',');
        out.push(isContainer(item) ? serializeJson(item) : scalarJson(item));
        used += separator + size;
        kept++;
        continue;
      }
      // The first item does not fit whole: show it shortened, so the model sees the items' shape.
      if (kept === 0 && available - used >= MIN_PIECE) {
        const text = this.write(item, available - used, depth + 1);
        out.push(text);
        used += text.length;
        kept++;
      }
      break;
    }
    const left = array.length - kept;
    if (left > 0) {
      this.omissions.items += left;
      if (kept > 0) out.push(',');
      out.push(JSON.stringify(kept > 0 ? `[… ${plural(left, 'more item')}]` : `[… ${plural(left, 'item')}]`));
    }
    out.push(']');
    return out.join('');
  }

  #writeObject(object: Record<string, unknown>, room: number, depth: number): string {
    const keys = Object.keys(object);
    // Each entry takes at least 5 characters ("k":0,), so more keys than this cannot be shown.
    const considered = keys.slice(0, Math.max(1, Math.floor(room / 5)));
    const keyParts = considered.map((key) => jsonStringLength(key) + 1);
    const costs = considered.map((key, index) => {
      const size = this.#wholeSize(object[key]);
      return size === undefined ? Infinity : (keyParts[index] as number) + size + 1;
    });
    // Small entries whole, cheapest first, while each fits in a fair share of what is left.
    const order = considered.map((_, index) => index).sort((a, b) => (costs[a] as number) - (costs[b] as number) || a - b);
    let remaining = room - 2;
    const whole = new Array<boolean>(considered.length).fill(false);
    let position = 0;
    for (; position < order.length; position++) {
      const index = order[position] as number;
      const cost = costs[index] as number;
      if (cost > remaining / (order.length - position)) break;
      whole[index] = true;
      remaining -= cost;
    }
    // The large entries, in document order, each shortened into a share of what is left (at least an
    // eighth of the room, so a few are shown with substance rather than many as stubs); what a value
    // does not use goes to the next. Room for the marker listing the keys left out is kept when some may
    // be (not for one large entry alone: nested single-key objects would lose a quarter a level).
    let largeLeft = order.length - position;
    const markerRoom = largeLeft > 1 || considered.length < keys.length ? Math.min(OBJECT_MARKER_ROOM, Math.floor(room / 4)) : 0;
    remaining -= markerRoom;
    const minimumShare = Math.max(MIN_PIECE + 24, Math.floor(room / 8));
    const out: string[] = ['{'];
    const leftOut: string[] = [];
    let first = true;
    for (let index = 0; index < considered.length; index++) {
      const key = considered[index] as string;
      const value = object[key];
      const keyPart = keyParts[index] as number;
      let text: string | undefined;
      if (whole[index]) text = isContainer(value) ? serializeJson(value) : scalarJson(value);
      else {
        const share = Math.min(remaining, Math.max(minimumShare, Math.floor(remaining / Math.max(1, largeLeft))));
        largeLeft--;
        // A key too long for its share (a hostile 1 MB key) is left out, not cut.
        if (keyPart + 1 + MIN_PIECE <= share) {
          text = this.write(value, share - keyPart - 1, depth + 1);
          remaining -= keyPart + 1 + text.length;
        }
      }
      if (text === undefined) {
        leftOut.push(key);
        continue;
      }
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':', text);
    }
    const left = keys.length - considered.length + leftOut.length;
    if (left > 0) {
      this.omissions.keys += left;
      let markerKey = '…';
      while (Object.prototype.hasOwnProperty.call(object, markerKey)) markerKey += '…';
      const names = leftOut.slice(0, 8).map((key) => (key.length > 24 ? `${key.slice(0, cutBoundary(key, 24, 'back'))}…` : key));
      let description = `${plural(left, 'more key')} left out${names.length > 0 ? `: ${names.join(', ')}${left > names.length ? ', …' : ''}` : ''}`;
      const budget = markerRoom - jsonStringLength(markerKey) - 2 - (first ? 0 : 1);
      while (jsonStringLength(description) > budget && description.length > 24) {
        description = `${description.slice(0, cutBoundary(description, Math.floor(description.length * 0.8), 'back'))}…`;
      }
      if (!first) out.push(',');
      out.push(JSON.stringify(markerKey), ':', JSON.stringify(description));
    }
    out.push('}');
    return out.join('');
  }
}

/**
 * A function writing `value` (parsed JSON) as valid JSON text of at most about `room` characters,
 * shortened as the file header says, with what was left out counted. The sizes are measured once,
 * here, so trying several rooms costs only the writing. Deterministic.
 */
export function prepareJsonShortening(
  value: unknown,
  maxDepth: number,
): (room: number) => { readonly text: string; readonly omissions: JsonOmissions } {
  const measured: Measured = isContainer(value)
    ? measure(value, maxDepth)
    : { sizes: new Map(), summarised: new Set<object>(), hasSummarised: new Set<object>() };
  return (room) => {
    const shortener = new JsonShortener(measured, maxDepth);
    const text = shortener.write(value, room, 1);
    return { text, omissions: shortener.omissions };
  };
}

/** What was left out, in words for the note to the model (`12 array items left out`, ...). */
export function describeOmissions(omissions: JsonOmissions): string[] {
  const parts: string[] = [];
  if (omissions.items > 0) parts.push(`${plural(omissions.items, 'array item')} left out`);
  if (omissions.keys > 0) parts.push(`${plural(omissions.keys, 'object key')} left out`);
  if (omissions.strings > 0) parts.push(`${plural(omissions.strings, 'long string')} cut`);
  if (omissions.summarised > 0) parts.push(`${plural(omissions.summarised, 'nested value')} summarised`);
  return parts;
}
