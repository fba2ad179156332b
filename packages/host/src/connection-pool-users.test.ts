// A connection pool shared by the hosts of two users, Alice and Bob, for a remote server that also
// serves anonymous clients: they share one session. What the server asks during one user's call
// (sampling, roots, elicitation) reaches that user only, and what it asks outside any call reaches
// nobody. Each has a token store of their own; then Alice signs in (a token lands in her store).
// Nothing her credentials open or carry may travel on the session Bob still uses: not the pool's
// own GET stream (the server would tie it to Alice and push her notifications to it, for Bob), and
// not Alice's next request. Real Streamable HTTP server on loopback, every request recorded.
import { startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { InMemoryTokenStore, type StoredOAuthCredentials } from '@toolhost/oauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionPool } from './connection-pool/create-connection-pool.js';
import { createScriptedAdapter } from './create-scripted-adapter.js';
import { McpToolHost } from './mcp-tool-host.js';
import { textOf, waitFor } from './test-support.js';

const hosts: McpToolHost[] = [];
let fixture: HttpFixture;

beforeAll(async () => {
  fixture = await startHttpFixture({ behaviour: 'interactive' });
});
afterAll(async () => {
  await fixture.close();
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** What a sign-in stores for the fixture's server. */
function signedIn(accessToken: string): StoredOAuthCredentials {
  return {
    serverName: 'remote',
    issuer: '',
    mcpServerUrl: fixture.url,
    resource: '',
    tokenEndpoint: '',
    client: { clientId: 'fixture-client', source: 'configured' },
    token: { accessToken, tokenType: 'Bearer', expiresAt: Date.now() + 3_600_000 },
    updatedAt: Date.now(),
  };
}

/** Alice's and Bob's hosts on one pool, each with their own token store, connected (Alice first) to one anonymous session. */
async function twoUsersOnOneSession(): Promise<{ alice: McpToolHost; bob: McpToolHost; aliceTokens: InMemoryTokenStore; session: string }> {
  const pool = createConnectionPool();
  const settings = { mcpServers: { remote: { httpUrl: fixture.url, trust: true } } };
  const reconnect = { initialDelayMs: 50, maxDelayMs: 200 };
  const aliceTokens = new InMemoryTokenStore();
  const before = new Set(fixture.sessionIds());
  const alice = await McpToolHost.create({ settings, connectionPool: pool, stores: { tokens: aliceTokens }, reconnect });
  const bob = await McpToolHost.create({ settings, connectionPool: pool, stores: { tokens: new InMemoryTokenStore() }, reconnect });
  hosts.push(alice, bob);
  // Alice connects first: the pool opens the session with her host's connection settings.
  await alice.discover();
  await bob.discover();
  const opened = fixture.sessionIds().filter((id) => !before.has(id));
  expect(opened).toHaveLength(1);
  expect(pool.stats()).toMatchObject({ sharedConnections: 1, sharedConnectionUsers: 2 });
  return { alice, bob, aliceTokens, session: opened[0] as string };
}

/** The Authorization headers seen on `session` from request number `start` on (`(none)` for none). */
function credentialsOn(session: string, start: number): string[] {
  return fixture.requests
    .slice(start)
    .flatMap((request) => (request.sessionId === session ? [request.headers['authorization'] ?? '(none)'] : []));
}

describe("connection pool: a session opened without credentials never carries one user's credentials", () => {
  it("after Alice signs in and reconnects, the pool's own stream of the session Bob still uses does not reopen with her token", async () => {
    const { alice, bob, aliceTokens, session } = await twoUsersOnOneSession();
    const start = fixture.requests.length;
    await aliceTokens.set(signedIn('alice-token'));
    await alice.servers.refresh({ serverName: 'remote', restart: true });
    expect((await alice.callTool({ name: 'request-meta' })).isError).toBe(false);
    // Alice now has a session of her own, with her token.
    const aliceSessions = new Set(
      fixture.requests
        .slice(start)
        .filter((request) => request.headers['authorization'] === 'Bearer alice-token')
        .map((request) => request.sessionId),
    );
    expect(aliceSessions.has(session)).toBe(false);

    // The server drops the GET streams; the pool opens the stream of Bob's session again.
    const beforeDrop = fixture.requests.length;
    fixture.endGetStreams();
    await waitFor(() => fixture.requests.slice(beforeDrop).some((request) => request.method === 'GET' && request.sessionId === session));
    expect((await bob.callTool({ name: 'request-meta' })).isError).toBe(false);
    const seen = credentialsOn(session, start);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain('Bearer alice-token');
  });

  it("when a token lands in Alice's store while she shares the anonymous session, her request is not sent on it; she reconnects on her own", async () => {
    const { alice, bob, aliceTokens, session } = await twoUsersOnOneSession();
    const start = fixture.requests.length;
    // Signed in elsewhere (another instance of the app, `toolhost mcp auth`): her host is still on the shared session.
    await aliceTokens.set(signedIn('alice-token'));
    const refused = await alice.callTool({ name: 'request-meta' });
    expect(refused.isError).toBe(true);
    expect(refused.error?.code).toBe('CONNECTION_CLOSED');
    expect(refused.error?.message).toContain('MCP server "remote": this host now has credentials for the server');
    expect(refused.error?.message).not.toContain('alice-token');
    // Her host reconnects, with her token, on a session of its own; Bob keeps his.
    const ownSession = (): boolean =>
      fixture.requests
        .slice(start)
        .some((request) => request.headers['authorization'] === 'Bearer alice-token' && request.rpcMethods.includes('initialize'));
    await waitFor(() => ownSession() && alice.servers.status().servers[0]?.status === 'CONNECTED');
    expect((await alice.callTool({ name: 'request-meta' })).isError).toBe(false);
    expect((await bob.callTool({ name: 'request-meta' })).isError).toBe(false);
    const seen = credentialsOn(session, start);
    expect(seen).toContain('(none)');
    expect(seen).not.toContain('Bearer alice-token');
  });
});

describe("connection pool: the server's requests reach the user whose call they belong to, or nobody", () => {
  it("sampling and roots asked during Alice's call go to Alice's model and roots only; asked outside any call, to no one", async () => {
    const pool = createConnectionPool();
    const settings = { mcpServers: { remote: { httpUrl: fixture.url, trust: true } } };
    const asked: string[] = [];
    const user = (who: string) => ({
      settings,
      connectionPool: pool,
      adapter: createScriptedAdapter({
        turns: [],
        sampling: () => {
          asked.push(`${who}'s model`);
          return `${who}'s private summary`;
        },
      }),
      roots: [`/home/${who}/secret-project`],
      ui: {
        approveSampling: async () => {
          asked.push(`${who} approves`);
          return { action: 'approve' as const };
        },
      },
    });
    const before = new Set(fixture.sessionIds());
    const alice = await McpToolHost.create(user('alice'));
    const bob = await McpToolHost.create(user('bob'));
    hosts.push(alice, bob);
    await alice.discover();
    await bob.discover();
    expect(fixture.sessionIds().filter((id) => !before.has(id))).toHaveLength(1);

    // On the call's own answer stream: the user of the call, at the same moment as the other user's.
    const [aliceSummary, bobSummary] = await Promise.all([
      alice.callTool({ name: 'summarise-related' }),
      bob.callTool({ name: 'summarise-related' }),
    ]);
    expect(textOf(aliceSummary)).toBe("model said: alice's private summary");
    expect(textOf(bobSummary)).toBe("model said: bob's private summary");
    const [aliceRoots, bobRoots] = await Promise.all([
      alice.callTool({ name: 'show-roots-related' }),
      bob.callTool({ name: 'show-roots-related' }),
    ]);
    expect(textOf(aliceRoots)).toBe('roots: file:///home/alice/secret-project');
    expect(textOf(bobRoots)).toBe('roots: file:///home/bob/secret-project');
    expect(asked.sort()).toEqual(['alice approves', "alice's model", 'bob approves', "bob's model"]);

    // On the session's GET stream: nothing says whose it is, so the pool refuses it; no model runs, no roots are shown.
    asked.length = 0;
    for (const tool of ['summarise', 'show-roots']) {
      const result = await alice.callTool({ name: tool });
      expect(result.isError, tool).toBe(true);
      expect(textOf(result)).toContain('shared by several users');
      expect(textOf(result)).not.toContain('/home/');
    }
    expect(asked).toEqual([]);
  });
});
