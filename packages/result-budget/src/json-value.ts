// Reading and writing the JSON of results without losing what the model needs and without
// recursion: a result's text is parsed once, and numbers JavaScript cannot hold exactly (ids of 16
// and more digits, 1e400) keep their own text, so a shortened result shows the same digits.

/** A JSON number kept as written, because a JavaScript number would change it. */
export class RawNumber {
  /** The number's JSON text. */
  readonly raw: string;
  constructor(raw: string) {
    this.raw = raw;
  }
}

/**
 * A number token (after `:`, `[` or `,`) of 16 or more digits, or with a 3-digit exponent: only
 * then does the slower lossless parse run. Digits inside strings rarely match (and a false match
 * only costs time).
 */
const MAY_LOSE_PRECISION = /[:[,]\s*-?(?:\d{16}|\d+(?:\.\d+)?[eE][+-]?\d{3})/;

/** Number of JSON text, or a {@link RawNumber} when converting it would change its digits. */
function readNumber(raw: string): number | RawNumber {
  const value = Number(raw);
  if (!Number.isFinite(value) || (raw.length > 15 && String(value) !== raw)) return new RawNumber(raw);
  return value;
}

type Container = unknown[] | Record<string, unknown>;

interface ParseFrame {
  readonly container: Container;
  key: string | undefined;
}

function setEntry(frame: ParseFrame, value: unknown): void {
  if (Array.isArray(frame.container)) {
    frame.container.push(value);
    return;
  }
  const key = frame.key as string;
  // An own property named "__proto__", as JSON.parse makes, not a change of prototype.
  if (key === '__proto__') Object.defineProperty(frame.container, key, { value, enumerable: true, writable: true, configurable: true });
  else frame.container[key] = value;
  frame.key = undefined;
}

/** Parse JSON text already known to be valid (JSON.parse accepted it), numbers kept exact. */
function parseValidLossless(text: string): unknown {
  const stack: ParseFrame[] = [];
  let root: unknown;
  const put = (value: unknown): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) root = value;
    else setEntry(top, value);
  };
  let index = 0;
  const length = text.length;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x2c || code === 0x3a) {
      index++;
    } else if (code === 0x7b || code === 0x5b) {
      const container: Container = code === 0x7b ? {} : [];
      put(container);
      stack.push({ container, key: undefined });
      index++;
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
      index++;
    } else if (code === 0x22) {
      // The closing quote: the next quote not preceded by an odd number of backslashes.
      let end = text.indexOf('"', index + 1);
      while (end !== -1) {
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) end = length;
      const raw = text.slice(index + 1, end);
      const value = raw.includes('\\') ? (JSON.parse(text.slice(index, end + 1)) as string) : raw;
      index = end + 1;
      const top = stack[stack.length - 1];
      if (top !== undefined && !Array.isArray(top.container) && top.key === undefined) top.key = value;
      else put(value);
    } else if (code === 0x74 || code === 0x66 || code === 0x6e) {
      put(code === 0x74 ? true : code === 0x66 ? false : null);
      index += code === 0x66 ? 5 : 4;
    } else {
      let end = index + 1;
      while (end < length) {
        const next = text.charCodeAt(end);
        if ((next >= 0x30 && next <= 0x39) || next === 0x2e || next === 0x65 || next === 0x45 || next === 0x2b || next === 0x2d) end++;
        else break;
      }
      put(readNumber(text.slice(index, end)));
      index = end;
    }
  }
  return root;
}

/**
 * Parse `text` as JSON, or `undefined` when it is not JSON. `JSON.parse` decides (it is not
 * recursive, so any depth parses); numbers it would change are then read again exactly.
 */
export function parseJsonText(text: string): { readonly value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return { value: MAY_LOSE_PRECISION.test(text) ? parseValidLossless(text) : value };
}

/** True for an array or a plain-data object (what JSON holds), never a {@link RawNumber}. */
export function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null && !(value instanceof RawNumber);
}

/** JSON text of a scalar (`undefined`, functions and symbols become `null`, as in an array). */
export function scalarJson(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return String(value);
  if (value instanceof RawNumber) return value.raw;
  return 'null';
}

/** Characters JSON writes escaped: quote, backslash, controls, and surrogate halves (a lone one is escaped). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Length of `JSON.stringify(text)` without building it. */
export function jsonStringLength(text: string): number {
  if (!NEEDS_CARE.test(text)) return text.length + 2;
  let length = 2;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) length += 2;
    else if (code < 0x20) length += 6;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A pair is written as is; a lone half as \uXXXX.
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        index++;
      } else length += 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) length += 6;
    else length += 1;
  }
  return length;
}

/** Length of a scalar's JSON text. */
export function scalarJsonLength(value: unknown): number {
  return typeof value === 'string' ? jsonStringLength(value) : scalarJson(value).length;
}

interface WriteFrame {
  readonly node: Container;
  readonly keys: readonly string[] | undefined;
  index: number;
}

/**
 * Compact JSON text of `value` with a stack of its own (no recursion, so any depth), writing
 * {@link RawNumber}s as they were read. Cycles are written as `null`.
 */
export function serializeJson(value: unknown): string {
  if (!isContainer(value)) return scalarJson(value);
  const out: string[] = [];
  const onPath = new Set<object>();
  const open = (node: Container): WriteFrame => {
    onPath.add(node);
    out.push(Array.isArray(node) ? '[' : '{');
    return { node, keys: Array.isArray(node) ? undefined : Object.keys(node), index: 0 };
  };
  const stack: WriteFrame[] = [open(value)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as WriteFrame;
    const count = frame.keys === undefined ? (frame.node as unknown[]).length : frame.keys.length;
    if (frame.index >= count) {
      out.push(frame.keys === undefined ? ']' : '}');
      onPath.delete(frame.node);
      stack.pop();
      continue;
    }
    const position = frame.index++;
    if (position > 0) out.push(',');
    let child: unknown;
    if (frame.keys === undefined) child = (frame.node as unknown[])[position];
    else {
      const key = frame.keys[position] as string;
      out.push(JSON.stringify(key), ':');
      child = (frame.node as Record<string, unknown>)[key];
    }
    if (isContainer(child) && !onPath.has(child)) stack.push(open(child));
    else out.push(isContainer(child) ? 'null' : scalarJson(child));
  }
  return out.join('');
}
