import { startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

describe('status view over HTTP servers', () => {
  let open: HttpFixture;
  let locked: HttpFixture;
  let host: McpToolHost;
  const statusChanges: string[] = [];

  beforeAll(async () => {
    open = await startHttpFixture({ behaviour: 'basic' });
    locked = await startHttpFixture({ behaviour: 'basic', initializeStatus: 401 });
    host = await McpToolHost.create({
      settings: {
        mcpServers: {
          remote: { httpUrl: `${open.url}?token=abc123`, headers: { Authorization: 'Bearer header-secret' }, timeout: 10_000 },
          locked: { httpUrl: locked.url, timeout: 10_000 },
          missing: fixtureServer('basic', { command: '/definitely/not/a/real/binary' }),
          excluded: fixtureServer('basic'),
        },
        mcp: { excluded: ['excluded'] },
      },
    });
    host.on('server-status-change', (change) => statusChanges.push(`${change.serverName}:${change.status}`));
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
    await open.close();
    await locked.close();
  });

  it('shows URLs without secrets, header names without values, and each server\u2019s state', () => {
    const text = host.servers.formatStatus();
    expect(text).toContain('📡 remote (CONNECTED)');
    expect(text).toContain(`URL: ${open.url}?token=*** (http)`);
    expect(text).toContain('Headers: Authorization (values hidden)');
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('header-secret');
    expect(text).toMatch(
      /🔌 missing \(DISCONNECTED\)\n {2}Command: \/definitely\/not\/a\/real\/binary[^\n]*\n(?: {2}[^\n]*\n)* {2}Error: /,
    );
    expect(text).toMatch(/⛔ excluded \(BLOCKED\)\n(?: {2}[^\n]*\n)* {2}Error: [^\n]*mcp\.excluded/);
    expect(statusChanges).toContain('remote:CONNECTED');
    expect(statusChanges).toContain('missing:DISCONNECTED');
  });

  it('reports a server that answers 401 as needing authentication', async () => {
    const locked = host.servers.status().servers.find((server) => server.name === 'locked');
    expect(locked?.status).toBe('DISCONNECTED');
    expect(locked?.needsAuthentication).toBe(true);
    expect(host.servers.formatStatus({ serverName: 'locked' })).toContain('Authentication: required — run /mcp auth locked');
    const listing = await host.commands.run({ line: '/mcp auth' });
    expect(listing.text).toBe('MCP servers that need authentication:\n  - locked: run /mcp auth locked');
  });

  it('gives each server that is not connected a stable error code, so callers never match message text', () => {
    const codes = Object.fromEntries(host.servers.status().servers.map((server) => [server.name, server.errorCode]));
    expect(codes).toEqual({ remote: undefined, locked: 'AUTH_REQUIRED', missing: 'SPAWN_FAILED', excluded: 'EXCLUDED' });
  });

  it('refuses OAuth for stdio and unknown servers with a typed error', async () => {
    await expect(host.servers.authenticate({ serverName: 'missing' })).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
    await expect(host.servers.authenticate({ serverName: 'nope' })).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });
});
