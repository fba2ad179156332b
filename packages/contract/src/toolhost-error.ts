import type { ErrorCode } from './error-codes.js';

// One brand for every toolhost error; its value is the error's family. `Symbol.for` makes it
// the same symbol in every copy of every toolhost package loaded into the process.
const BRAND = Symbol.for('toolhost.error');

/** The fields every toolhost error is created with (each error class may add its own). */
export interface ToolhostErrorOptions<C extends ErrorCode = ErrorCode> {
  /** The stable code; match on it, never on `message`. */
  readonly code: C;
  /** What happened, to which server or file, and what the user can do. */
  readonly message: string;
  /** The MCP server involved, when there is one. */
  readonly serverName?: string | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/** A class of toolhost errors, as `isInstance` sees it. */
export interface ErrorFamily<T> {
  /** The family name the class's errors are branded with. */
  readonly family: string;
  /** Instances of the class. */
  readonly prototype: T;
}

/**
 * The base of every error a toolhost package raises or reports. Each package's errors extend it
 * (`ConfigError`, `TransportError`, `HostError`, ...), are created the same way
 * (`new XError({ code, message, serverName?, cause?, ...fields })`), and carry one of the codes
 * of {@link ERROR_CODES}.
 *
 * Use `isInstance` rather than `instanceof`: it also recognises errors from another copy of a
 * toolhost package (two versions installed side by side).
 *
 * @example
 * ```ts
 * try {
 *   await host.servers.authenticate({ serverName: 'github' });
 * } catch (error) {
 *   if (ToolhostError.isInstance(error) && error.code === 'AUTH_REQUIRED') console.log(error.message);
 *   else throw error;
 * }
 * ```
 */
export class ToolhostError<C extends ErrorCode = ErrorCode> extends Error {
  /** The family of this class's errors; each subclass sets its own. */
  static readonly family: string = 'toolhost';
  /** The codes errors of this class can carry. */
  static readonly codes: readonly ErrorCode[] = [];

  /** The stable code; see {@link ERROR_CODES}. */
  readonly code: C;
  /** The MCP server involved, when there is one. */
  readonly serverName: string | undefined;
  /** The error's family (`config`, `transport`, `host`, ...), the same as its class's `family`. */
  declare readonly family: string;

  /** Create an error; every toolhost error class takes this one options object (plus its own fields). */
  constructor(options: ToolhostErrorOptions<C>) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    const family = (new.target as unknown as ErrorFamily<unknown>).family;
    this.name = new.target.name;
    this.code = options.code;
    this.serverName = options.serverName;
    Object.defineProperty(this, 'family', { value: family, enumerable: false });
    Object.defineProperty(this, BRAND, { value: family, enumerable: false });
  }

  /**
   * True for an error of this class, also from another copy of its package. On
   * `ToolhostError` itself: true for any toolhost error.
   */
  static isInstance<T>(this: ErrorFamily<T>, value: unknown): value is T {
    if (typeof value !== 'object' || value === null) return false;
    const brand = (value as Record<symbol, unknown>)[BRAND];
    return typeof brand === 'string' && (this.family === ToolhostError.family || brand === this.family);
  }
}

/** How deep {@link findErrorInChain} follows `cause` links (guards against absurd chains). */
const MAX_CAUSE_DEPTH = 16;

/**
 * Walk `error` and its `cause` chain (cycles and absurd depths are cut) and return the last
 * (deepest) error that `predicate` accepts, or the first when `deepest` is false.
 *
 * @example
 * ```ts
 * // The root cause of a failed connection, such as an OAuth AUTH_REQUIRED under a CONNECT_FAILED:
 * const root = findErrorInChain(error, (e) => ToolhostError.isInstance(e));
 * ```
 */
export function findErrorInChain<T>(
  error: unknown,
  predicate: (value: unknown) => value is T,
  options: { readonly deepest?: boolean } = {},
): T | undefined {
  const deepest = options.deepest ?? true;
  const seen = new Set<unknown>();
  let found: T | undefined;
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null && !seen.has(current); depth++) {
    seen.add(current);
    if (predicate(current)) {
      found = current;
      if (!deepest) return found;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}
