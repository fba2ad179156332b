// Token stores shared by several processes (several instances of one app): `withLock` is
// exclusive across processes (the built package runs in child processes), a refresh or a
// browserless renewal runs once however many providers need it at the same moment, and
// concurrent writes to one token file lose no entry.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from './file-token-store.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import { startJsonRoutesServer, type RouteAnswer, type SeenRequest } from './testing/json-routes-server.js';
import type { StoredOAuthCredentials, TokenStore } from './token-store.js';

/** The package folder: a child process started there imports the built `@toolhost/oauth`. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

let folder: string;
const children: ChildProcess[] = [];
const servers: Array<{ close: () => Promise<void> }> = [];
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolhost-shared-tokens-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(folder, { recursive: true, force: true });
});

/** A child process that takes `FileTokenStore.withLock(name)` on `filePath`, says `locked`, holds it, then says `released` (or is killed inside). */
function lockInChild(
  filePath: string,
  options: { holdMs: number; die?: boolean },
): { child: ChildProcess; output: () => string; locked: Promise<void> } {
  const script = `
    import { FileTokenStore } from '@toolhost/oauth';
    const store = new FileTokenStore({ filePath: process.env.TOKEN_FILE });
    await store.withLock('entry', async () => {
      process.stdout.write('locked\\n');
      if (process.env.DIE === '1') process.kill(process.pid, 'SIGKILL');
      await new Promise((done) => setTimeout(done, Number(process.env.HOLD_MS)));
      process.stdout.write('released\\n');
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, TOKEN_FILE: filePath, HOLD_MS: String(options.holdMs), DIE: options.die ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve();
    });
    child.on('exit', () => reject(new Error(`the child exited before taking the lock: ${errors}`)));
  });
  return { child, output: () => output, locked };
}

describe('TokenStore.withLock', () => {
  it('InMemoryTokenStore: one holder per name at a time, other names run alongside, released after a throw', async () => {
    const store = new InMemoryTokenStore();
    const events: string[] = [];
    const hold = (name: string, label: string, fail = false) =>
      store.withLock(name, async () => {
        events.push(`${label} in`);
        await new Promise((done) => setTimeout(done, 30));
        events.push(`${label} out`);
        if (fail) throw new Error(`${label} failed`);
        return label;
      });
    const results = await Promise.allSettled([hold('a', 'a1', true), hold('a', 'a2'), hold('b', 'b1'), hold('a', 'a3')]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a1 failed', 'a2', 'b1', 'a3']);
    // `a` holders never overlap; `b` runs while `a1` holds `a`.
    expect(events.filter((e) => e.startsWith('a'))).toEqual(['a1 in', 'a1 out', 'a2 in', 'a2 out', 'a3 in', 'a3 out']);
    expect(events.indexOf('b1 in')).toBeLessThan(events.indexOf('a1 out'));
  });

  it('FileTokenStore: exclusive across processes, and the lock folder is gone afterwards', async () => {
    const filePath = join(folder, 'mcp-oauth-tokens.json');
    const holder = lockInChild(filePath, { holdMs: 400 });
    await holder.locked;
    const store = new FileTokenStore({ filePath });
    // Entered only once the other process released it.
    const seen = await store.withLock('entry', async () => holder.output());
    expect(seen).toContain('released');
    // Another name is not held by the child: entered while the child still holds its own (for a
    // minute; had the lock been one for every name, the child would have said "released" first).
    const other = lockInChild(filePath, { holdMs: 60_000 });
    await other.locked;
    expect(await store.withLock('another entry', async () => other.output())).not.toContain('released');
    other.child.kill();
    await new Promise((done) => other.child.once('exit', done));
  });

  it('FileTokenStore: the lock of a process that was killed while holding it is taken over', async () => {
    const filePath = join(folder, 'mcp-oauth-tokens.json');
    const holder = lockInChild(filePath, { holdMs: 60_000, die: true });
    await holder.locked;
    await new Promise((done) => holder.child.once('exit', done));
    expect((await readdir(folder)).some((name) => name.endsWith('.lock'))).toBe(true);
    const started = Date.now();
    expect(await new FileTokenStore({ filePath }).withLock('entry', async () => 'taken over')).toBe('taken over');
    // Stale after 5 seconds without its holder refreshing it; a lock never taken over would be
    // waited for 60 s and then refused.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await readdir(folder)).toEqual([]);
  });

  it('FileTokenStore: concurrent writes through two stores on one file lose no entry', async () => {
    const filePath = join(folder, 'mcp-oauth-tokens.json');
    const stores = [new FileTokenStore({ filePath }), new FileTokenStore({ filePath })];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => stores[i % 2]!.set(credentials(`server-${i}`, 'http://127.0.0.1:9/token', `at-${i}`, 0))),
    );
    const names = (await stores[0]!.list()).map((entry) => entry.serverName).sort();
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `server-${i}`).sort());
    expect(await readdir(folder)).toEqual(['mcp-oauth-tokens.json']);
    // Deleting what is not there takes no lock and makes no folder.
    await new FileTokenStore({ filePath: join(folder, 'unused', 'mcp-oauth-tokens.json') }).delete('server-0');
    expect(await readdir(folder)).toEqual(['mcp-oauth-tokens.json']);
  });
});

const NOW = 1_700_000_000_000;
const resolveHost = async (): Promise<string[]> => ['127.0.0.1'];

function credentials(serverName: string, tokenEndpoint: string, accessToken: string, expiresAt: number): StoredOAuthCredentials {
  return {
    serverName,
    issuer: 'https://as.example',
    mcpServerUrl: 'https://mcp.example/mcp',
    resource: 'https://mcp.example/mcp',
    tokenEndpoint,
    client: { clientId: 'client-1', source: 'dynamic-registration' },
    token: { accessToken, tokenType: 'Bearer', refreshToken: 'rt-0', expiresAt },
    updatedAt: NOW - 1000,
  };
}

/** A token endpoint that issues `at-1`, `at-2`... with rotating refresh tokens, refusing a refresh token used twice. */
async function rotatingTokenEndpoint() {
  const used = new Set<string>();
  let issued = 0;
  const server = await startJsonRoutesServer((request): RouteAnswer | undefined => {
    if (request.path !== '/token') return undefined;
    const refreshToken = new URLSearchParams(request.body).get('refresh_token') ?? '';
    if (used.has(refreshToken)) return { status: 400, body: { error: 'invalid_grant', error_description: 'refresh token already used' } };
    used.add(refreshToken);
    issued += 1;
    return { body: { access_token: `at-${issued}`, token_type: 'Bearer', expires_in: 3600, refresh_token: `rt-${issued}` } };
  });
  servers.push(server);
  return server;
}

const refreshes = (requests: SeenRequest[]) => requests.filter((r) => r.path === '/token');

describe('a refresh shared by several instances', () => {
  const config = { httpUrl: 'https://mcp.example/mcp' };
  const stores: Array<[string, (file: string) => [TokenStore, TokenStore]]> = [
    [
      'InMemoryTokenStore',
      () => {
        const store = new InMemoryTokenStore();
        return [store, store];
      },
    ],
    ['FileTokenStore', (file) => [new FileTokenStore({ filePath: file }), new FileTokenStore({ filePath: file })]],
  ];

  it.each(stores)('%s: two providers whose token expires at once refresh it once, and both use the new token', async (_name, open) => {
    const server = await rotatingTokenEndpoint();
    const [first, second] = open(join(folder, 'mcp-oauth-tokens.json'));
    await first.set(credentials('srv', `${server.url}/token`, 'at-0', NOW + 60_000));
    // Two instances of the app: each has its own provider (its own in-process deduplication).
    const provider = (tokenStore: TokenStore) =>
      new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore, resolveHost, now: () => NOW });
    const tokens = await Promise.all([provider(first).tokens(), provider(second).tokens()]);
    expect(tokens.map((t) => t?.access_token)).toEqual(['at-1', 'at-1']);
    expect(refreshes(server.requests)).toHaveLength(1);
    expect((await second.get('srv'))?.token).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' });
  });

  it('a store without withLock refreshes in each provider, as before (the rotated refresh token is then refused)', async () => {
    const server = await rotatingTokenEndpoint();
    const shared = new InMemoryTokenStore();
    const unlocked: TokenStore = {
      get: (...args) => shared.get(...args),
      set: (entry) => shared.set(entry),
      delete: (...args) => shared.delete(...args),
      list: () => shared.list(),
    };
    await unlocked.set(credentials('srv', `${server.url}/token`, 'at-0', NOW + 60_000));
    const provider = () => new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore: unlocked, resolveHost, now: () => NOW });
    const results = await Promise.allSettled([provider().tokens(), provider().tokens()]);
    expect(refreshes(server.requests)).toHaveLength(2);
    // The second refresh reused the rotated refresh token: refused, and the credentials deleted.
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { code: 'REFRESH_FAILED', oauthErrorCode: 'invalid_grant' },
    });
    expect(await unlocked.get('srv')).toBeUndefined();
  });

  it('a client_credentials token is obtained once when two providers need one at the same moment', async () => {
    let issued = 0;
    const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
      switch (request.path.split('?')[0]) {
        case '/mcp':
          return { status: 401, body: {}, headers: { 'www-authenticate': `Bearer resource_metadata="${base}/prm"` } };
        case '/prm':
          return { body: { resource: `${base}/mcp`, authorization_servers: [base] } };
        case '/.well-known/oauth-authorization-server':
          return {
            body: {
              issuer: base,
              token_endpoint: `${base}/token`,
              grant_types_supported: ['client_credentials'],
              token_endpoint_auth_methods_supported: ['client_secret_basic'],
            },
          };
        case '/token':
          return { body: { access_token: `cc-${++issued}`, token_type: 'Bearer', expires_in: 3600 } };
        default:
          return undefined;
      }
    });
    servers.push(server);
    const tokenStore = new InMemoryTokenStore();
    const m2m = {
      httpUrl: `${server.url}/mcp`,
      oauth: { grantType: 'client_credentials' as const, clientId: 'svc', clientSecret: 'x', allowPrivateNetwork: true },
    };
    const provider = () => new StoredTokenOAuthProvider({ serverName: 'm2m', config: m2m, tokenStore });
    const tokens = await Promise.all([provider().tokens(), provider().tokens()]);
    expect(tokens.map((t) => t?.access_token)).toEqual(['cc-1', 'cc-1']);
    expect(refreshes(server.requests)).toHaveLength(1);
  });
});
