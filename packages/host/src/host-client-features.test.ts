// The client features as McpToolHost methods, against server-everything (stdio) and fixtures.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startClientFeaturesServer, type ClientFeaturesServer } from '@toolhost-internal/fixtures';
import type { ServerLogEvent } from './host-events.js';
import { HostError } from './host-error.js';
import { McpToolHost } from './mcp-tool-host.js';
import { everythingServer, fixtureServer, waitFor } from './test-support.js';

describe('McpToolHost resources, logging and completions (server-everything)', () => {
  let host: McpToolHost;
  const logs: ServerLogEvent[] = [];
  const updates: string[] = [];

  beforeAll(async () => {
    host = await McpToolHost.create({
      settings: { mcpServers: { everything: everythingServer({ trust: true }), basic: fixtureServer('basic') } },
    });
    host.on('server-log', (event) => logs.push(event));
    host.on('resource-update', (event) => updates.push(`${event.serverName} ${event.uri}`));
    const status = await host.discover();
    expect(status.servers.map((server) => server.status)).toEqual(['CONNECTED', 'CONNECTED']);
  });
  afterAll(async () => {
    await host.close();
  });

  it('lists resources and templates from the registry, and reads text and binary contents', async () => {
    const resources = host.resources.list({ serverName: 'everything' });
    expect(resources.length).toBeGreaterThan(0);
    expect(host.resources.list({ serverName: 'basic' }).every((entry) => entry.serverName === 'basic')).toBe(true);
    const templates = host.resources.listTemplates().map((entry) => entry.uriTemplate);
    expect(templates).toEqual(
      expect.arrayContaining(['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']),
    );

    const listed = resources[0];
    const parts = await host.resources.read({ uri: listed?.uri ?? '' });
    expect(parts[0]?.uri).toBe(listed?.uri);
    const text = await host.resources.read({ serverName: 'everything', uri: 'demo://resource/dynamic/text/7' });
    expect(text[0]?.part).toMatchObject({ type: 'text', text: expect.stringContaining('Resource 7') });
    const blob = await host.resources.read({ serverName: 'everything', uri: 'demo://resource/dynamic/blob/3' });
    expect(blob[0]?.part).toMatchObject({ type: 'inlineData', mimeType: 'text/plain' });
    const decoded = Buffer.from((blob[0]?.part as { data: string }).data, 'base64').toString('utf8');
    expect(decoded).toContain('Resource 3');

    await expect(host.resources.read({ uri: 'demo://nobody/lists/this' })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    const failed = await host.resources
      .read({ serverName: 'everything', uri: 'demo://resource/dynamic/text/' })
      .catch((error: unknown) => error);
    expect(HostError.isInstance(failed) && failed.code).toBe('REQUEST_FAILED');
  });

  it('resolves @server:uri references in user input into parts for the model', async () => {
    const resolved = await host.resources.resolveReferences({
      input:
        'Compare @everything:demo://resource/dynamic/text/1 with @everything:demo://resource/dynamic/blob/2, and @nowhere:file:///x.md.',
    });
    expect(resolved.resolved.map((reference) => reference.uri)).toEqual([
      'demo://resource/dynamic/text/1',
      'demo://resource/dynamic/blob/2',
    ]);
    expect(resolved.parts[1]).toEqual({ type: 'text', text: 'Content from @everything:demo://resource/dynamic/text/1:' });
    expect(resolved.parts[2]).toMatchObject({ type: 'text', text: expect.stringContaining('Resource 1') });
    expect(resolved.parts.some((part) => part.type === 'inlineData')).toBe(true);
    expect(resolved.failed.map(({ reference, error }) => [reference.serverName, error.code])).toEqual([['nowhere', 'SERVER_NOT_FOUND']]);
  });

  it('sets the log level: messages below it stop arriving', async () => {
    await host.servers.setLogLevel({ serverName: 'everything', level: 'error' });
    await host.resources.subscribe({ serverName: 'everything', uri: 'demo://resource/dynamic/text/1' });
    await host.servers.setLogLevel({ serverName: 'everything', level: 'debug' });
    await host.resources.subscribe({ serverName: 'everything', uri: 'demo://resource/dynamic/text/2' });
    await waitFor(() => logs.some((log) => String(log.data).includes('demo://resource/dynamic/text/2')));
    expect(logs.some((log) => String(log.data).includes('demo://resource/dynamic/text/1'))).toBe(false);
    expect(logs.every((log) => log.serverName === 'everything')).toBe(true);

    const unsupported = await host.servers.setLogLevel({ serverName: 'basic', level: 'info' }).catch((error: unknown) => error);
    expect(HostError.isInstance(unsupported) && unsupported.code).toBe('CAPABILITY_NOT_SUPPORTED');
    const unknown = await host.servers.setLogLevel({ serverName: 'missing', level: 'info' }).catch((error: unknown) => error);
    expect(HostError.isInstance(unknown) && unknown.code).toBe('SERVER_NOT_FOUND');
  });

  it('subscribes to resources: updates arrive as resource-update events; unsubscribe stops them', async () => {
    await host.resources.subscribe({ serverName: 'everything', uri: 'demo://resource/dynamic/text/5' });
    const toggled = await host.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    expect(toggled.error).toBeUndefined();
    await waitFor(() => updates.includes('everything demo://resource/dynamic/text/5'));
    await host.resources.unsubscribe({ serverName: 'everything', uri: 'demo://resource/dynamic/text/5' });
    await host.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await expect(host.resources.subscribe({ serverName: 'missing', uri: 'x://y' })).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });

  it('refuses what the connection layer cannot do with HostErrors naming the code, server and URI', async () => {
    const subscribe = await host.resources.subscribe({ serverName: 'basic', uri: 'fixture://nowhere' }).catch((error: unknown) => error);
    expect(HostError.isInstance(subscribe)).toBe(true);
    expect(subscribe).toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', serverName: 'basic', uri: 'fixture://nowhere' });
    const before = host.roots.list();
    const roots = await host.roots.set({ folders: ['relative/folder'] }).catch((error: unknown) => error);
    expect(HostError.isInstance(roots)).toBe(true);
    expect(roots).toMatchObject({ code: 'INVALID_ROOT', message: expect.stringContaining("'relative/folder'") });
    expect(host.roots.list()).toEqual(before);
    const created = await McpToolHost.create({ settings: { mcpServers: {} }, projectDir: 'relative/project' }).catch(
      (error: unknown) => error,
    );
    expect(HostError.isInstance(created)).toBe(true);
    expect(created).toMatchObject({ code: 'INVALID_ROOT' });
  });

  it('completes prompt arguments, with the arguments already given as context', async () => {
    expect(host.prompts.list().map((prompt) => prompt.name)).toContain('completable-prompt');
    const departments = await host.prompts.complete({ name: 'completable-prompt', argument: 'department', value: 'S' });
    expect(departments.values).toEqual(['Sales', 'Support']);
    const names = await host.prompts.complete({
      name: 'completable-prompt',
      argument: 'name',
      value: '',
      context: { department: 'Engineering' },
    });
    expect(names.values).toEqual(['Alice', 'Bob', 'Charlie']);
    await expect(host.prompts.complete({ name: 'nope', argument: 'x', value: '' })).rejects.toMatchObject({
      code: 'COMMAND_NOT_FOUND',
    });
  });

  it('completes the argument being typed in a slash command line', async () => {
    const named = await host.commands.complete({ line: '/completable-prompt --department=Ma' });
    expect(named).toMatchObject({ commandName: 'completable-prompt', argument: 'department', value: 'Ma', values: ['Marketing'] });
    expect(named?.valueStart).toBe('/completable-prompt --department='.length);

    const dependent = await host.commands.complete({ line: '/completable-prompt --department=Sales --name=' });
    expect(dependent).toMatchObject({ argument: 'name', context: { department: 'Sales' }, values: ['David', 'Eve', 'Frank'] });

    const positional = await host.commands.complete({ line: '/completable-prompt Support K' });
    expect(positional).toMatchObject({ argument: 'name', value: 'K', context: { department: 'Support' }, values: ['Kim'] });

    const quoted = await host.commands.complete({ line: '/completable-prompt "Eng' });
    expect(quoted).toMatchObject({ argument: 'department', value: 'Eng', values: ['Engineering'] });
    expect(quoted?.valueStart).toBe('/completable-prompt "'.length);

    expect(await host.commands.complete({ line: '/completable-prompt' })).toBeUndefined();
    expect(await host.commands.complete({ line: '/completable-prompt Sales Kim ' })).toBeUndefined();
    expect(await host.commands.complete({ line: '/mcp list' })).toBeUndefined();
  });
});

describe('McpToolHost tool presentation and structured content (client-features fixture)', () => {
  const hosts: McpToolHost[] = [];
  const fixtures: ClientFeaturesServer[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  });

  async function fixtureHost(): Promise<McpToolHost> {
    const fixture = await startClientFeaturesServer();
    fixtures.push(fixture);
    const host = await McpToolHost.create({ settings: { mcpServers: { fixture: { httpUrl: fixture.url, trust: true } } } });
    hosts.push(host);
    await host.discover();
    return host;
  }

  it('offers icons (safe schemes only) on the tool definitions', async () => {
    const host = await fixtureHost();
    const wait = host.servers.listTools().find((tool) => tool.originalName === 'wait');
    expect(wait?.icons).toEqual([{ src: 'https://example.com/wait.png', mimeType: 'image/png', sizes: ['48x48'] }]);
    expect(wait?.title).toBe('Wait a while');
    expect(host.servers.listTools().find((tool) => tool.originalName === 'json-in-text')?.icons).toBeUndefined();
  });

  it('turns JSON returned only as text into structured content, and reports a schema mismatch without failing', async () => {
    const host = await fixtureHost();
    const recovered = await host.callTool({ name: 'json-in-text', arguments: {} });
    expect(recovered.error).toBeUndefined();
    expect(recovered.structuredContent).toEqual({ total: 42 });
    expect(recovered.structuredContentCheck).toEqual({ status: 'recovered-from-text' });
    expect(recovered.toolCall.output?.structuredData).toEqual({ total: 42 });

    const mismatched = await host.callTool({ name: 'bad-structured', arguments: {} });
    expect(mismatched.error).toBeUndefined();
    expect(mismatched.isError).toBe(false);
    expect(mismatched.structuredContent).toEqual({ total: 'many' });
    expect(mismatched.structuredContentCheck?.status).toBe('invalid');
    expect(mismatched.structuredContentCheck?.errorMessage).toMatch(/total/);

    const plain = await host.callTool({ name: 'wait', arguments: { ms: 10 } });
    expect(plain.structuredContentCheck).toBeUndefined();
  });
});

describe('McpToolHost subclasses', () => {
  it('create() constructs the subclass', async () => {
    class NamedHost extends McpToolHost {
      readonly label = 'named';
    }
    const host = await NamedHost.create({ settings: { mcpServers: { basic: fixtureServer('basic') } } });
    try {
      expect(host).toBeInstanceOf(NamedHost);
      expect((host as NamedHost).label).toBe('named');
      await host.discover();
      expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    } finally {
      await host.close();
    }
  });
});
