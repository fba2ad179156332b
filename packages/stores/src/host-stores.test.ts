// McpToolHost with the stores of createKeyvStores on a real redis-server (started by the
// globalSetup): two hosts of one user share approvals and OAuth tokens, a host of another user
// sees neither, a refreshed token is written back encrypted, and a wrong key fails clearly.
import { randomBytes, randomUUID } from 'node:crypto';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import type { ConfirmationOutcome, ConfirmationRequest } from '@toolhost/contract';
import { McpToolHost } from '@toolhost/host';
import type { StoredOAuthCredentials } from '@toolhost/oauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { authorizationServerMetadata, startJsonRoutesServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { createKeyvStores, type KeyvStores } from './create-keyv-stores.js';
import type { StoresEncryption } from './encryption.js';
import { openBackend, type TestBackend } from './testing/backends.js';

const ENCRYPTION: StoresEncryption = { keys: { k1: randomBytes(32) }, current: 'k1' };
const FAR_FUTURE = 4_102_444_800_000;

let backend: TestBackend;
let alice: string;
let bob: string;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  backend = await openBackend('redis');
  const run = randomUUID().slice(0, 8);
  alice = `alice@example.com/${run}`;
  bob = `bob@example.com/${run}`;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await backend.close();
});

describe('approvals of McpToolHost in Redis', () => {
  /** A host of `stores` on the basic fixture: calls `echo` once, answering any confirmation with `answer`. */
  async function callEcho(stores: KeyvStores, answer: ConfirmationOutcome): Promise<{ asked: ConfirmationRequest[]; ran: boolean }> {
    const asked: ConfirmationRequest[] = [];
    const host = await McpToolHost.create({
      settings: { mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath('basic')] } } },
      stores,
      ui: { confirm: async (request) => (asked.push(request), answer) },
    });
    try {
      await host.discover();
      const result = await host.callTool({ name: 'echo', arguments: { message: 'hi' } });
      return { asked, ran: result.toolCall.status === 'SUCCEEDED' };
    } finally {
      await host.close();
    }
  }

  it("honours an always-allow given on one host in a second host of the same user, and not in another user's host", async () => {
    const store = backend.open();
    expect(await callEcho(createKeyvStores({ store, user: alice }), 'proceed_always_tool')).toMatchObject({
      asked: [{ reason: 'not-approved' }],
      ran: true,
    });
    // Another instance (its own Redis connection) of the same user: not asked.
    expect(await callEcho(createKeyvStores({ store: backend.open(), user: alice }), 'cancel')).toEqual({ asked: [], ran: true });
    // Another user on the same Redis: asked, and declining stops the call.
    const other = await callEcho(createKeyvStores({ store: backend.open(), user: bob }), 'cancel');
    expect(other.asked).toHaveLength(1);
    expect(other.ran).toBe(false);
    const stored = await backend.dump(`:approvals`);
    expect(stored.filter((entry) => entry.key.includes(alice.replace('@', '%40').replace('/', '%2F')))).toHaveLength(1);
  });
});

describe('OAuth tokens of McpToolHost in Redis', () => {
  async function startServers() {
    const valid = new Set(['alice-token']);
    let resource = '';
    const as = await startJsonRoutesServer((request, base) => {
      if (request.path === '/.well-known/oauth-authorization-server') return { body: authorizationServerMetadata(base) };
      if (request.path !== '/token') return undefined;
      const form = new URLSearchParams(request.body);
      if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== 'alice-rt')
        return { status: 400, body: { error: 'invalid_grant' } };
      valid.add('refreshed-token');
      return { body: { access_token: 'refreshed-token', token_type: 'Bearer', expires_in: 3600, refresh_token: 'alice-rt-2' } };
    });
    const mcp = await startProtectedMcpServer({
      authorizationServers: () => [as.url],
      verifyAccessToken: async (token) => (valid.has(token) ? { audience: resource, scope: 'mcp:tools', clientId: 'client-1' } : undefined),
    });
    resource = mcp.resource;
    cleanups.push(
      () => as.close(),
      () => mcp.close(),
    );
    const entry = (token: { accessToken: string; expiresAt: number; refreshToken?: string }): StoredOAuthCredentials => ({
      serverName: 'secure',
      issuer: as.url,
      mcpServerUrl: mcp.url,
      resource: mcp.resource,
      tokenEndpoint: `${as.url}/token`,
      client: { clientId: 'client-1', source: 'dynamic-registration' },
      token: { tokenType: 'Bearer', ...token },
      updatedAt: Date.now(),
    });
    return { as, mcp, entry };
  }

  async function statusOf(stores: KeyvStores, url: string) {
    const host = await McpToolHost.create({
      settings: { mcpServers: { secure: { httpUrl: url, trust: true, oauth: { allowPrivateNetwork: true } } } },
      stores,
    });
    try {
      await host.discover();
      const status = host.servers.status().servers[0];
      const call = status?.status === 'CONNECTED' ? await host.callTool({ name: 'whoami', arguments: {} }) : undefined;
      return {
        status: status?.status,
        errorCode: status?.errorCode,
        lastError: status?.lastError,
        called: call !== undefined && call.error === undefined,
      };
    } finally {
      await host.close();
    }
  }

  it("connects with a user's stored token, never with another user's, and fails naming the key id with a wrong key", async () => {
    const { mcp, entry } = await startServers();
    const store = backend.open();
    await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.set(
      entry({ accessToken: 'alice-token', expiresAt: FAR_FUTURE }),
    );

    expect(await statusOf(createKeyvStores({ store: backend.open(), user: alice, encryption: ENCRYPTION }), mcp.url)).toMatchObject({
      status: 'CONNECTED',
      called: true,
    });
    expect(await statusOf(createKeyvStores({ store: backend.open(), user: bob, encryption: ENCRYPTION }), mcp.url)).toMatchObject({
      status: 'DISCONNECTED',
      errorCode: 'AUTH_REQUIRED',
      called: false,
    });
    const wrongKey = await statusOf(
      createKeyvStores({ store: backend.open(), user: alice, encryption: { keys: { k1: randomBytes(32) }, current: 'k1' } }),
      mcp.url,
    );
    expect([wrongKey.status, wrongKey.errorCode]).toEqual(['DISCONNECTED', 'STORE_DECRYPT_FAILED']);
    expect(wrongKey.lastError).toContain('key id "k1"');
    expect(mcp.accepted.every((token) => token.clientId === 'client-1')).toBe(true);
  });

  it('writes a refreshed token back for the same user, encrypted, where a second host of that user finds it', async () => {
    const { mcp, entry } = await startServers();
    const store = backend.open();
    await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.set(
      entry({ accessToken: 'expired-token', expiresAt: 1_000, refreshToken: 'alice-rt' }),
    );

    expect(await statusOf(createKeyvStores({ store: backend.open(), user: alice, encryption: ENCRYPTION }), mcp.url)).toMatchObject({
      status: 'CONNECTED',
      called: true,
    });
    const stored = await createKeyvStores({ store, user: alice, encryption: ENCRYPTION }).tokens.get('secure');
    expect(stored?.token).toMatchObject({ accessToken: 'refreshed-token', refreshToken: 'alice-rt-2' });
    const raw = (await backend.dump(':oauth-tokens')).filter((row) => row.key.includes(alice.slice(-8)));
    expect(raw).toHaveLength(1);
    expect(raw[0]?.value).not.toContain('refreshed-token');
    expect(raw[0]?.value).not.toContain('alice-rt-2');
    expect(await createKeyvStores({ store, user: bob, encryption: ENCRYPTION }).tokens.list()).toEqual([]);
  });
});
