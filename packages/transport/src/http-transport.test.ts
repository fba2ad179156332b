import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { startHttpFixture, type HttpFixture, type HttpFixtureOptions } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import type { TransportError } from './transport-error.js';
import { callCrashTool, firstText, newClient } from './test-helpers.js';
import { SdkErrorCode } from '@modelcontextprotocol/client';

const fixtures: HttpFixture[] = [];
const connections: ConnectedTransport[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function fixture(options: HttpFixtureOptions): Promise<HttpFixture> {
  const started = await startHttpFixture(options);
  fixtures.push(started);
  return started;
}

async function connect(
  serverName: string,
  config: Parameters<typeof connectTransport>[0]['config'],
): Promise<{ connection: ConnectedTransport; client: ReturnType<typeof newClient> }> {
  const client = newClient();
  // Generous: nothing here should time out, and a busy machine connects slowly.
  const connection = await connectTransport({ serverName, config, client, timeout: 60_000 });
  connections.push(connection);
  return { connection, client };
}

describe('Streamable HTTP', () => {
  it('sends the configured headers on POST, GET and DELETE, and DELETEs the session on close', async () => {
    const server = await fixture({ behaviour: 'basic' });
    const { connection, client } = await connect('remote', { httpUrl: server.url, headers: { 'X-Api-Key': 'k-123' } });
    expect(connection.kind).toBe('http');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'hi' } }))).toBe('hi');
    await expect.poll(() => server.requests.some((r) => r.method === 'GET')).toBe(true);
    const sessionId = connection.transport.sessionId;
    expect(server.sessionIds()).toEqual([sessionId]);
    await connection.close();
    expect(server.sessionIds()).toEqual([]);
    const methods = new Set(server.requests.map((r) => r.method));
    expect(methods).toEqual(new Set(['POST', 'GET', 'DELETE']));
    expect(server.requests.every((r) => r.headers['x-api-key'] === 'k-123')).toBe(true);
    const deleted = server.requests.find((r) => r.method === 'DELETE');
    expect(deleted).toMatchObject({ sessionId, status: 200 });
    expect(deleted?.headers['mcp-protocol-version']).toBeTruthy();
  });

  it('keeps working with a POST-only server whose GET stream answers 404', async () => {
    const server = await fixture({ behaviour: 'basic', getStatus: 404 });
    const { client } = await connect('post-only', { httpUrl: server.url });
    await expect.poll(() => server.requests.some((r) => r.method === 'GET' && r.status === 404)).toBe(true);
    expect(firstText(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
  });

  it('re-initializes once when the server forgets the session', async () => {
    const server = await fixture({ behaviour: 'basic' });
    const { client, connection } = await connect('forgetful', { httpUrl: server.url });
    const firstSession = connection.transport.sessionId;
    server.forgetSessions();
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'again' } }))).toBe('again');
    expect(connection.transport.sessionId).not.toBe(firstSession);
    expect(server.requests.filter((r) => r.rpcMethods.includes('initialize'))).toHaveLength(2);
  });

  it('fails with SESSION_EXPIRED naming the server when the new session is forgotten too', async () => {
    const server = await fixture({ behaviour: 'basic' });
    const { client } = await connect('amnesiac', { httpUrl: server.url });
    server.forgetSessions({ always: true });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SESSION_EXPIRED', serverName: 'amnesiac', status: 404 });
    expect((error as Error).message).toContain("'amnesiac'");
    expect(server.requests.filter((r) => r.rpcMethods.includes('initialize'))).toHaveLength(2);
  });

  it('re-initializes after a POST-only server restarts', async () => {
    const server = await fixture({ behaviour: 'basic', getStatus: 404 });
    const { client } = await connect('restarting', { httpUrl: server.url });
    await expect.poll(() => server.requests.some((r) => r.method === 'GET' && r.status === 404)).toBe(true);
    await server.restart();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('untyped url: Streamable HTTP first, then legacy SSE', () => {
  it.each([400, 404, 405] as const)('falls back to SSE when initialize answers %i', async (status) => {
    const server = await fixture({ behaviour: 'basic', transport: 'both', initializeStatus: status });
    const { connection, client } = await connect('legacy', { url: server.url, headers: { 'X-Tenant': 't1' } });
    expect(connection).toMatchObject({ kind: 'sse', fellBackToSse: true });
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'via sse' } }))).toBe('via sse');
    expect(server.requests.every((r) => r.headers['x-tenant'] === 't1')).toBe(true);
    expect(server.requests.some((r) => r.path.startsWith('/messages'))).toBe(true);
  });

  it('uses Streamable HTTP when it works', async () => {
    const server = await fixture({ behaviour: 'basic', transport: 'both' });
    const { connection } = await connect('modern', { url: server.url });
    expect(connection).toMatchObject({ kind: 'http', fellBackToSse: false });
  });

  it('never falls back on 401, and keeps the WWW-Authenticate details', async () => {
    const server = await fixture({
      behaviour: 'basic',
      transport: 'both',
      initializeStatus: 401,
      wwwAuthenticate: 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="read write"',
    });
    const error = (await connect('private', { url: server.url }).catch((e: unknown) => e)) as TransportError;
    expect(error).toMatchObject({
      code: 'AUTH_REQUIRED',
      status: 401,
      serverName: 'private',
      resourceMetadataUrl: 'http://127.0.0.1/.well-known/oauth-protected-resource',
      scope: 'read write',
    });
    expect(error.wwwAuthenticate).toContain('Bearer');
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('never falls back on 403', async () => {
    const server = await fixture({ behaviour: 'basic', transport: 'both', initializeStatus: 403 });
    const error = await connect('forbidden', { url: server.url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
  });

  it('reports the original HTTP error when SSE fails too', async () => {
    const server = await fixture({ behaviour: 'basic', initializeStatus: 404 });
    const error = (await connect('nowhere', { url: server.url }).catch((e: unknown) => e)) as TransportError;
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 404, serverName: 'nowhere' });
    expect(error.message).toContain('The legacy SSE transport was tried too');
  });

  it('does not fall back for type http, and connects SSE directly for type sse', async () => {
    const server = await fixture({ behaviour: 'basic', transport: 'sse' });
    const error = await connect('typed', { url: server.url, type: 'http' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 404 });
    const { connection, client } = await connect('typed-sse', { url: server.url, type: 'sse' });
    expect(connection).toMatchObject({ kind: 'sse', fellBackToSse: false });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['poem-writer']);
  });

  it('reports an unreachable server as CONNECT_FAILED', async () => {
    const server = await fixture({ behaviour: 'basic' });
    const url = server.url;
    await server.stop();
    const error = await connect('offline', { httpUrl: url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECT_FAILED', serverName: 'offline', url });
  });
});

describe('cancellation', () => {
  it('a cancelled call does not look like a lost server', async () => {
    const server = await fixture({ behaviour: 'slow', progressIntervalMs: 20, closeCancelledStreams: true });
    const { client } = await connect('cancel', { httpUrl: server.url });
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { delayMs: 5000 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toThrow();
    await expect
      .poll(async () => (await client.callTool({ name: 'slow-stats', arguments: {} })).structuredContent)
      .toMatchObject({ cancelled: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
  });
});

describe('a remote server that goes away', () => {
  it('fails a call in flight at once and closes the client when the server crashes mid-call', async () => {
    const server = await fixture({ behaviour: 'crash' });
    const { client } = await connect('crashing', { httpUrl: server.url });
    const crash = await callCrashTool(client);
    expect(crash.error).toMatchObject({ code: SdkErrorCode.ConnectionClosed });
    // At once, not at the end of the call's 60 s timeout.
    expect(crash.elapsedMs).toBeLessThan(30_000);
    expect(crash.closed).toBe(true);
    expect(crash.errors).toContainEqual(expect.objectContaining({ code: 'CONNECTION_CLOSED', serverName: 'crashing' }));
  });

  it('closes an idle client whose server stops', async () => {
    const server = await fixture({ behaviour: 'basic' });
    const { client } = await connect('stopping', { httpUrl: server.url });
    await expect.poll(() => server.requests.some((r) => r.method === 'GET' && r.status === 200)).toBe(true);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await server.stop();
    await expect.poll(() => closed).toBe(true);
  });
});

describe('a legacy SSE server that goes away', () => {
  it('fails a call in flight at once and closes the client', async () => {
    const server = await fixture({ behaviour: 'crash', transport: 'sse' });
    const { client } = await connect('legacy-crash', { url: server.url, type: 'sse' });
    const crash = await callCrashTool(client);
    expect(crash.error).toMatchObject({ code: SdkErrorCode.ConnectionClosed });
    // At once, not at the end of the call's 60 s timeout.
    expect(crash.elapsedMs).toBeLessThan(30_000);
    expect(crash.closed).toBe(true);
    expect(crash.errors).toContainEqual(expect.objectContaining({ code: 'CONNECTION_CLOSED', serverName: 'legacy-crash' }));
  });
});

describe('injected options', () => {
  it('uses the injected fetch, requestInit headers and the authProvider token on every request', async () => {
    const server = await fixture({ behaviour: 'basic' });
    const seen: string[] = [];
    const provider: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1/callback'] },
      clientInformation: () => ({ client_id: 'test-client' }),
      tokens: () => ({ access_token: 'token-abc', token_type: 'Bearer' }),
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => 'verifier',
    };
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'injected',
      config: { httpUrl: server.url, headers: { 'x-from-config': 'c' } },
      client,
      authProvider: provider,
      requestInit: { headers: { 'x-from-init': 'i', 'x-from-config': 'overridden' } },
      fetch: (url, init) => {
        seen.push(init?.method ?? 'GET');
        return fetch(url, init);
      },
    });
    connections.push(connection);
    await client.listTools();
    await connection.close();
    expect(seen).toEqual(expect.arrayContaining(['POST', 'DELETE']));
    expect(seen.length).toBe(server.requests.length);
    for (const request of server.requests) {
      expect(request.headers).toMatchObject({ authorization: 'Bearer token-abc', 'x-from-init': 'i', 'x-from-config': 'c' });
    }
  });
});
