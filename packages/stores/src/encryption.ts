import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { StoresError } from './stores-error.js';

/**
 * The keys tokens are encrypted with (AES-256-GCM), supplied by the operator. Reads accept a
 * value written with any key listed in `keys`; writes use `current`. To rotate: add the new key,
 * make it `current`, re-encrypt every user's tokens (`tokens.reencrypt()`), then drop the old key.
 *
 * @example
 * ```ts
 * const encryption: StoresEncryption = {
 *   keys: { '2026-10': process.env['TOOLHOST_TOKEN_KEY'] ?? '' }, // `openssl rand -base64 32`
 *   current: '2026-10',
 * };
 * ```
 */
export interface StoresEncryption {
  /** Key id → a 32-byte key, as bytes or base64 text. Ids are 1 to 64 of `A-Z a-z 0-9 . _ -`; each is stored next to what it encrypted. */
  readonly keys: Readonly<Record<string, Uint8Array | string>>;
  /** The id of the key new writes use; one of `keys`. */
  readonly current: string;
}

/** How a sealed (encrypted) value is stored. */
export interface SealedValue {
  /** Marks the value as sealed by `@toolhost/stores`. */
  readonly sealed: 'toolhost-stores';
  /** Format version. */
  readonly v: 1;
  /** The cipher: AES-256-GCM. */
  readonly alg: 'A256GCM';
  /** Id of the key it was encrypted with. */
  readonly kid: string;
  /** The 12-byte IV, base64url. */
  readonly iv: string;
  /** The ciphertext, base64url. */
  readonly ct: string;
  /** The 16-byte authentication tag, base64url. */
  readonly tag: string;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Encrypts and decrypts the values of one store; keys checked once, at creation. */
export class Sealer {
  readonly #keys: ReadonlyMap<string, Buffer>;
  /** The id of the key writes use. */
  readonly currentKeyId: string;

  /** Check `encryption` and keep its keys. @throws StoresError `INVALID_OPTIONS` naming the key id */
  constructor(encryption: StoresEncryption) {
    const keys = new Map<string, Buffer>();
    if (typeof encryption !== 'object' || encryption === null || typeof encryption.keys !== 'object' || encryption.keys === null) {
      throw invalid('`encryption` must be `{ keys: { <key id>: <32-byte key> }, current: <key id> }`.');
    }
    for (const [keyId, key] of Object.entries(encryption.keys)) {
      if (!KEY_ID.test(keyId))
        throw invalid(`the key id "${keyId}" of \`encryption.keys\` must be 1 to 64 of A-Z, a-z, 0-9, ".", "_", "-".`, keyId);
      keys.set(keyId, decodeKey(keyId, key));
    }
    if (!keys.has(encryption.current)) {
      throw invalid(
        `\`encryption.current\` is "${String(encryption.current)}", which is not one of the keys given (${[...keys.keys()].join(', ') || 'none'}). Name the key new writes use.`,
        typeof encryption.current === 'string' ? encryption.current : undefined,
      );
    }
    this.#keys = keys;
    this.currentKeyId = encryption.current;
  }

  /** Encrypt `value` (as JSON) for `storageKey` with the current key and a fresh random IV. */
  seal(storageKey: string, value: unknown): SealedValue {
    const kid = this.currentKeyId;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#keys.get(kid) as Buffer, iv);
    cipher.setAAD(additionalData(kid, storageKey));
    const ct = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return {
      sealed: 'toolhost-stores',
      v: 1,
      alg: 'A256GCM',
      kid,
      iv: iv.toString('base64url'),
      ct: ct.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
  }

  /**
   * Decrypt what {@link seal} wrote for the same `storageKey`. `where` describes the value in errors.
   * @throws StoresError `STORE_DECRYPT_FAILED` naming the key id: unknown key id, wrong key, altered or moved value
   */
  open(storageKey: string, sealed: SealedValue, where: { user: string; what: string }): unknown {
    const key = this.#keys.get(sealed.kid);
    if (key === undefined) {
      throw new StoresError({
        code: 'STORE_DECRYPT_FAILED',
        user: where.user,
        keyId: sealed.kid,
        message: `The ${where.what} of user "${where.user}" were encrypted with key id "${sealed.kid}", which is not among the keys configured (${[...this.#keys.keys()].join(', ')}). Add that key to \`encryption.keys\` (keep old keys until every user's values are re-encrypted with \`tokens.reencrypt()\`).`,
      });
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
      decipher.setAAD(additionalData(sealed.kid, storageKey));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
      const text = Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]).toString('utf8');
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new StoresError({
        code: 'STORE_DECRYPT_FAILED',
        user: where.user,
        keyId: sealed.kid,
        cause: error,
        message: `The ${where.what} of user "${where.user}" could not be decrypted with key id "${sealed.kid}": the key configured under that id is not the one they were encrypted with, or the stored value was altered or copied from another user's or another place's value. Nothing was read; check \`encryption.keys["${sealed.kid}"]\`.`,
      });
    }
  }
}

/** True when `value` has the shape {@link Sealer.seal} writes (the IV, ciphertext and tag are checked when opened). */
export function isSealedValue(value: unknown): value is SealedValue {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record['sealed'] === 'toolhost-stores' &&
    record['v'] === 1 &&
    record['alg'] === 'A256GCM' &&
    typeof record['kid'] === 'string' &&
    typeof record['iv'] === 'string' &&
    typeof record['ct'] === 'string' &&
    typeof record['tag'] === 'string'
  );
}

/** Binds a ciphertext to its key id and to where it is stored (which names the user and the document). */
function additionalData(keyId: string, storageKey: string): Buffer {
  return Buffer.from(`toolhost-stores sealed v1\n${keyId}\n${storageKey}`, 'utf8');
}

function decodeKey(keyId: string, key: Uint8Array | string): Buffer {
  let bytes: Buffer | undefined;
  if (typeof key === 'string') {
    const text = key.trim();
    if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  } else if (key instanceof Uint8Array) {
    bytes = Buffer.from(key);
  }
  if (bytes === undefined || bytes.length !== 32) {
    throw invalid(
      `the key "${keyId}" of \`encryption.keys\` must be 32 bytes (AES-256), as bytes or base64 text; ${bytes === undefined ? 'it is neither' : `it is ${bytes.length} bytes`}. Create one with \`openssl rand -base64 32\`.`,
      keyId,
    );
  }
  return bytes;
}

function invalid(detail: string, keyId?: string): StoresError {
  return new StoresError({ code: 'INVALID_OPTIONS', keyId, message: `createKeyvStores: ${detail}` });
}
