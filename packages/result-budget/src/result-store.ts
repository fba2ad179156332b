import type { InlineDataPart } from '@toolhost/contract';
import { formatBytes } from './format-count.js';
import { ResultBudgetError } from './result-budget-error.js';

/** What is kept of a full tool result (see {@link ResultStore}). */
export interface StoredResultInput {
  /** The result's full text, the text the model pages through (see `resultText`). */
  readonly text: string;
  /** The result's images, audio clips and blobs, in order. */
  readonly media?: readonly InlineDataPart[] | undefined;
  /** The server the result came from, for the application (never shown to the model by the store). */
  readonly serverName?: string | undefined;
  /** The tool that returned it. */
  readonly toolName?: string | undefined;
}

/** A stored full result, as {@link ResultStore.get} returns it. */
export interface StoredResult extends StoredResultInput {
  /** The id the store gave it. */
  readonly id: string;
  /** Its images, audio clips and blobs (empty when it had none). */
  readonly media: readonly InlineDataPart[];
  /** When it was stored (milliseconds since the epoch). */
  readonly createdAt: number;
  /** When it expires (milliseconds since the epoch). */
  readonly expiresAt: number;
  /** Its size as the store counts it (see {@link storedResultSize}). */
  readonly size: number;
}

/**
 * Where full tool results wait to be paged through: bounded (per entry and in total), expiring,
 * the oldest removed first when full. Ids are made by the store, random and unguessable (see
 * {@link createResultId}), never derived from the content, so a model or another user cannot name
 * a result it was not given. Implementations: `MemoryResultStore` here, `FileResultStore` in
 * `@toolhost/result-budget/node`; a Keyv one belongs in `@toolhost/stores` beside its other Keyv stores.
 */
export interface ResultStore {
  /**
   * Store a full result and return its new id. Rejects with `RESULT_TOO_LARGE` when it is larger
   * than one entry may be, and `STORE_FAILED` when the store cannot write.
   */
  put(result: StoredResultInput): Promise<string>;
  /** The result stored under `id`, or `undefined` when there is none (unknown, expired, evicted, or not an id). */
  get(id: string): Promise<StoredResult | undefined>;
  /** Remove a result; `true` when there was one. */
  delete(id: string): Promise<boolean>;
}

/** Bounds shared by the stores of this package. */
export interface ResultStoreLimits {
  /** Largest entry, in bytes (see {@link storedResultSize}). @default DEFAULT_MAX_ENTRY_BYTES */
  readonly maxEntryBytes?: number | undefined;
  /** Most bytes of all entries together; the oldest go first. @default DEFAULT_MAX_TOTAL_BYTES */
  readonly maxTotalBytes?: number | undefined;
  /** Most entries; the oldest go first. @default DEFAULT_MAX_ENTRIES */
  readonly maxEntries?: number | undefined;
  /** How long an entry lives, in milliseconds. @default DEFAULT_RESULT_TTL_MS */
  readonly ttlMs?: number | undefined;
  /** The clock (milliseconds since the epoch), for tests. @default Date.now */
  readonly now?: (() => number) | undefined;
}

/** Default largest entry: 32 MiB, above any single result a transport lets through by default. */
export const DEFAULT_MAX_ENTRY_BYTES = 32 * 1024 * 1024;
/** Default total of all entries: 128 MiB. */
export const DEFAULT_MAX_TOTAL_BYTES = 128 * 1024 * 1024;
/** Default most entries: 1,000. */
export const DEFAULT_MAX_ENTRIES = 1000;
/** Default lifetime of an entry: one hour, long enough for a conversation to page through it. */
export const DEFAULT_RESULT_TTL_MS = 60 * 60 * 1000;

/** The bounds with defaults filled in and checked. */
export interface ResolvedStoreLimits {
  readonly maxEntryBytes: number;
  readonly maxTotalBytes: number;
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly now: () => number;
}

/** Fill in and check the bounds of a store (`INVALID_OPTIONS` naming the field). */
export function resolveStoreLimits(storeName: string, limits: ResultStoreLimits): ResolvedStoreLimits {
  const check = (field: keyof ResultStoreLimits, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new ResultBudgetError({
        code: 'INVALID_OPTIONS',
        message: `${storeName}: ${field} must be a positive number; got ${String(value)}.`,
      });
    }
    return value;
  };
  const maxEntryBytes = check('maxEntryBytes', limits.maxEntryBytes, DEFAULT_MAX_ENTRY_BYTES);
  const maxTotalBytes = check('maxTotalBytes', limits.maxTotalBytes, DEFAULT_MAX_TOTAL_BYTES);
  return {
    maxEntryBytes: Math.min(maxEntryBytes, maxTotalBytes),
    maxTotalBytes,
    maxEntries: Math.floor(check('maxEntries', limits.maxEntries, DEFAULT_MAX_ENTRIES)),
    ttlMs: check('ttlMs', limits.ttlMs, DEFAULT_RESULT_TTL_MS),
    now: limits.now ?? Date.now,
  };
}

// Anything but printable ASCII, tab and line breaks: only such text needs the counting loop (which counts
// other control characters right too).
const NON_ASCII = /[^ -~\t\n\r]/;

/** UTF-8 bytes of `text`, counted without encoding it. */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The size a store counts for an entry: the UTF-8 bytes of its text, plus each media part's
 * base64 and MIME type, plus the names.
 */
export function storedResultSize(result: StoredResultInput): number {
  let size = utf8Length(result.text) + utf8Length(result.serverName ?? '') + utf8Length(result.toolName ?? '');
  for (const part of result.media ?? []) size += part.data.length + utf8Length(part.mimeType) + utf8Length(part.uri ?? '') + 16;
  return size;
}

/** `RESULT_TOO_LARGE` for an entry over the per-entry bound. */
export function tooLargeError(storeName: string, size: number, maxEntryBytes: number): ResultBudgetError {
  return new ResultBudgetError({
    code: 'RESULT_TOO_LARGE',
    message: `${storeName}: the full result is ${formatBytes(size)}, more than the ${formatBytes(maxEntryBytes)} one entry may hold (maxEntryBytes), so it was not stored and cannot be paged through.`,
  });
}

const ID_PREFIX = 'res_';
/** Random bytes in an id: 192 bits, written as 32 base64url characters. */
const ID_RANDOM_BYTES = 24;
const ID_PATTERN = /^res_[A-Za-z0-9_-]{32}$/;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A new result id: `res_` and 32 base64url characters of 192 random bits from the platform's
 * cryptographic generator (`crypto.getRandomValues`), so ids cannot be guessed and say nothing
 * about the result.
 *
 * @example
 * ```ts
 * createResultId(); // 'res_4fJ0…' (36 characters)
 * ```
 */
export function createResultId(): string {
  const bytes = new Uint8Array(ID_RANDOM_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  let out = ID_PREFIX;
  for (let index = 0; index < bytes.length; index += 3) {
    const value = ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number);
    out += `${BASE64URL[(value >> 18) & 63]}${BASE64URL[(value >> 12) & 63]}${BASE64URL[(value >> 6) & 63]}${BASE64URL[value & 63]}`;
  }
  return out;
}

/** True when `value` has the form of an id {@link createResultId} makes (nothing else reaches a store's files). */
export function isResultId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
