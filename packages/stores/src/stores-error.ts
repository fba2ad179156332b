import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const STORES_ERROR_CODES = [
  'INVALID_OPTIONS',
  'STORE_FAILED',
  'STORE_DECRYPT_FAILED',
  'STORE_LOCK_TIMEOUT',
] as const satisfies readonly ErrorCode[];

/** Codes of {@link StoresError}. */
export type StoresErrorCode = (typeof STORES_ERROR_CODES)[number];

/** Fields of a {@link StoresError}. */
export interface StoresErrorOptions extends ToolhostErrorOptions<StoresErrorCode> {
  /** The user whose stores were involved. */
  readonly user?: string | undefined;
  /** The encryption key id involved (`STORE_DECRYPT_FAILED`, or a bad key in `INVALID_OPTIONS`). */
  readonly keyId?: string | undefined;
  /** The lock involved (`STORE_LOCK_TIMEOUT`). */
  readonly lockName?: string | undefined;
}

/**
 * An error of `@toolhost/stores`: options that cannot work (`INVALID_OPTIONS`), a backend that
 * failed (`STORE_FAILED`), a value that cannot be decrypted (`STORE_DECRYPT_FAILED`, naming the
 * key id), or a lock another instance held too long (`STORE_LOCK_TIMEOUT`).
 *
 * @example
 * ```ts
 * if (StoresError.isInstance(error) && error.code === 'STORE_DECRYPT_FAILED') console.log(`key ${error.keyId}`);
 * ```
 */
export class StoresError extends ToolhostError<StoresErrorCode> {
  static override readonly family = 'stores';
  static override readonly codes = STORES_ERROR_CODES;
  /** The user whose stores were involved. */
  readonly user: string | undefined;
  /** The encryption key id involved. */
  readonly keyId: string | undefined;
  /** The lock involved (`STORE_LOCK_TIMEOUT`). */
  readonly lockName: string | undefined;

  /** Create an error; see {@link StoresErrorOptions}. */
  constructor(options: StoresErrorOptions) {
    super(options);
    this.user = options.user;
    this.keyId = options.keyId;
    this.lockName = options.lockName;
  }
}

/** The message of an unknown thrown value. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
