// The scenario: two instances of the server behind a round-robin proxy on loopback, sharing
// one real redis-server, for users of an OAuth-protected Streamable HTTP MCP server on loopback.
// "Always allow" given through one instance is honoured by the other, a decision may reach either
// instance, and a token expiring for both instances at once is refreshed exactly once. Then the
// same sharing of approvals on a real PostgreSQL.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import { fixtureBinPath, startRoundRobinProxy, type RoundRobinProxy } from '@toolhost-internal/fixtures';
import { authenticate, createRedirectFollowingOpener } from '@toolhost/oauth';
import { createKeyvStores, type KeyvStores } from '@toolhost/stores';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth and the database setup of @toolhost/stores are not
// exported from those packages: imported by path.
import type {} from '../../../packages/stores/src/testing/database-servers.js';
import { startDpopAuthorizationServer } from '../../../packages/oauth/src/testing/dpop-servers.js';
import { startProtectedMcpServer } from '../../../packages/oauth/src/testing/protected-mcp-server.js';
import { api, startExample, stopAll, textOf, type ApiAnswer, type ExampleProcess } from './testing/example-process.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const KEY = randomBytes(32).toString('base64');
const ENCRYPTION = { keys: { k1: KEY }, current: 'k1' };

describe('two instances behind a proxy, sharing one Redis', () => {
  let folder: string;
  let redisStore: KeyvRedis<unknown>;
  let as: Awaited<ReturnType<typeof startDpopAuthorizationServer>>;
  let mcp: Awaited<ReturnType<typeof startProtectedMcpServer>>;
  let proxy: RoundRobinProxy;
  const instances: ExampleProcess[] = [];
  /** The access token of every request the MCP server checked, in order. */
  const presented: string[] = [];
  let alice: KeyvStores;

  async function call(key: string, path: string, body?: unknown): Promise<ApiAnswer> {
    return api(proxy.url, key, body === undefined ? 'GET' : 'POST', path, body);
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'multi-user-redis-test-'));
    // The redis-server of the test setup (vitest.config.ts).
    const redisUrl = inject('redisUrl');
    // Bearer tokens; a refresh is answered after 300 ms, so refreshes started at once would overlap.
    as = await startDpopAuthorizationServer({ algs: null, scope: 'mcp:tools mcp:admin', refreshDelayMs: 300 });
    mcp = await startProtectedMcpServer({
      authorizationServers: () => [as.url],
      verifyAccessToken: (token) => {
        presented.push(token);
        return as.verifyAccessToken(token);
      },
    });
    const entry = { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true } };
    // Alice and Bob each signed in once (in a real app: through its own sign-in page); their tokens
    // and client registrations are in Redis, encrypted, under their own keys.
    redisStore = new KeyvRedis(redisUrl, { throwOnErrors: true });
    alice = createKeyvStores({ store: redisStore, user: 'alice', encryption: ENCRYPTION });
    const bob = createKeyvStores({ store: redisStore, user: 'bob', encryption: ENCRYPTION });
    await authenticate('secure', entry, { tokenStore: alice.tokens, openBrowser: createRedirectFollowingOpener() });
    await authenticate('secure', entry, { tokenStore: bob.tokens, openBrowser: createRedirectFollowingOpener() });

    await writeFile(join(folder, 'users.json'), JSON.stringify({ [ALICE]: 'alice', [BOB]: 'bob' }));
    await writeFile(join(folder, 'settings.json'), JSON.stringify({ mcpServers: { secure: entry } }));
    const args = ['--users', join(folder, 'users.json'), '--settings', join(folder, 'settings.json'), '--store', redisUrl];
    const env = { TOOLHOST_TOKEN_KEYS: `k1:${KEY}` };
    instances.push(...(await Promise.all([startExample(args, env), startExample(args, env)])));
    proxy = await startRoundRobinProxy(instances.map((instance) => Number(new URL(instance.url).port)));
  });

  afterAll(async () => {
    await stopAll();
    proxy?.server.closeAllConnections();
    proxy?.server.close();
    await redisStore?.disconnect();
    await mcp?.close();
    await as?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('"always allow" given through instance 1 is honoured by instance 2; tokens and approvals stay per user', async () => {
    // 1: instance 1 starts Alice's host; 2: instance 2 starts hers and is asked about whoami.
    const status = await call(ALICE, '/status');
    expect(status.headers.get('x-instance')).toBe('1');
    expect(status.body).toMatchObject({ user: 'alice', servers: [{ name: 'secure', status: 'CONNECTED' }] });
    const asked = await call(ALICE, '/tools/call', { name: 'whoami', arguments: {} });
    expect(asked.headers.get('x-instance')).toBe('2');
    expect(asked.body).toMatchObject({
      status: 'needs-confirmation',
      details: { mcpDetails: { serverName: 'secure', toolName: 'whoami' } },
    });
    // 3: Alice's decision reaches instance 1, which did not ask her: it runs the call from the shared record.
    const decided = await call(ALICE, `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_always' });
    expect(decided.headers.get('x-instance')).toBe('1');
    expect(decided.body).toMatchObject({ status: 'completed', toolCallId: asked.body.toolCallId, isError: false });
    const aliceClient = (JSON.parse(textOf(decided)) as { clientId: string }).clientId;
    // 4: instance 2, whose host asked before, now runs whoami for Alice without asking.
    const honoured = await call(ALICE, '/tools/call', { name: 'whoami', arguments: {} });
    expect(honoured.headers.get('x-instance')).toBe('2');
    expect(honoured.body).toMatchObject({ status: 'completed', isError: false });

    // Bob, on both instances: still asked (approvals are per user), and his calls use his own client and token.
    const bobAsked = await call(BOB, '/tools/call', { name: 'whoami', arguments: {} });
    expect(bobAsked.body).toMatchObject({ status: 'needs-confirmation' });
    const bobDecided = await call(BOB, `/confirmations/${bobAsked.body.toolCallId}`, { outcome: 'proceed_once' });
    expect(bobDecided.body).toMatchObject({ status: 'completed', isError: false });
    expect((JSON.parse(textOf(bobDecided)) as { clientId: string }).clientId).not.toBe(aliceClient);
    expect([bobAsked, bobDecided].map((answer) => answer.headers.get('x-instance')).sort()).toEqual(['1', '2']);
  });

  it('a token expiring for both instances at once is refreshed exactly once, and both calls succeed', async () => {
    const before = await alice.tokens.get('secure');
    if (!before) throw new Error('the sign-in stored no token');
    // Alice's stored token now expires within the refresh window (5 minutes).
    await alice.tokens.set({ ...before, token: { ...before.token, expiresAt: Date.now() + 60_000 } });
    const refreshes = () => as.tokenRequests.filter((seen) => seen.grantType === 'refresh_token').length;
    const refreshesBefore = refreshes();
    const presentedBefore = presented.length;
    // Two requests at once: the proxy sends one to each instance (whoami is always allowed for Alice).
    const started = Date.now();
    const answers = await Promise.all([
      call(ALICE, '/tools/call', { name: 'whoami', arguments: {} }),
      call(ALICE, '/tools/call', { name: 'whoami', arguments: {} }),
    ]);
    const elapsed = Date.now() - started;
    expect(answers.map((answer) => answer.headers.get('x-instance')).sort()).toEqual(['1', '2']);
    for (const answer of answers) expect(answer.body).toMatchObject({ status: 'completed', isError: false });
    expect(refreshes() - refreshesBefore).toBe(1);
    const after = await alice.tokens.get('secure');
    expect(after?.token.accessToken).not.toBe(before.token.accessToken);
    expect(after?.token.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
    // Both calls presented the refreshed token.
    expect(new Set(presented.slice(presentedBefore))).toEqual(new Set([after?.token.accessToken]));
    console.log(`two concurrent calls with one refresh: ${elapsed} ms`);
  });
});

describe('two instances sharing one PostgreSQL', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'multi-user-postgres-test-'));
  });

  afterAll(async () => {
    await stopAll();
    await rm(folder, { recursive: true, force: true });
  });

  it('an approval given through one instance is honoured by the other, for that user only', async () => {
    await writeFile(join(folder, 'users.json'), JSON.stringify({ [ALICE]: 'alice', [BOB]: 'bob' }));
    await writeFile(
      join(folder, 'settings.json'),
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath('basic')] } } }),
    );
    const args = ['--users', join(folder, 'users.json'), '--settings', join(folder, 'settings.json')];
    // The PostgreSQL of the test setup (vitest.config.ts), given in the environment as a URL with a password would be.
    const env = { TOOLHOST_TOKEN_KEYS: `k1:${KEY}`, TOOLHOST_STORE: inject('postgresUrl') };
    const [first, second] = await Promise.all([startExample(args, env), startExample(args, env)]);
    if (!first || !second) throw new Error('an instance did not start');
    expect(first.output()).toContain('Store: PostgreSQL postgresql://toolhost@127.0.0.1:');
    const echo = { name: 'echo', arguments: { message: 'on postgres' } };
    // Instance 2 serves Alice first (her host there exists before the approval).
    expect((await api(second.url, ALICE, 'POST', '/tools/call', echo)).body).toMatchObject({ status: 'needs-confirmation' });
    const asked = await api(first.url, ALICE, 'POST', '/tools/call', echo);
    expect(
      (await api(first.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_always' })).body,
    ).toMatchObject({
      status: 'completed',
      isError: false,
    });
    expect((await api(second.url, ALICE, 'POST', '/tools/call', echo)).body).toMatchObject({ status: 'completed', isError: false });
    expect((await api(second.url, BOB, 'POST', '/tools/call', echo)).body).toMatchObject({ status: 'needs-confirmation' });
  });
});
