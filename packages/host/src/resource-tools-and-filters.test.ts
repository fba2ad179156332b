import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostError } from './host-error.js';
import { McpToolHost } from './mcp-tool-host.js';
import { createScriptedAdapter, type ScriptedAdapter } from './create-scripted-adapter.js';
import { everythingServer, fixtureServer, textOf } from './test-support.js';

describe('resourceTools: list_mcp_resources and read_mcp_resource served by the host', () => {
  let host: McpToolHost;
  const asked: string[] = [];

  beforeAll(async () => {
    host = await McpToolHost.create({
      settings: { mcpServers: { fixture: fixtureServer('basic', { timeout: 20_000 }) } },
      resourceTools: true,
      ui: {
        confirm: async (request) => {
          asked.push(request.title);
          return 'cancel';
        },
      },
    });
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('offers both tools, read-only, after the servers tools while a resource is known', () => {
    const names = (host.listTools() as Array<{ name: string }>).map((tool) => tool.name);
    expect(names.slice(-2)).toEqual(['list_mcp_resources', 'read_mcp_resource']);
    expect(names).toContain('echo');
    expect(host.servers.listTools().map((tool) => tool.name)).not.toContain('list_mcp_resources');
  });

  it('lists the resources in Gemini CLI form, and per server', async () => {
    const all = await host.callTool({ name: 'list_mcp_resources' });
    expect(all.isError).toBe(false);
    expect(textOf(all, '\n')).toContain('Available MCP Resources:\n- fixture:fixture://basic/readme | readme | A plain text resource.');
    const none = await host.callTool({ name: 'list_mcp_resources', arguments: { serverName: 'other' } });
    expect(textOf(none, '\n')).toContain('No resources found for server: other');
  });

  it('reads a resource by <server>:<uri> and by its plain URI without asking, and refuses unknown URIs', async () => {
    const qualified = await host.callTool({ name: 'read_mcp_resource', arguments: { uri: 'fixture:fixture://basic/readme' } });
    expect(qualified.isError).toBe(false);
    expect(textOf(qualified, '\n')).toContain('This is the basic fixture.');
    const plain = await host.callTool({ name: 'read_mcp_resource', arguments: { uri: 'fixture://basic/readme' } });
    expect(textOf(plain, '\n')).toContain('This is the basic fixture.');
    expect(asked).toEqual([]);
    const unknown = await host.callTool({ name: 'read_mcp_resource', arguments: { uri: 'fixture://basic/items/1' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown, '\n')).toContain('Resource not found for URI: fixture://basic/items/1');
    const missing = await host.callTool({ name: 'read_mcp_resource', arguments: {} });
    expect(missing.error?.code).toBe('INVALID_TOOL_ARGUMENTS');
  });

  it('still lets a host policy deny them', async () => {
    const denying = await McpToolHost.create({
      settings: { mcpServers: { fixture: fixtureServer('basic', { timeout: 20_000 }) } },
      resourceTools: true,
      hostPolicy: () => 'deny',
    });
    try {
      await denying.discover();
      const result = await denying.callTool({ name: 'read_mcp_resource', arguments: { uri: 'fixture://basic/readme' } });
      expect(result.isError).toBe(true);
      expect(result.error?.code).toBe('DENIED_BY_POLICY');
    } finally {
      await denying.close();
    }
  });

  it('caps the text read at maxLength with a visible marker', async () => {
    const capped = await McpToolHost.create({
      settings: { mcpServers: { fixture: fixtureServer('basic', { timeout: 20_000 }) } },
      resourceTools: { maxLength: 7 },
    });
    try {
      await capped.discover();
      const result = await capped.callTool({ name: 'read_mcp_resource', arguments: { uri: 'fixture://basic/readme' } });
      expect(textOf(result, '\n')).toContain('This is… [resource text truncated by toolhost: 19 characters left out]');
      expect(textOf(result, '\n')).not.toContain('basic fixture');
    } finally {
      await capped.close();
    }
  });
});

describe('resourceTools when no resource is known, and without the option', () => {
  it('offers and runs neither tool', async () => {
    const noResources = await McpToolHost.create({
      settings: { mcpServers: { slow: fixtureServer('slow', { timeout: 20_000, trust: true }) } },
      resourceTools: true,
    });
    const off = await McpToolHost.create({ settings: { mcpServers: { fixture: fixtureServer('basic', { timeout: 20_000 }) } } });
    try {
      await Promise.all([noResources.discover(), off.discover()]);
      for (const host of [noResources, off]) {
        const names = (host.listTools() as Array<{ name: string }>).map((tool) => tool.name);
        expect(names).not.toContain('list_mcp_resources');
        const result = await host.callTool({ name: 'list_mcp_resources' });
        expect(result.error?.code).toBe('TOOL_NOT_FOUND');
      }
    } finally {
      await Promise.all([noResources.close(), off.close()]);
    }
  });
});

describe('a per-request tool filter', () => {
  let host: McpToolHost;
  let adapter: ScriptedAdapter;

  beforeAll(async () => {
    adapter = createScriptedAdapter();
    host = await McpToolHost.create({
      adapter,
      settings: {
        mcpServers: {
          fixture: fixtureServer('basic', { timeout: 20_000, trust: true }),
          everything: everythingServer({ timeout: 20_000, trust: true }),
        },
      },
      resourceTools: true,
    });
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  const names = (tools: unknown[]): string[] => (tools as Array<{ name: string }>).map((tool) => tool.name);

  it('narrows listTools by annotations (MCP defaults for unset ones), server, name or predicate', () => {
    const readOnly = names(host.listTools({ filter: { annotations: { readOnlyHint: true } } }));
    expect(readOnly).toContain('everything__echo');
    expect(readOnly).toContain('read_mcp_resource');
    expect(readOnly).not.toContain('echo');
    expect(readOnly).not.toContain('add');
    const destructive = names(host.listTools({ filter: { annotations: { destructiveHint: true } } }));
    expect(destructive).toContain('add');
    expect(names(host.listTools({ filter: { servers: ['fixture'] } })).sort()).toEqual(
      host.servers
        .listTools({ serverName: 'fixture' })
        .map((tool) => tool.name)
        .sort(),
    );
    expect(names(host.listTools({ filter: { names: ['add', 'echo'] } })).sort()).toEqual(['add', 'echo', 'everything__echo']);
    expect(names(host.listTools({ filter: (tool) => tool.name === 'add' }))).toEqual(['add']);
  });

  it('refuses a call to a tool outside the filter, in callTool and handleModelResponse, without naming it', async () => {
    const filter = { servers: ['everything'] };
    const refused = await host.callTool({ name: 'add', arguments: { a: 1, b: 2 } }, { filter });
    expect(refused.isError).toBe(true);
    expect(refused.error).toBeInstanceOf(HostError);
    expect(refused.error?.code).toBe('TOOL_NOT_FOUND');
    expect(refused.error?.message).toMatch(/^Tool "add" is not registered\. Available tools: everything__echo, /);
    expect(refused.error?.message).not.toContain('mixed-content');
    expect(refused.error?.message).not.toContain('list_mcp_resources');
    const allowed = await host.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(allowed.isError).toBe(false);

    const handled = await host.handleModelResponse(
      {
        toolCalls: [
          { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } },
          { id: 'c2', name: 'everything__echo', arguments: { message: 'hi' } },
        ],
      },
      { filter },
    );
    expect(handled.outcomes.map((outcome) => outcome.isError)).toEqual([true, false]);
    expect(handled.outcomes[0]?.error?.code).toBe('TOOL_NOT_FOUND');
    expect(textOf(handled.outcomes[1], '\n')).toContain('hi');
  });
});

describe('read_mcp_resource with binary contents', () => {
  it('gives a note with the MIME type and size instead of non-media bytes', async () => {
    const host = await McpToolHost.create({
      settings: { mcpServers: { everything: everythingServer({ timeout: 20_000, trust: true }) } },
      resourceTools: true,
    });
    try {
      await host.discover();
      const changed = new Promise<void>((resolve) => {
        const off = host.on('registry-change', ({ kind }) => {
          if (kind === 'resources' && host.resources.list().some((resource) => resource.name === 'hello.txt.gz')) {
            off();
            resolve();
          }
        });
      });
      const created = await host.callTool({
        name: 'gzip-file-as-resource',
        arguments: { name: 'hello.txt.gz', data: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}` },
      });
      expect(created.isError).toBe(false);
      await changed;
      const resource = host.resources.list().find((entry) => entry.name === 'hello.txt.gz');
      const read = await host.callTool({ name: 'read_mcp_resource', arguments: { uri: `everything:${resource?.uri ?? ''}` } });
      expect(read.isError).toBe(false);
      expect(textOf(read, '\n')).toMatch(/\[Binary Data \(application\/gzip\), \d+ bytes, not included\]/);
      expect(read.parts.some((part) => part.type === 'inlineData')).toBe(false);
    } finally {
      await host.close();
    }
  });
});

describe('onConnectionError', () => {
  const settings = {
    mcpServers: {
      fixture: fixtureServer('basic', { timeout: 20_000 }),
      broken: { command: process.execPath, args: ['-e', 'process.exit(3)'], timeout: 20_000 },
    },
  };

  it("'throw' rejects discover() naming the failed server, after the others connected", async () => {
    const host = await McpToolHost.create({ settings, onConnectionError: 'throw' });
    try {
      const error = await host.discover().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(HostError);
      expect((error as HostError).code).toBe('CONNECT_FAILED');
      expect((error as HostError).serverName).toBe('broken');
      expect((error as HostError).message).toMatch(/^An MCP server could not be connected: "broken" \(.+\)\. /);
      expect((error as HostError).message).not.toContain('"fixture"');
      expect(host.servers.status().servers.find((server) => server.name === 'fixture')?.status).toBe('CONNECTED');
    } finally {
      await host.close();
    }
  });

  it("'warn' (the default) resolves with the failure in the status", async () => {
    const host = await McpToolHost.create({ settings });
    try {
      const status = await host.discover();
      expect(status.servers.find((server) => server.name === 'broken')?.status).toBe('DISCONNECTED');
    } finally {
      await host.close();
    }
  });
});
