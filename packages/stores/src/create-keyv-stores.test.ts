// The stores of createKeyvStores on a real redis-server, a real PostgreSQL and an SQLite file
// (src/testing/database-servers.ts starts the servers on loopback): tokens encrypted at rest and
// bound to their user, key rotation, per-user namespaces, concurrent approvals from two
// instances, locks across instances, folder trust and tasks.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinServer } from '@toolhost/config';
import { emptyAllowList, type AllowList, type ToolApproval } from '@toolhost/confirmation';
import type { StoredOAuthCredentials } from '@toolhost/oauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyvStores } from './create-keyv-stores.js';
import type { StoresEncryption } from './encryption.js';
import { StoresError } from './stores-error.js';
import { BACKENDS, openBackend, type TestBackend } from './testing/backends.js';
import { escapeKeyPart, userDocumentKey } from './user-keys.js';

const KEY_1 = randomBytes(32);
const KEY_2 = randomBytes(32).toString('base64');
const ENCRYPTION: StoresEncryption = { keys: { k1: KEY_1 }, current: 'k1' };

/** An entry with a secret in every field that must never be stored in plain text. */
function credentials(serverName: string, secret: string): StoredOAuthCredentials {
  return {
    serverName,
    issuer: 'https://as.example',
    mcpServerUrl: `https://${serverName}.example/mcp`,
    resource: `https://${serverName}.example/mcp`,
    tokenEndpoint: 'https://as.example/token',
    client: {
      clientId: `client-${secret}`,
      clientSecret: `client-secret-${secret}`,
      source: 'dynamic-registration',
      tokenEndpointAuthMethod: 'client_secret_post',
    },
    token: { accessToken: `access-${secret}`, tokenType: 'Bearer', refreshToken: `refresh-${secret}`, expiresAt: 4_102_444_800_000 },
    updatedAt: Date.now(),
    dpopKey: { alg: 'ES256', privateJwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: `dpop-private-${secret}` } },
  };
}

function approval(serverName: string, toolName: string): ToolApproval {
  return {
    serverName,
    toolName,
    definitionHash: `sha256:${toolName}`,
    definition: { name: toolName },
    approvedAt: new Date(0).toISOString(),
  };
}

function withTool(list: AllowList, entry: ToolApproval): AllowList {
  return { servers: list.servers, tools: new Map(list.tools).set(JSON.stringify([entry.serverName, entry.toolName]), entry) };
}

async function rejection(promise: Promise<unknown>): Promise<StoresError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!StoresError.isInstance(error)) throw new Error(`expected a StoresError, got ${String(error)}`);
  return error;
}

describe.each(BACKENDS)('createKeyvStores on %s', (kind) => {
  let backend: TestBackend;
  /** A user id unique to the test (tests of several files share the servers). */
  let alice: string;
  let bob: string;

  beforeEach(async () => {
    backend = await openBackend(kind);
    const run = randomUUID().slice(0, 8);
    alice = `alice-${run}`;
    bob = `bob-${run}`;
  });
  afterEach(async () => {
    await backend.close();
  });

  it('keeps tokens, the client registration and the DPoP key encrypted at rest, and reads them back', async () => {
    const stores = createKeyvStores({ store: backend.open(), user: alice, encryption: ENCRYPTION });
    const entry = credentials('github', 'S3CRET');
    await stores.tokens.set(entry);
    await stores.tokens.set(credentials('linear', 'OTHER'));

    expect(await stores.tokens.get('github')).toEqual(entry);
    expect((await stores.tokens.list()).map((e) => e.serverName).sort()).toEqual(['github', 'linear']);
    // Another instance (a new adapter on the same data) reads the same.
    expect(
      await createKeyvStores({ store: backend.open(), user: alice, encryption: ENCRYPTION }).tokens.get('github', 'https://as.example'),
    ).toEqual(entry);

    const raw = await backend.dump(alice);
    expect(raw).toHaveLength(1);
    expect(raw[0]?.key).toContain(`u:${alice}:oauth-tokens`);
    for (const secret of ['S3CRET', 'OTHER', 'access-', 'refresh-', 'client-secret', 'dpop-private', 'github', 'as.example']) {
      expect(raw[0]?.value).not.toContain(secret);
    }
    expect(raw[0]?.value).toContain('"kid":"k1"');
    expect(raw[0]?.value).toContain('"alg":"A256GCM"');

    await stores.tokens.delete('github');
    expect(await stores.tokens.get('github')).toBeUndefined();
    await stores.tokens.delete('linear');
    expect(await backend.dump(alice)).toEqual([]);
  });

  it("never lets one user's ids reach another user's tokens, approvals, trusted folders or tasks", async () => {
    const store = backend.open();
    const ids = [
      alice,
      `${alice}:`,
      `${alice}:oauth-tokens`,
      `${alice}%3A`,
      `${alice}/..`,
      alice.toUpperCase(),
      `${alice} `,
      `${alice}\u00e9`,
      `${alice}:lock:app:x`,
    ];
    const home = await mkdtemp(join(tmpdir(), 'toolhost-stores-trust-'));
    try {
      const owner = createKeyvStores({ store, user: alice, encryption: ENCRYPTION });
      await owner.tokens.set(credentials('github', 'mine'));
      await owner.approvals.update((list) => withTool(list, approval('files', 'read')));
      await owner.trust.setFolderTrust(home, true);
      await owner.tasks.save([
        {
          serverName: 'files',
          taskId: 't1',
          toolCallId: 'c1',
          toolName: 'read',
          serverToolName: 'read',
          protocolVersion: '2025-11-25',
          createdAt: new Date(0).toISOString(),
        },
      ]);
      for (const user of ids.slice(1)) {
        const other = createKeyvStores({ store, user, encryption: ENCRYPTION });
        expect(await other.tokens.list(), user).toEqual([]);
        expect((await other.approvals.read()).tools.size, user).toBe(0);
        expect((await other.trust.getFolderTrust(home)).trusted, user).toBe(false);
        expect(await other.tasks.load(), user).toEqual([]);
      }
      expect(new Set(ids.map(escapeKeyPart)).size).toBe(ids.length);
      expect(
        ids
          .slice(1)
          .map(escapeKeyPart)
          .every((part) => !part.includes(':') && !part.includes('/')),
      ).toBe(true);
      expect(await owner.tokens.list()).toHaveLength(1);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("refuses to decrypt a ciphertext copied into another user's place", async () => {
    const store = backend.open();
    await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.set(credentials('github', 'alice-only'));
    const [stolen] = await backend.dump(`u:${alice}:oauth-tokens`);
    if (stolen === undefined) throw new Error('nothing stored');
    await backend.put(stolen.key.replace(alice, bob), stolen.value);

    const error = await rejection(createKeyvStores({ store, user: bob, encryption: ENCRYPTION }).tokens.get('github'));
    expect(error.code).toBe('STORE_DECRYPT_FAILED');
    expect(error.keyId).toBe('k1');
    expect(error.message).toContain(`user "${bob}"`);
    expect(error.message).toContain('key id "k1"');
    // The owner still reads it.
    expect((await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.get('github'))?.token.accessToken).toBe(
      'access-alice-only',
    );
  });

  it('fails naming the key id when the key is missing or wrong, and never reads plain text instead', async () => {
    const store = backend.open();
    await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.set(credentials('github', 'x'));

    const missing = await rejection(
      createKeyvStores({ store, user: alice, encryption: { keys: { k2: KEY_2 }, current: 'k2' } }).tokens.get('github'),
    );
    expect([missing.code, missing.keyId]).toEqual(['STORE_DECRYPT_FAILED', 'k1']);
    expect(missing.message).toContain('key id "k1", which is not among the keys configured (k2)');

    const wrong = await rejection(
      createKeyvStores({ store, user: alice, encryption: { keys: { k1: KEY_2 }, current: 'k1' } }).tokens.list(),
    );
    expect([wrong.code, wrong.keyId]).toEqual(['STORE_DECRYPT_FAILED', 'k1']);
    expect(wrong.message).toContain('could not be decrypted with key id "k1"');

    const none = await rejection(createKeyvStores({ store, user: alice }).tokens.get('github'));
    expect([none.code, none.keyId]).toEqual(['STORE_DECRYPT_FAILED', 'k1']);

    // A plain-text document planted where encrypted tokens belong is not read.
    await createKeyvStores({ store, user: bob, unencrypted: true }).tokens.set(credentials('github', 'planted'));
    const planted = await rejection(createKeyvStores({ store, user: bob, encryption: ENCRYPTION }).tokens.get('github'));
    expect(planted.code).toBe('STORE_DECRYPT_FAILED');
    expect(planted.message).toContain('stored unencrypted');
  });

  it('rotates keys: reads with any configured key, writes with the current one, re-encrypts a user so the old key can go', async () => {
    const store = backend.open();
    await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.set(credentials('github', 'rotate'));
    const both: StoresEncryption = { keys: { k1: KEY_1, k2: KEY_2 }, current: 'k2' };
    const during = createKeyvStores({ store, user: alice, encryption: both });
    expect((await during.tokens.get('github'))?.token.refreshToken).toBe('refresh-rotate');
    expect((await backend.dump(`u:${alice}:oauth-tokens`))[0]?.value).toContain('"kid":"k1"');

    expect(await during.tokens.reencrypt()).toEqual({ entries: 1, keyId: 'k2' });
    expect((await backend.dump(`u:${alice}:oauth-tokens`))[0]?.value).toContain('"kid":"k2"');
    const after = createKeyvStores({ store, user: alice, encryption: { keys: { k2: KEY_2 }, current: 'k2' } });
    expect((await after.tokens.get('github'))?.token.refreshToken).toBe('refresh-rotate');
    expect(await createKeyvStores({ store, user: bob, encryption: both }).tokens.reencrypt()).toEqual({ entries: 0, keyId: 'k2' });

    // Plain-text tokens (stored with `unencrypted: true`) are encrypted only when asked to.
    await createKeyvStores({ store, user: bob, unencrypted: true }).tokens.set(credentials('github', 'plain'));
    expect((await backend.dump(`u:${bob}:oauth-tokens`))[0]?.value).toContain('access-plain');
    const bobs = createKeyvStores({ store, user: bob, encryption: both });
    expect((await rejection(bobs.tokens.reencrypt())).code).toBe('STORE_DECRYPT_FAILED');
    expect(await bobs.tokens.reencrypt({ acceptUnencrypted: true })).toEqual({ entries: 1, keyId: 'k2' });
    expect((await backend.dump(`u:${bob}:oauth-tokens`))[0]?.value).not.toContain('access-plain');
    expect((await bobs.tokens.get('github'))?.token.accessToken).toBe('access-plain');
  });

  it('refuses to store tokens without encryption unless unencrypted: true is passed', async () => {
    const store = backend.open();
    const error = await rejection(createKeyvStores({ store, user: alice }).tokens.set(credentials('github', 'x')));
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain('unencrypted: true');
    expect(error.message).toContain('encryption');
    expect(await backend.dump(alice)).toEqual([]);
    // Approvals need no encryption.
    await createKeyvStores({ store, user: alice }).approvals.update((list) => withTool(list, approval('files', 'read')));
    expect((await createKeyvStores({ store, user: alice }).approvals.read()).tools.size).toBe(1);
  });

  it('keeps every approval when two instances change the same user concurrently', async () => {
    const first = createKeyvStores({ store: backend.open(), user: alice });
    const second = createKeyvStores({ store: backend.open(), user: alice });
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? first : second).approvals.update((list) => withTool(list, approval('files', `tool-${index}`))),
      ),
    );
    const stored = await first.approvals.read();
    expect([...stored.tools.values()].map((entry) => entry.toolName).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `tool-${index}`).sort(),
    );
    // read() is never cached: a write by one instance is seen by the other's next read.
    await second.approvals.write(emptyAllowList());
    expect((await first.approvals.read()).tools.size).toBe(0);
    expect((await createKeyvStores({ store: backend.open(), user: bob }).approvals.read()).tools.size).toBe(0);
  });

  it('keeps every token entry when two instances store different servers concurrently', async () => {
    const first = createKeyvStores({ store: backend.open(), user: alice, encryption: ENCRYPTION });
    const second = createKeyvStores({ store: backend.open(), user: alice, encryption: ENCRYPTION });
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? first : second).tokens.set(credentials(`server-${index}`, String(index))),
      ),
    );
    expect((await first.tokens.list()).map((e) => e.serverName).sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `server-${index}`).sort(),
    );
  });

  it('withLock excludes across instances, per user and name, and fails naming the lock when held too long', async () => {
    const first = createKeyvStores({ store: backend.open(), user: alice, lockWaitMs: 10_000 });
    const second = createKeyvStores({ store: backend.open(), user: alice, lockWaitMs: 10_000 });
    const events: string[] = [];
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    let entered!: () => void;
    const firstEntered = new Promise<void>((resolve) => (entered = resolve));
    const one = first.tokens.withLock('refresh:github', async () => {
      events.push('first in');
      entered();
      await held;
      events.push('first out');
      return 1;
    });
    await firstEntered;
    const two = second.tokens.withLock('refresh:github', async () => {
      events.push('second in');
      return 2;
    });
    // Another name of the same user, and the same name of another user, do not wait.
    expect(await second.tokens.withLock('refresh:linear', async () => 'other name')).toBe('other name');
    expect(await createKeyvStores({ store: backend.open(), user: bob }).tokens.withLock('refresh:github', async () => 'other user')).toBe(
      'other user',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual(['first in']);

    const impatient = createKeyvStores({ store: backend.open(), user: alice, lockWaitMs: 200 });
    const started = Date.now();
    const timeout = await rejection(impatient.tokens.withLock('refresh:github', async () => 'never'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(timeout.code).toBe('STORE_LOCK_TIMEOUT');
    expect(timeout.message).toContain('refresh%3Agithub');
    expect(timeout.message).toContain('200 ms');

    releaseFirst();
    expect(await Promise.all([one, two])).toEqual([1, 2]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
  });

  it('excludes another process, and frees the lock of a holder that was killed (lease expiry, or the end of its PostgreSQL session)', async () => {
    // The child uses the built package (dist), as a second server process would.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createKeyvStores } from '@toolhost/stores';
         const stores = createKeyvStores({ store: ${backend.openInChild}, user: ${JSON.stringify(alice)}, lockTtlMs: 5000 });
         await stores.tokens.withLock('refresh:github', async () => { process.stdout.write('locked\\n'); await new Promise(() => {}); });`,
      ],
      { cwd: join(dirname(fileURLToPath(import.meta.url)), '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        child.once('exit', () => reject(new Error(`the child exited before locking: ${stderr}`)));
      });
      let entered = 0;
      const waiting = createKeyvStores({ store: backend.open(), user: alice, lockWaitMs: 60_000 }).tokens.withLock(
        'refresh:github',
        async () => {
          entered = Date.now();
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(entered).toBe(0);
      const killedAt = Date.now();
      child.kill('SIGKILL');
      await waiting;
      // Freed within the lease (5 s, long enough for the child to renew it on a busy machine) plus
      // the waiter's backoff, not at the end of the 60 s wait.
      expect(entered - killedAt).toBeLessThan(25_000);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });

  it('keeps folder trust per user, with the nearest record deciding and symbolic links resolved', async () => {
    const root = await mkdtemp(join(tmpdir(), 'toolhost-stores-folders-'));
    try {
      const project = join(root, 'project');
      const inner = join(project, 'vendor');
      await mkdir(inner, { recursive: true });
      await symlink(project, join(root, 'link'));
      const mine = createKeyvStores({ store: backend.open(), user: alice });
      expect(await mine.trust.setFolderTrust(project, true)).toMatchObject({ trusted: true, changed: true, decidedBy: project });
      expect(await mine.trust.setFolderTrust(project, true)).toMatchObject({ changed: false });
      expect(await mine.trust.getFolderTrust(inner)).toEqual({ folder: inner, trusted: true, decidedBy: project });
      expect(await mine.trust.getFolderTrust(join(root, 'link'))).toEqual({ folder: project, trusted: true, decidedBy: project });
      expect(await mine.trust.setFolderTrust(inner, false)).toMatchObject({ trusted: false, changed: true, decidedBy: inner });
      expect(await mine.trust.getFolderTrust(inner)).toMatchObject({ trusted: false, decidedBy: inner });
      expect(new Map(await mine.trust.list())).toEqual(
        new Map([
          [project, true],
          [inner, false],
        ]),
      );
      expect(await createKeyvStores({ store: backend.open(), user: bob }).trust.getFolderTrust(inner)).toEqual({
        folder: inner,
        trusted: false,
        decidedBy: undefined,
      });
      await mine.trust.setFolderTrust(project, false);
      expect((await mine.trust.getFolderTrust(project)).trusted).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps the pinned servers of each trusted folder with its trust, renews them, and drops them when the folder is untrusted', async () => {
    const root = await mkdtemp(join(tmpdir(), 'toolhost-stores-pins-'));
    try {
      const project = join(root, 'project');
      const inner = join(project, 'vendor');
      await mkdir(inner, { recursive: true });
      const first = new Map([['tool', pinServer({ command: 'node', args: ['server.js'] })]]);
      const second = new Map([['tool', pinServer({ command: 'node', args: ['server.js', '--v2'], env: { TOKEN: 'secret' } })]]);
      const mine = createKeyvStores({ store: backend.open(), user: alice });
      expect(await mine.trust.setFolderTrust(project, true, { pinnedServers: first })).toMatchObject({ changed: true, pinsChanged: true });
      // Another instance reads them; a covered subfolder has no pins of its own.
      const other = createKeyvStores({ store: backend.open(), user: alice });
      expect((await other.trust.getFolderTrust(project)).pinnedServers).toEqual(first);
      expect(await other.trust.getFolderTrust(inner)).toMatchObject({ trusted: true, decidedBy: project, pinnedServers: undefined });
      // Trusting again renews the pins only when they differ.
      expect(await other.trust.setFolderTrust(project, true, { pinnedServers: second })).toMatchObject({
        changed: false,
        pinsChanged: true,
      });
      expect(await mine.trust.setFolderTrust(project, true, { pinnedServers: second })).toMatchObject({
        changed: false,
        pinsChanged: false,
      });
      expect(await mine.trust.setFolderTrust(inner, true, { pinnedServers: first })).toMatchObject({
        changed: false,
        pinsChanged: true,
        decidedBy: project,
      });
      expect((await mine.trust.getFolderTrust(project)).pinnedServers).toEqual(second);
      expect((await mine.trust.getFolderTrust(inner)).pinnedServers).toEqual(first);
      // Stored as JSON next to the decisions, env values only as their SHA-256.
      const stored = (await backend.dump(userDocumentKey(alice, 'trusted-folders'))).map((entry) => entry.value).join('\n');
      expect(stored).toContain(second.get('tool')?.digest);
      expect(stored).not.toContain('secret');
      // Another user has neither the trust nor the pins.
      expect(await createKeyvStores({ store: backend.open(), user: bob }).trust.getFolderTrust(project)).toMatchObject({
        trusted: false,
        pinnedServers: undefined,
      });
      // Untrusting drops the pins of the folder and of the subfolders it covered: trusting again without pins restores none.
      await mine.trust.setFolderTrust(project, false);
      await mine.trust.setFolderTrust(project, true);
      expect(await mine.trust.getFolderTrust(project)).toMatchObject({ trusted: true, pinnedServers: undefined });
      expect(await mine.trust.getFolderTrust(inner)).toMatchObject({ trusted: true, pinnedServers: undefined });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps the tasks of each user', async () => {
    const task = {
      serverName: 'files',
      taskId: 't1',
      toolCallId: 'c1',
      toolName: 'read',
      serverToolName: 'read',
      protocolVersion: '2026-07-28',
      createdAt: new Date(0).toISOString(),
      status: 'working',
    } as const;
    const mine = createKeyvStores({ store: backend.open(), user: alice });
    await mine.tasks.save([task]);
    expect(await createKeyvStores({ store: backend.open(), user: alice }).tasks.load()).toEqual([task]);
    expect(await createKeyvStores({ store: backend.open(), user: bob }).tasks.load()).toEqual([]);
    await mine.tasks.save([]);
    expect(await mine.tasks.load()).toEqual([]);
  });
});
