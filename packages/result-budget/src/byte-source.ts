// Random access to the bytes of base64 data without decoding all of it: a header parser reads a
// few dozen bytes of a 10 MB image, so only the 4-character groups holding those bytes are decoded.

/** The bytes of an inline-data part, read one at a time. */
export interface ByteSource {
  /** How many bytes there are (for base64 without line breaks, exact; otherwise an upper bound). */
  readonly length: number;
  /** The byte at `index`, or -1 when out of range or not valid base64 there. */
  at(index: number): number;
}

const DECODE = new Int16Array(128).fill(-1);
for (const [index, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  DECODE[char.charCodeAt(0)] = index;
}
// base64url too: a server may send it although MCP says base64.
DECODE['-'.charCodeAt(0)] = 62;
DECODE['_'.charCodeAt(0)] = 63;

function decodeChar(text: string, index: number): number {
  if (index >= text.length) return -2;
  const code = text.charCodeAt(index);
  if (code === 61) return -2; // '=' padding
  return code < 128 ? (DECODE[code] as number) : -1;
}

class Base64Bytes implements ByteSource {
  readonly length: number;
  readonly #text: string;
  #group = -1;
  #bytes = [0, 0, 0];
  #valid = 0;

  constructor(text: string) {
    this.#text = text;
    let padding = 0;
    if (text.endsWith('==')) padding = 2;
    else if (text.endsWith('=')) padding = 1;
    this.length = Math.max(0, Math.floor((text.length * 3) / 4) - padding);
  }

  at(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return -1;
    const group = Math.floor(index / 3);
    if (group !== this.#group) this.#decode(group);
    const offset = index % 3;
    return offset < this.#valid ? (this.#bytes[offset] as number) : -1;
  }

  #decode(group: number): void {
    this.#group = group;
    const base = group * 4;
    const a = decodeChar(this.#text, base);
    const b = decodeChar(this.#text, base + 1);
    const c = decodeChar(this.#text, base + 2);
    const d = decodeChar(this.#text, base + 3);
    // A line break or another stray character makes positions meaningless from here on: report
    // nothing rather than misread (the caller then falls back to a size-based estimate).
    if (a < 0 || b < 0 || c === -1 || d === -1) {
      this.#valid = 0;
      return;
    }
    this.#bytes = [(a << 2) | (b >> 4), ((b & 15) << 4) | (c < 0 ? 0 : c >> 2), ((c < 0 ? 0 : c & 3) << 6) | (d < 0 ? 0 : d)];
    this.#valid = c < 0 ? 1 : d < 0 ? 2 : 3;
  }
}

class ArrayBytes implements ByteSource {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  get length(): number {
    return this.#bytes.length;
  }
  at(index: number): number {
    return Number.isInteger(index) && index >= 0 && index < this.#bytes.length ? (this.#bytes[index] as number) : -1;
  }
}

/** Bytes of base64 text (the `data` of an MCP image, audio or blob) or of raw bytes. */
export function byteSource(data: string | Uint8Array): ByteSource {
  return typeof data === 'string' ? new Base64Bytes(data) : new ArrayBytes(data);
}

/** Big-endian unsigned integer of `size` bytes at `offset`, or -1 when any byte is missing. */
export function readUintBE(source: ByteSource, offset: number, size: number): number {
  let value = 0;
  for (let index = 0; index < size; index++) {
    const byte = source.at(offset + index);
    if (byte < 0) return -1;
    value = value * 256 + byte;
  }
  return value;
}

/** Little-endian unsigned integer of `size` bytes at `offset`, or -1 when any byte is missing. */
export function readUintLE(source: ByteSource, offset: number, size: number): number {
  let value = 0;
  for (let index = size - 1; index >= 0; index--) {
    const byte = source.at(offset + index);
    if (byte < 0) return -1;
    value = value * 256 + byte;
  }
  return value;
}

/** True when the bytes at `offset` are the ASCII characters of `text`. */
export function bytesEqual(source: ByteSource, offset: number, text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    if (source.at(offset + index) !== text.charCodeAt(index)) return false;
  }
  return true;
}
