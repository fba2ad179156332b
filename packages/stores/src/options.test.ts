// createKeyvStores refuses options that cannot work, with errors that say what to do: a Keyv
// or adapter that swallows errors (a failed read would look like an empty store), a store
// without locks shared across processes, bad keys, a bad user id.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import KeyvRedis from '@keyv/redis';
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { describe, expect, it } from 'vitest';
import { createKeyvStores, type KeyvStoresOptions } from './create-keyv-stores.js';
import { inProcessLocks } from './locks.js';
import { StoresError } from './stores-error.js';
import { MAX_ESCAPED_USER_LENGTH, userDocumentKey } from './user-keys.js';

function failure(options: KeyvStoresOptions): StoresError {
  try {
    createKeyvStores(options);
  } catch (error) {
    if (StoresError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('createKeyvStores accepted the options');
}

/** A Keyv store adapter no lock is known for. */
class UnknownAdapter extends EventEmitter implements KeyvStoreAdapter {
  readonly opts = { dialect: 'etcd', url: 'etcd://127.0.0.1' };
  readonly #map = new Map<string, unknown>();
  async get<Value>(key: string): Promise<Value | undefined> {
    return this.#map.get(key) as Value | undefined;
  }
  async set(key: string, value: unknown): Promise<void> {
    this.#map.set(key, value);
  }
  async delete(key: string): Promise<boolean> {
    return this.#map.delete(key);
  }
  async clear(): Promise<void> {
    this.#map.clear();
  }
}
const unknownAdapter = (): UnknownAdapter => new UnknownAdapter();

describe('createKeyvStores options', () => {
  it('refuses a Keyv that turns failed reads into "nothing stored"', () => {
    const error = failure({ keyv: new Keyv(), user: 'alice' });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain('throwOnErrors: true');
    expect(createKeyvStores({ keyv: new Keyv({ throwOnErrors: true }), user: 'alice' }).user).toBe('alice');
  });

  it('refuses a Redis adapter created without throwOnErrors', () => {
    const store = new KeyvRedis('redis://127.0.0.1:1');
    const error = failure({ store, user: 'alice' });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain('new KeyvRedis(url, { throwOnErrors: true })');
  });

  it('needs exactly one of keyv and store', () => {
    expect(failure({ user: 'alice' }).message).toContain('exactly one of `keyv`');
    expect(failure({ user: 'alice', store: new Map(), keyv: new Keyv({ throwOnErrors: true }) }).message).toContain(
      'exactly one of `keyv`',
    );
  });

  it('needs locks for a store it knows none for, and takes the ones given', async () => {
    const error = failure({ store: unknownAdapter(), user: 'alice' });
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain('(etcd)');
    expect(error.message).toContain('Pass `locks`');
    const stores = createKeyvStores({ store: unknownAdapter(), user: 'alice', locks: inProcessLocks() });
    expect(await stores.tokens.withLock('x', async () => 'locked')).toBe('locked');
  });

  it('checks the encryption keys, naming the bad one', () => {
    const short = failure({ store: new Map(), user: 'alice', encryption: { keys: { k1: randomBytes(16) }, current: 'k1' } });
    expect([short.code, short.keyId]).toEqual(['INVALID_OPTIONS', 'k1']);
    expect(short.message).toContain('must be 32 bytes (AES-256)');
    expect(short.message).toContain('openssl rand -base64 32');
    const text = failure({ store: new Map(), user: 'alice', encryption: { keys: { k1: 'not base64!' }, current: 'k1' } });
    expect(text.keyId).toBe('k1');
    const current = failure({ store: new Map(), user: 'alice', encryption: { keys: { k1: randomBytes(32) }, current: 'k2' } });
    expect(current.message).toContain('`encryption.current` is "k2", which is not one of the keys given (k1)');
    const id = failure({ store: new Map(), user: 'alice', encryption: { keys: { 'bad id': randomBytes(32) }, current: 'bad id' } });
    expect(id.keyId).toBe('bad id');
    expect(
      failure({ store: new Map(), user: 'alice', encryption: { keys: { k1: randomBytes(32) }, current: 'k1' }, unencrypted: true }).message,
    ).toContain('not both');
    expect(
      createKeyvStores({
        store: new Map(),
        user: 'alice',
        encryption: { keys: { k1: randomBytes(32).toString('base64url') }, current: 'k1' },
      }).user,
    ).toBe('alice');
  });

  it('checks the user id, and keeps the keys of very long ids short', () => {
    expect(failure({ store: new Map(), user: '' }).code).toBe('INVALID_OPTIONS');
    expect(failure({ store: new Map(), user: 'a\uD800b' }).message).toContain('lone UTF-16 surrogate');
    const long = 'é'.repeat(200);
    const key = userDocumentKey(long, 'oauth-tokens');
    expect(key.length).toBeLessThan(100);
    expect(key).toMatch(/^toolhost:v1:u:![A-Za-z0-9_-]{43}:oauth-tokens$/);
    expect(userDocumentKey(`${long}x`, 'oauth-tokens')).not.toBe(key);
    expect(userDocumentKey('a'.repeat(MAX_ESCAPED_USER_LENGTH), 'tasks')).toContain('a'.repeat(MAX_ESCAPED_USER_LENGTH));
  });
});
