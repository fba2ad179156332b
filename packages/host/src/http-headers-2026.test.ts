// MCP 2026-07-28 request headers over Streamable HTTP, through the public API against a real
// server on loopback: Mcp-Method / Mcp-Name on every request, parameters declared with
// `x-mcp-header` mirrored into Mcp-Param-* headers, and tools with invalid declarations left out
// (and shown in the status), on that revision only.
import { fixtureBinPath, HOSTILE_TOOLS, INVALID_HEADER_TOOLS, startEraHttpFixture, type EraHttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function hostWith(mcpServers: Record<string, Record<string, unknown>>): Promise<McpToolHost> {
  const host = await McpToolHost.create({ settings: { mcpServers } });
  hosts.push(host);
  await host.discover();
  return host;
}

const invalidNames = INVALID_HEADER_TOOLS.map((tool) => tool.name);

describe('MCP 2026-07-28 request headers', () => {
  let modern: EraHttpFixture;
  let both: EraHttpFixture;
  beforeAll(async () => {
    modern = await startEraHttpFixture({ behaviour: 'hostile', era: 'modern' });
    both = await startEraHttpFixture({ behaviour: 'hostile', era: 'both' });
  });
  afterAll(async () => {
    await Promise.all([modern.close(), both.close()]);
  });

  it('leaves out tools whose x-mcp-header declarations are invalid, and says which and why in the status', async () => {
    const host = await hostWith({ remote: { httpUrl: modern.url, trust: true } });
    const [server] = host.servers.status().servers;
    expect(server?.protocolVersion).toBe('2026-07-28');
    const listed = host.servers.listTools().map((tool) => tool.originalName);
    expect(listed).toContain('regional-echo');
    for (const name of invalidNames) expect(listed).not.toContain(name);
    expect(listed).toHaveLength(HOSTILE_TOOLS.length - invalidNames.length);
    expect(server?.excludedTools.map((tool) => tool.serverToolName)).toEqual(invalidNames);
    expect(server?.excludedTools.find((tool) => tool.serverToolName === 'header-on-number')?.reason).toBe(
      'property "ratio" declares x-mcp-header "Ratio" on a property of type "number" (only string, integer and boolean can be headers)',
    );
    const view = host.servers.formatStatus();
    expect(view).toContain(
      '⚠ Tool "header-with-space" left out: property "zone" declares x-mcp-header "Zone Name", which is not an HTTP token',
    );
    expect(view).toContain('⚠ Tool "header-under-items" left out:');
  });

  it('sends Mcp-Method, Mcp-Name and the declared Mcp-Param-* headers with a tool call', async () => {
    const host = await hostWith({ remote: { httpUrl: modern.url, trust: true } });
    const before = modern.requests.length;
    const result = await host.callTool({ name: 'regional-echo', arguments: { region: 'eu-west', options: { depth: 3 }, text: 'hi' } });
    expect(result.error).toBeUndefined();
    expect(JSON.parse(result.display)).toEqual({
      name: 'regional-echo',
      arguments: { region: 'eu-west', options: { depth: 3 }, text: 'hi' },
    });
    const call = modern.requests.slice(before).find((request) => request.rpcMethods.includes('tools/call'));
    expect(call?.headers).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-name': 'regional-echo',
      'mcp-param-region': 'eu-west',
      'mcp-param-depth': '3',
    });
    const list = modern.requests.find((request) => request.rpcMethods.includes('tools/list'));
    expect(list?.headers['mcp-method']).toBe('tools/list');
  });

  it('leaves out tools whose x-mcp-header names a credential, HTTP or MCP header (Authorization, Cookie, Host...)', async () => {
    const host = await hostWith({ remote: { httpUrl: modern.url, trust: true } });
    const excluded = new Map(host.servers.status().servers[0]?.excludedTools.map((tool) => [tool.serverToolName, tool.reason]));
    for (const [tool, property, header] of [
      ['header-authorization', 'token', 'Authorization'],
      ['header-cookie', 'session', 'Cookie'],
      ['header-host', 'target', 'Host'],
      ['header-content-length', 'size', 'Content-Length'],
      ['header-session-id', 'session', 'mcp-session-id'],
    ]) {
      expect(excluded.get(tool as string), tool).toBe(
        `property "${property}" declares x-mcp-header "${header}", the name of a credential, HTTP or MCP header, which a tool parameter may not take`,
      );
    }
  });

  it('sends an argument with CR/LF, NUL, non-ASCII or edge spaces Base64-encoded in its Mcp-Param header, never raw', async () => {
    const host = await hostWith({ remote: { httpUrl: modern.url, trust: true } });
    const values = ['eu\r\nX-Injected: yes', 'a\u0000b', 'Région', ' padded ', '=?base64?aGk=?='];
    for (const region of values) {
      const before = modern.requests.length;
      const result = await host.callTool({ name: 'regional-echo', arguments: { region, text: 'hi' } });
      expect(result.error, JSON.stringify(region)).toBeUndefined();
      // The body still carries the value as it was.
      expect(JSON.parse(result.display)).toEqual({ name: 'regional-echo', arguments: { region, text: 'hi' } });
      const call = modern.requests.slice(before).find((request) => request.rpcMethods.includes('tools/call'));
      expect(call?.headers['mcp-param-region']).toBe(`=?base64?${Buffer.from(region, 'utf8').toString('base64')}?=`);
      expect(call?.headers['x-injected']).toBeUndefined();
    }
  });

  it('refuses an argument too long for its Mcp-Param header, naming it, without sending the call', async () => {
    const host = await hostWith({ remote: { httpUrl: modern.url, trust: true } });
    const before = modern.requests.length;
    const result = await host.callTool({ name: 'regional-echo', arguments: { region: 'r'.repeat(100_000), text: 'hi' } });
    expect(result.error?.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(result.error?.message).toBe(
      'Argument "region" of tool "regional-echo" (MCP server "remote") is sent as the Mcp-Param-Region header (its x-mcp-header), ' +
        'and its value would be 100000 characters there, over the 4096 a header may carry; the call was not sent. Give a shorter value.',
    );
    expect(modern.requests.slice(before).some((request) => request.rpcMethods.includes('tools/call'))).toBe(false);
    // A nested declaration (options.depth) is checked too, and a value at the limit is sent.
    const ok = await host.callTool({ name: 'regional-echo', arguments: { region: 'r'.repeat(4096), text: 'hi' } });
    expect(ok.error).toBeUndefined();
  });

  it('keeps every tool on the 2025-11-25 revision and over stdio, where declarations mean nothing', async () => {
    const host = await hostWith({
      pinned: { httpUrl: both.url, trust: true, protocolVersion: '2025-11-25' },
      // Pinned: in auto mode a stdio server that has not answered the version probe within 5 s (a
      // busy machine starting it) counts as a 2025-era one.
      stdio: { command: process.execPath, args: [fixtureBinPath('hostile'), '--era=modern'], trust: true, protocolVersion: '2026-07-28' },
    });
    const status = host.servers.status().servers;
    expect(status.map((server) => [server.name, server.protocolVersion])).toEqual([
      ['pinned', '2025-11-25'],
      ['stdio', '2026-07-28'],
    ]);
    for (const server of status) {
      expect(server.excludedTools, server.name).toEqual([]);
      expect(
        server.tools.map((tool) => tool.serverToolName),
        server.name,
      ).toEqual(HOSTILE_TOOLS.map((tool) => tool.name));
    }
  });
});
