// MCP 2026-07-28 and older revisions side by side, through the public API: real servers built with
// the v2 server package on loopback (stdio and Streamable HTTP), each era alone and both together.
import { fixtureBinPath, startEraHttpFixture, type EraHttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function stdioEntry(era: 'legacy' | 'both' | 'modern', extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [fixtureBinPath('basic'), `--era=${era}`, `--name=${era}-stdio`], trust: true, ...extra };
}

async function hostWith(mcpServers: Record<string, Record<string, unknown>>): Promise<McpToolHost> {
  const host = await McpToolHost.create({ settings: { mcpServers } });
  hosts.push(host);
  await host.discover();
  return host;
}

describe('protocol revisions', () => {
  let modernHttp: EraHttpFixture;
  beforeAll(async () => {
    modernHttp = await startEraHttpFixture({ behaviour: 'basic', era: 'modern', name: 'modern-http' });
  });
  afterAll(async () => {
    await modernHttp.close();
  });

  it('negotiates 2026-07-28 with modern servers and 2025-11-25 with legacy ones, and calls tools on each', async () => {
    const host = await hostWith({
      legacy: stdioEntry('legacy'),
      both: stdioEntry('both'),
      modern: stdioEntry('modern'),
      remote: { httpUrl: modernHttp.url, trust: true },
    });
    const status = host.servers.status().servers;
    expect(status.map((server) => [server.name, server.status, server.protocolVersion])).toEqual([
      ['legacy', 'CONNECTED', '2025-11-25'],
      ['both', 'CONNECTED', '2026-07-28'],
      ['modern', 'CONNECTED', '2026-07-28'],
      ['remote', 'CONNECTED', '2026-07-28'],
    ]);
    expect(host.servers.formatStatus()).toContain('Protocol: MCP 2026-07-28');
    for (const server of ['legacy', 'both', 'modern', 'remote']) {
      const echo = host.servers.listTools().find((tool) => tool.serverName === server && tool.originalName === 'echo');
      expect(echo, server).toBeDefined();
      const result = await host.callTool({ name: echo?.name ?? '', arguments: { message: `hello ${server}` } });
      expect(result.error?.message, server).toBeUndefined();
      expect(result.parts).toEqual([{ type: 'text', text: `hello ${server}` }]);
    }
  });

  it('sends no initialize and no session to a 2026-07-28 HTTP server, and stamps every request with the revision', async () => {
    const before = modernHttp.requests.length;
    const host = await hostWith({ remote: { httpUrl: modernHttp.url, trust: true } });
    await host.callTool({ name: 'echo', arguments: { message: 'x' } });
    const seen = modernHttp.requests.slice(before);
    expect(seen.flatMap((request) => request.rpcMethods)).not.toContain('initialize');
    expect(seen.flatMap((request) => request.rpcMethods)).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    expect(seen.every((request) => request.headers['mcp-session-id'] === undefined)).toBe(true);
    const call = seen.find((request) => request.rpcMethods.includes('tools/call'));
    expect(call?.headers['mcp-protocol-version']).toBe('2026-07-28');
  });

  it('honours a pinned revision, and a pin the server cannot speak fails with an error naming both revisions', async () => {
    const host = await hostWith({
      pinnedLegacy: stdioEntry('both', { protocolVersion: '2025-11-25' }),
      pinnedModern: stdioEntry('both', { protocolVersion: '2026-07-28' }),
      impossible: stdioEntry('modern', { protocolVersion: '2025-06-18' }),
      impossibleHttp: { httpUrl: modernHttp.url, trust: true, protocolVersion: '2025-11-25' },
      modernPinOnLegacy: stdioEntry('legacy', { protocolVersion: '2026-07-28' }),
    });
    const byName = new Map(host.servers.status().servers.map((server) => [server.name, server]));
    expect(byName.get('pinnedLegacy')?.protocolVersion).toBe('2025-11-25');
    expect(byName.get('pinnedModern')?.protocolVersion).toBe('2026-07-28');
    for (const name of ['impossible', 'impossibleHttp']) {
      const server = byName.get(name);
      expect(server?.status, name).toBe('DISCONNECTED');
      expect(server?.errorCode, name).toBe('PROTOCOL_VERSION_MISMATCH');
      expect(server?.lastError, name).toMatch(/2025-(06-18|11-25)/);
      expect(server?.lastError, name).toContain('2026-07-28');
      expect(server?.lastError, name).not.toContain('check the URL');
    }
    const legacyOnly = byName.get('modernPinOnLegacy');
    expect(legacyOnly?.errorCode).toBe('PROTOCOL_VERSION_MISMATCH');
    expect(legacyOnly?.lastError).toContain('does not speak MCP 2026-07-28');
    expect(legacyOnly?.lastError).toContain('remove "protocolVersion"');
  });
});
