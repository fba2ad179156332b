// Web pages the user happens to visit attack the agent on loopback: a cross-origin "simple" POST,
// DNS rebinding (a page whose own name now points at 127.0.0.1), and requests without the token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2aServer as createServerOf, type A2aServer, type A2aServerOptions } from './a2a-server.js';
import { createScriptedModel } from './agent-model.js';
import { rawRequest, startAgent, userMessage, type TestAgent } from './test-support.js';

const agents: TestAgent[] = [];
const servers: Server[] = [];
const extra: A2aServer[] = [];

afterEach(async () => {
  for (const server of extra.splice(0)) await server.close();
  for (const agent of agents.splice(0)) await agent.close();
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
});

/** A server around a test agent's host, closed after the test. */
function createA2aServer(options: A2aServerOptions<unknown, unknown, unknown, unknown>): A2aServer {
  const server = createServerOf(options);
  extra.push(server);
  return server;
}

async function start(...args: Parameters<typeof startAgent>): Promise<TestAgent> {
  const agent = await startAgent(...args);
  agents.push(agent);
  return agent;
}

/** A JSON-RPC body that makes the scripted model call the trusted `slow` tool (it runs without asking). */
function trustedToolCall(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: { message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 1}' }]) },
  });
}

/**
 * Run one trusted tool call the legitimate way and wait for it to finish; then every tool call the
 * host ever saw is in `agent.updates`, so a refused request that had run a tool would show there.
 */
async function toolCallsAfterALegitimateOne(agent: TestAgent): Promise<string[]> {
  const answer = await agent.rpc('message/send', { message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 1}' }]) });
  expect((answer.body.result as { status: { state: string } }).status.state).toBe('completed');
  return [...new Set(agent.updates.map((update) => update.toolCallId))];
}

describe('a web page on another origin', () => {
  it('gets 403 for a cross-origin text/plain POST (no preflight) and no tool runs, with the default options', async () => {
    // The default: no bearerToken option (the agent generates one).
    const agent = await start({ bearerToken: undefined });
    const answer = await rawRequest(agent.url, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8', host: new URL(agent.url).host },
      body: trustedToolCall(),
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/requests from web pages on "https:\/\/evil\.example" are not allowed.*allowedOrigins/);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    // Only the legitimate call ever reached the host.
    expect(await toolCallsAfterALegitimateOne(agent)).toHaveLength(1);
  });

  it('is refused by the Origin check alone when authentication is off, even with every other header right', async () => {
    const agent = await start({ bearerToken: false });
    expect(agent.server.bearerToken).toBeUndefined();
    for (const origin of ['https://evil.example', 'http://localhost:1', 'null']) {
      const answer = await rawRequest(agent.url, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', authorization: 'Bearer whatever-it-guessed' },
        body: trustedToolCall(),
      });
      expect(answer.status, origin).toBe(403);
    }
    // A preflight from such a page gets no CORS headers either.
    const preflight = await rawRequest(agent.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(await toolCallsAfterALegitimateOne(agent)).toHaveLength(1);
    // Without an Origin (a program, not a browser) and with auth off, the request is served.
    const program = await rawRequest(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: trustedToolCall(),
    });
    expect(program.status).toBe(200);
  });

  it('a page the agent serves itself (same origin) is served, without CORS headers', async () => {
    const agent = await start();
    const origin = new URL(agent.url).origin;
    const answer = await rawRequest(agent.url, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', authorization: `Bearer ${agent.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'commands/get', params: {} }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ result: { commands: expect.any(Array) } });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an origin in allowedOrigins gets CORS headers and its preflight answered; others still 403', async () => {
    const agent = await start({ allowedOrigins: ['https://app.example'] });
    const preflight = await rawRequest(agent.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/authorization/);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
    const call = await rawRequest(agent.url, {
      method: 'POST',
      headers: { origin: 'https://app.example', 'content-type': 'application/json', authorization: `Bearer ${agent.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'commands/get', params: {} }),
    });
    expect(call.status).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBe('https://app.example');
    // The allowed page still needs the token.
    const anonymous = await rawRequest(agent.url, {
      method: 'POST',
      headers: { origin: 'https://app.example', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'commands/get', params: {} }),
    });
    expect(anonymous.status).toBe(401);
    const other = await rawRequest(agent.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.status).toBe(403);
    expect(() =>
      createA2aServer({ host: agent.host, model: createScriptedModel() as never, allowedOrigins: ['https://app.example/path'] }),
    ).toThrow(/allowedOrigins: "https:\/\/app\.example\/path" is not an origin/);
  });
});

describe('DNS rebinding', () => {
  it('refuses every request whose Host is not a name of the agent, before any work, even with the token', async () => {
    const agent = await start();
    const port = new URL(agent.url).port;
    const rebound = `rebind.attacker.example:${port}`;
    // To the browser this is same-origin: the page at http://rebind.attacker.example:<port> talks to itself.
    const headers = { host: rebound, origin: `http://${rebound}`, 'content-type': 'text/plain' };
    const run = await rawRequest(agent.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${agent.token}` },
      body: trustedToolCall(),
    });
    expect(run.status).toBe(403);
    expect(run.body).toMatch(/the Host header "rebind\.attacker\.example:\d+" does not name this agent.*allowedHosts/);
    const command = await rawRequest(agent.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${agent.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'command/execute', params: { command_path: ['mcp'], args: '' } }),
    });
    expect(command.status).toBe(403);
    for (const path of ['/.well-known/agent-card.json', '/']) {
      expect((await rawRequest(agent.url, { path, headers: { host: rebound } })).status, path).toBe(403);
    }
    expect(await toolCallsAfterALegitimateOne(agent)).toHaveLength(1);
    // The agent's own names are fine, and a malformed Host is refused.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await rawRequest(agent.url, { path: '/.well-known/agent-card.json', headers: { host } })).status, host).toBe(200);
    }
    expect((await rawRequest(agent.url, { path: '/', headers: { host: 'evil.example@127.0.0.1' } })).status).toBe(400);
  });

  it('a server mounted through requestListener answers the names in allowedHosts, and only those', async () => {
    const agent = await start();
    const mount = async (allowedHosts?: readonly string[]): Promise<string> => {
      const mounted = createA2aServer({
        host: agent.host,
        model: createScriptedModel() as never,
        bearerToken: 'mounted-token-123',
        ...(allowedHosts ? { allowedHosts } : {}),
      });
      const outer = createServer(mounted.requestListener);
      servers.push(outer);
      await new Promise<void>((resolve) => outer.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(outer.address() as AddressInfo).port}/`;
    };
    const strict = await mount();
    expect((await rawRequest(strict, { path: '/.well-known/agent-card.json', headers: { host: 'agent.internal:8443' } })).status).toBe(403);
    const named = await mount(['agent.internal']);
    const card = await rawRequest(named, { path: '/.well-known/agent-card.json', headers: { host: 'agent.internal:8443' } });
    expect(card.status).toBe(200);
    expect((JSON.parse(card.body) as AgentCard).url).toBe('http://agent.internal:8443/');
    expect((await rawRequest(named, { path: '/', headers: { host: 'other.internal' } })).status).toBe(403);
    const withPort = await mount(['agent.internal:8443']);
    expect((await rawRequest(withPort, { path: '/', headers: { host: 'agent.internal:8443' } })).status).toBe(200);
    expect((await rawRequest(withPort, { path: '/', headers: { host: 'agent.internal:9000' } })).status).toBe(403);
  });
});

describe('the bearer token by default', () => {
  it('is generated when the host gives none: 401 without it, it works with it, and the card declares it', async () => {
    const agent = await start({ bearerToken: undefined });
    const token = agent.server.bearerToken;
    expect(token).toMatch(/^[\w-]{43}$/);
    const anonymous = await agent.rpc(
      'message/send',
      { message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 1}' }]) },
      { token: null },
    );
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.body)).not.toContain(token);
    const card = (await (await fetch(new URL('/.well-known/agent-card.json', agent.url))).json()) as AgentCard;
    expect(card.security).toEqual([{ bearer: [] }]);
    expect(await toolCallsAfterALegitimateOne(agent)).toHaveLength(1);
    // Two servers, two tokens.
    const other = createA2aServer({ host: agent.host, model: createScriptedModel() as never });
    expect(other.bearerToken).not.toBe(token);
    // Turning authentication off is explicit, and the card then declares no scheme.
    const open = createA2aServer({ host: agent.host, model: createScriptedModel() as never, bearerToken: false });
    expect(open.bearerToken).toBeUndefined();
    expect(open.agentCard.securitySchemes).toBeUndefined();
    expect(() => createA2aServer({ host: agent.host, model: createScriptedModel() as never, bearerToken: 'has spaces in it' })).toThrow(
      /bearerToken must be/,
    );
  });
});
