import { afterEach, describe, expect, it } from 'vitest';
import { probeChallenge } from './probe-challenge.js';
import { startJsonRoutesServer, type RouteAnswer, type SeenRequest } from '@toolhost-internal/fixtures/oauth';

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const rpcMethod = (request: SeenRequest) => (request.body ? (JSON.parse(request.body) as { method?: string }).method : undefined);

async function probe(handler: (request: SeenRequest) => RouteAnswer | undefined) {
  const server = await startJsonRoutesServer((request) => handler(request));
  servers.push(server);
  const challenge = await probeChallenge({ serverUrl: `${server.url}/mcp`, fetch: (input, init) => globalThis.fetch(input, init) });
  return { challenge, seen: server.requests.map((r) => `${r.method} ${rpcMethod(r) ?? ''}`.trim()), requests: server.requests };
}

describe('probeChallenge', () => {
  it('reads the challenge of a 401 on initialize and sends nothing else', async () => {
    const { challenge, seen } = await probe(() => ({
      status: 401,
      headers: { 'www-authenticate': 'Bearer scope="a", resource_metadata="https://m/prm"' },
    }));
    expect(challenge).toEqual({ scope: 'a', resourceMetadata: 'https://m/prm' });
    expect(seen).toEqual(['POST initialize']);
  });

  it('asks tools/list in the session when initialize is let through, then ends the session', async () => {
    const { challenge, seen, requests } = await probe((request): RouteAnswer => {
      if (request.method === 'DELETE') return { status: 200 };
      if (rpcMethod(request) === 'initialize')
        return { body: { jsonrpc: '2.0', id: 0, result: {} }, headers: { 'mcp-session-id': 'sess-1' } };
      return { status: 401, headers: { 'www-authenticate': 'Bearer scope="mcp:basic"' } };
    });
    expect(challenge).toEqual({ scope: 'mcp:basic' });
    expect(seen).toEqual(['POST initialize', 'POST tools/list', 'DELETE']);
    expect(requests[1]?.headers['mcp-session-id']).toBe('sess-1');
  });

  it('asks server/discover (MCP 2026-07-28) when initialize is refused with a 400, before any SSE GET', async () => {
    const { challenge, seen, requests } = await probe((request): RouteAnswer => {
      if (rpcMethod(request) === 'initialize')
        return { status: 400, body: { jsonrpc: '2.0', id: 0, error: { code: -32020, message: 'Missing MCP-Protocol-Version header' } } };
      return { status: 401, headers: { 'www-authenticate': 'Bearer scope="mcp:basic", resource_metadata="https://m/prm"' } };
    });
    expect(challenge).toEqual({ scope: 'mcp:basic', resourceMetadata: 'https://m/prm' });
    expect(seen).toEqual(['POST initialize', 'POST server/discover']);
    expect(requests[1]?.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
    expect(JSON.parse(requests[1]!.body)).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
  });

  it('returns undefined when the server needs no authorization, and falls back to an SSE GET for other answers', async () => {
    expect((await probe(() => ({ body: { jsonrpc: '2.0', id: 0, result: {} } }))).challenge).toBeUndefined();
    const sse = await probe((request) =>
      request.method === 'GET' ? { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } } : { status: 405 },
    );
    expect(sse.challenge).toEqual({ error: 'invalid_token' });
    expect(sse.seen).toEqual(['POST initialize', 'GET']);
  });
});
