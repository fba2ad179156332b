// A header value, a token, an environment value, a password or a query token never reaches a
// message, a status view, an event or a warning: the header or variable is named instead.
// Through McpToolHost against a real Streamable HTTP fixture server on loopback.
import { createServer } from 'node:net';
import { fixtureBinPath, startEraHttpFixture, type EraHttpFixture } from '@toolhost-internal/fixtures';
import { InMemoryTokenStore } from '@toolhost/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvents } from './host-events.js';
import { McpToolHost } from './mcp-tool-host.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Everything the host told: the status, the `/mcp` view, every warning and status event. */
async function everythingShown(host: McpToolHost, events: unknown[]): Promise<string> {
  const view = await host.commands.run({ line: '/mcp' });
  return JSON.stringify([host.servers.status(), host.servers.formatStatus(), view, events]);
}

function record(host: McpToolHost): unknown[] {
  const events: unknown[] = [];
  for (const name of ['warning', 'server-status-change', 'server-log'] as const) {
    host.on(name, (payload: HostEvents[typeof name]) => events.push([name, payload]));
  }
  return events;
}

describe('secrets in errors, views and events', () => {
  let fixture: EraHttpFixture;
  const hosts: McpToolHost[] = [];
  beforeAll(async () => {
    fixture = await startEraHttpFixture({ behaviour: 'basic', era: 'both' });
  });
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.close()));
    await fixture.close();
  });

  it('names a header, variable or URL field that cannot be used, never its value, written or expanded', async () => {
    const host = await McpToolHost.create({
      settings: {
        mcpServers: {
          written: { httpUrl: fixture.url, headers: { Authorization: 'Bearer sk-SECRET-TOKEN-1234\nrest' } },
          expanded: { httpUrl: fixture.url, headers: { 'X-Api-Key': '$API_KEY' } },
          password: { httpUrl: 'http://admin:sk-SECRET-PASSWORD@127.0.0.1:9/mcp' },
          environment: { command: process.execPath, args: [fixtureBinPath('basic')], env: { TOKEN: 'sk-SECRET-ENV\u0000' } },
        },
      },
      env: { API_KEY: 'sk-SECRET-EXPANDED\r\nX-Injected: yes' },
    });
    hosts.push(host);
    const events = record(host);
    await host.discover();
    const shown = await everythingShown(host, events);
    expect(shown).not.toContain('sk-SECRET');
    const warnings = host.servers.status().warnings.map((warning) => warning.message);
    expect(warnings).toContainEqual(
      expect.stringContaining(
        'mcpServers.written.headers.Authorization: the header "Authorization" cannot be sent: its value has a line break or NUL character inside it (the value is not shown, it may be a secret).',
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringContaining('mcpServers.expanded.headers.X-Api-Key: the header "X-Api-Key" cannot be sent'),
    );
    expect(warnings).toContainEqual(expect.stringContaining('mcpServers.password.httpUrl: the URL has a user name or password in it'));
    expect(warnings).toContainEqual(
      expect.stringContaining('mcpServers.environment.env.TOKEN: the environment variable "TOKEN" has a NUL character in its value'),
    );
  });

  it('a stored token that cannot go in a header: the last error says so without the token', async () => {
    const tokens = new InMemoryTokenStore();
    await tokens.set({
      serverName: 'api',
      issuer: 'https://as.example.test',
      mcpServerUrl: fixture.url,
      resource: fixture.url,
      tokenEndpoint: 'https://as.example.test/token',
      client: { clientId: 'client', source: 'configured' },
      token: { accessToken: 'sk-SECRET-TOKEN-5678\nrest', tokenType: 'Bearer' },
      updatedAt: Date.now(),
    });
    const host = await McpToolHost.create({ settings: { mcpServers: { api: { httpUrl: fixture.url } } }, stores: { tokens } });
    hosts.push(host);
    const events = record(host);
    await host.discover();
    const [server] = host.servers.status().servers;
    expect(server?.status).toBe('DISCONNECTED');
    expect(server?.lastError).toContain('is an invalid header value');
    expect(server?.lastError).toContain('not shown, it may be a secret');
    expect(await everythingShown(host, events)).not.toContain('sk-SECRET');
  });

  it('a query token or password of a server URL is masked in the last error, the status and the events', async () => {
    const port = await closedPort();
    const host = await McpToolHost.create({
      settings: { mcpServers: { closed: { httpUrl: `http://127.0.0.1:${port}/mcp?token=sk-SECRET-QUERY&region=eu` } } },
    });
    hosts.push(host);
    const events = record(host);
    await host.discover();
    const [server] = host.servers.status().servers;
    expect(server?.lastError).toContain(`MCP server 'closed' (http://127.0.0.1:${port}/mcp?token=***&region=***) could not be reached`);
    expect(await everythingShown(host, events)).not.toContain('sk-SECRET');
  });
});
