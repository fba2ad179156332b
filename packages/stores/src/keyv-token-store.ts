import type { StoredOAuthCredentials, TokenStore } from '@toolhost/oauth';
import { isSealedValue, type Sealer } from './encryption.js';
import { StoresError } from './stores-error.js';
import type { UserStoreContext } from './user-store-context.js';
import { userDocumentKey, userLockId } from './user-keys.js';

/** The plaintext of a user's token document. */
interface TokenDocument {
  readonly format: 'toolhost-oauth-tokens';
  readonly v: 1;
  readonly entries: StoredOAuthCredentials[];
}

const WHAT = 'OAuth tokens';

/** What {@link KeyvTokenStore.reencrypt} did. */
export interface ReencryptResult {
  /** Entries re-encrypted (0 when the user has none stored). */
  readonly entries: number;
  /** The key id they are encrypted with now (`encryption.current`). */
  readonly keyId: string;
}

/**
 * A `TokenStore` of `@toolhost/oauth` for one user, on a Keyv backend: every entry of the user
 * (tokens, client registration, DPoP key) is kept in one document, encrypted with AES-256-GCM
 * (`encryption` of `createKeyvStores`) and bound to the user and the document, so a value copied
 * to another user's place does not decrypt. Changes take a lock shared by every instance, so two
 * instances writing different servers' tokens never lose one. Create it with `createKeyvStores`.
 */
export class KeyvTokenStore implements TokenStore {
  readonly #context: UserStoreContext;
  readonly #sealer: Sealer | undefined;
  readonly #unencrypted: boolean;
  readonly #key: string;

  /** @internal Created by `createKeyvStores`. */
  constructor(context: UserStoreContext, sealer: Sealer | undefined, unencrypted: boolean) {
    this.#context = context;
    this.#sealer = sealer;
    this.#unencrypted = unencrypted;
    this.#key = userDocumentKey(context.user, 'oauth-tokens');
  }

  /** The user whose tokens these are. */
  get user(): string {
    return this.#context.user;
  }

  /** The entry for `serverName` and `issuer`; without `issuer`, the most recently updated one of the server. */
  async get(serverName: string, issuer?: string): Promise<StoredOAuthCredentials | undefined> {
    const matching = (await this.#read()).filter((e) => e.serverName === serverName && (issuer === undefined || e.issuer === issuer));
    return matching.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  }

  /**
   * Stores an entry, replacing the one with the same server name and issuer.
   * @throws StoresError `INVALID_OPTIONS` when the stores were created with neither `encryption` nor `unencrypted: true`
   */
  async set(credentials: StoredOAuthCredentials): Promise<void> {
    this.#checkWritable();
    await this.#change((entries) => [
      ...entries.filter((e) => !(e.serverName === credentials.serverName && e.issuer === credentials.issuer)),
      credentials,
    ]);
  }

  /** Deletes the entry for `serverName` and `issuer`, or every entry of the server without `issuer`. */
  async delete(serverName: string, issuer?: string): Promise<void> {
    await this.#change((entries) => entries.filter((e) => !(e.serverName === serverName && (issuer === undefined || e.issuer === issuer))));
  }

  /** Every stored entry of the user. */
  async list(): Promise<StoredOAuthCredentials[]> {
    return this.#read();
  }

  /**
   * Runs `work` holding the lock `name` of this user, exclusive across every process that shares
   * the backend (Redis `SET NX PX` lease, PostgreSQL advisory lock, SQLite lease), e.g. so that
   * one instance refreshes a token while the others wait and then read the new one. Not
   * reentrant. @throws StoresError `STORE_LOCK_TIMEOUT` when another instance holds it past `lockWaitMs`
   */
  withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.#context.access.withLock(userLockId(this.#context.user, 'app', name), work, this.#context.timing);
  }

  /**
   * Re-encrypts the user's entries with the current key (`encryption.current`): the step of a key
   * rotation that lets the old key be dropped. With `acceptUnencrypted`, entries stored in plain
   * text (by stores created with `unencrypted: true`) are encrypted too; otherwise they are an error.
   * @throws StoresError `INVALID_OPTIONS` without `encryption`; `STORE_DECRYPT_FAILED` when a key is missing or wrong
   */
  async reencrypt(options: { readonly acceptUnencrypted?: boolean } = {}): Promise<ReencryptResult> {
    const sealer = this.#sealer;
    if (sealer === undefined) {
      throw new StoresError({
        code: 'INVALID_OPTIONS',
        user: this.user,
        message: `Cannot re-encrypt the OAuth tokens of user "${this.user}": these stores were created without \`encryption\`. Pass \`encryption: { keys, current }\` to createKeyvStores.`,
      });
    }
    return this.#context.access.withLock(
      userLockId(this.user, 'write', 'oauth-tokens'),
      async () => {
        const stored = await this.#context.access.read(this.#key, WHAT);
        if (stored === undefined) return { entries: 0, keyId: sealer.currentKeyId };
        const entries = this.#decode(stored, options.acceptUnencrypted === true);
        await this.#context.access.write(this.#key, sealer.seal(this.#key, this.#document(entries)), WHAT);
        return { entries: entries.length, keyId: sealer.currentKeyId };
      },
      this.#context.timing,
    );
  }

  async #read(): Promise<StoredOAuthCredentials[]> {
    const stored = await this.#context.access.read(this.#key, WHAT);
    return stored === undefined ? [] : this.#decode(stored, false);
  }

  async #change(apply: (entries: StoredOAuthCredentials[]) => StoredOAuthCredentials[]): Promise<void> {
    await this.#context.access.withLock(
      userLockId(this.user, 'write', 'oauth-tokens'),
      async () => {
        const stored = await this.#context.access.read(this.#key, WHAT);
        const entries = apply(stored === undefined ? [] : this.#decode(stored, false));
        if (entries.length === 0) {
          await this.#context.access.remove(this.#key, WHAT);
          return;
        }
        this.#checkWritable();
        const document = this.#document(entries);
        await this.#context.access.write(this.#key, this.#sealer ? this.#sealer.seal(this.#key, document) : document, WHAT);
      },
      this.#context.timing,
    );
  }

  #document(entries: StoredOAuthCredentials[]): TokenDocument {
    return { format: 'toolhost-oauth-tokens', v: 1, entries };
  }

  #checkWritable(): void {
    if (this.#sealer === undefined && !this.#unencrypted) {
      throw new StoresError({
        code: 'INVALID_OPTIONS',
        user: this.user,
        message: `Refusing to store OAuth tokens of user "${this.user}" unencrypted: pass \`encryption: { keys: { <key id>: <32-byte key> }, current: <key id> }\` to createKeyvStores, or \`unencrypted: true\` to store tokens in plain text on purpose.`,
      });
    }
  }

  /** The entries of a stored document: decrypted when sealed; plain only when the stores are unencrypted (or `acceptPlain`). */
  #decode(stored: unknown, acceptPlain: boolean): StoredOAuthCredentials[] {
    let document: unknown;
    if (isSealedValue(stored)) {
      if (this.#sealer === undefined) {
        throw new StoresError({
          code: 'STORE_DECRYPT_FAILED',
          user: this.user,
          keyId: stored.kid,
          message: `The OAuth tokens of user "${this.user}" are encrypted with key id "${stored.kid}", but these stores were created without \`encryption\`. Pass \`encryption\` with that key to createKeyvStores.`,
        });
      }
      document = this.#sealer.open(this.#key, stored, { user: this.user, what: WHAT });
    } else {
      if (this.#sealer !== undefined && !acceptPlain) {
        throw new StoresError({
          code: 'STORE_DECRYPT_FAILED',
          user: this.user,
          message: `The OAuth tokens of user "${this.user}" are stored unencrypted, but these stores use encryption, so they are not read. To encrypt them, call \`tokens.reencrypt({ acceptUnencrypted: true })\` once.`,
        });
      }
      document = stored;
    }
    const entries = (document as Partial<TokenDocument> | null)?.entries;
    if ((document as Partial<TokenDocument> | null)?.format !== 'toolhost-oauth-tokens' || !Array.isArray(entries)) {
      throw new StoresError({
        code: 'STORE_FAILED',
        user: this.user,
        message: `The stored OAuth tokens of user "${this.user}" are not a token document of @toolhost/stores (another program wrote to ${this.#key}?). Nothing was read; delete that key to start over.`,
      });
    }
    return entries.filter(isCredentials);
  }
}

function isCredentials(value: unknown): value is StoredOAuthCredentials {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<StoredOAuthCredentials>;
  return (
    typeof entry.serverName === 'string' &&
    typeof entry.issuer === 'string' &&
    typeof entry.updatedAt === 'number' &&
    typeof entry.token === 'object' &&
    entry.token !== null &&
    typeof entry.token.accessToken === 'string'
  );
}
