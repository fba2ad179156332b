import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostError } from './host-error.js';
import { McpToolHost } from './mcp-tool-host.js';
import { createScriptedAdapter } from './create-scripted-adapter.js';
import type { ConfirmationOutcome, ToolCall } from '@toolhost/contract';
import { everythingServer, fixtureServer } from './test-support.js';

describe('McpToolHost with a fixture server and server-everything', () => {
  let host: McpToolHost;
  const updates: ToolCall[] = [];
  const answers: ConfirmationOutcome[] = [];

  beforeAll(async () => {
    host = await McpToolHost.create({
      settings: {
        mcpServers: {
          fixture: fixtureServer('basic', { trust: true, timeout: 20_000, env: { FIXTURE_SECRET: 'super-secret-value' } }),
          everything: everythingServer({ timeout: 20_000 }),
        },
      },
      ui: { confirm: async () => answers.shift() ?? 'cancel' },
    });
    host.on('tool-call-update', (call) => updates.push(call));
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('discovers both servers and resolves the echo name conflict in settings order', () => {
    const tools = host.servers.listTools();
    const echo = tools.filter((tool) => tool.originalName === 'echo');
    expect(echo.map((tool) => [tool.serverName, tool.name])).toEqual([
      ['fixture', 'echo'],
      ['everything', 'everything__echo'],
    ]);
    expect(tools.some((tool) => tool.name === 'get-tiny-image')).toBe(true);
  });

  it('shows the /mcp status view without environment values', () => {
    const text = host.servers.formatStatus();
    expect(text).toMatch(/📡 fixture \(CONNECTED\)\n {2}Command: .*node.* .*basic\.js/);
    expect(text).toContain('Timeout: 20000ms');
    expect(text).toContain('Environment: FIXTURE_SECRET (values hidden)');
    expect(text).not.toContain('super-secret-value');
    expect(text).toContain('📡 everything (CONNECTED)');
    expect(text).toContain('Discovery State: COMPLETED');
    const status = host.servers.status();
    expect(status.servers.map((server) => server.status)).toEqual(['CONNECTED', 'CONNECTED']);
    expect(JSON.stringify(status)).not.toContain('super-secret-value');
  });

  it('asks before running an untrusted tool and maps an image result', async () => {
    updates.length = 0;
    answers.push('proceed_once');
    const result = await host.callTool({ name: 'get-tiny-image', arguments: {}, toolCallId: 'img-1' });
    expect(result.isError).toBe(false);
    expect(result.parts[0]).toMatchObject({ type: 'text' });
    expect(result.parts.find((part) => part.type === 'inlineData')).toMatchObject({ mimeType: 'image/png' });
    expect(result.display).toContain('[Image: image/png]');
    const statuses = updates.filter((u) => u.toolCallId === 'img-1').map((u) => u.status);
    // One PENDING per call, carrying the confirmation request (the seeds' lifecycle).
    expect(statuses).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);
    const pending = updates.find((u) => u.toolCallId === 'img-1' && u.status === 'PENDING');
    expect(pending?.confirmationRequest?.mcpDetails).toMatchObject({ serverName: 'everything', toolName: 'get-tiny-image' });
    expect(pending?.confirmationRequest?.options.map((o) => o.id)).toEqual([
      'proceed_once',
      'proceed_always_tool',
      'proceed_always_server',
      'cancel',
    ]);
  });

  it('goes PENDING → CANCELLED when the user declines, without calling the server', async () => {
    updates.length = 0;
    answers.push('cancel');
    const result = await host.callTool({ name: 'everything__echo', arguments: { message: 'never sent' }, toolCallId: 'declined' });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('TOOL_CALL_DENIED');
    expect(updates.map((u) => u.status)).toEqual(['PENDING', 'CANCELLED']);
    expect(updates[0]?.confirmationRequest?.toolCallId).toBe('declined');
  });

  it('runs a trusted tool without asking', async () => {
    updates.length = 0;
    const result = await host.callTool({ name: 'echo', arguments: { message: 'hello' } });
    expect(result.parts).toEqual([{ type: 'text', text: 'hello' }]);
    expect(updates.map((u) => u.status)).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);
    expect(updates.some((u) => u.confirmationRequest)).toBe(false);
  });

  it('reports an unknown tool as a failed call the model can read', async () => {
    const result = await host.callTool({ name: 'no-such-tool', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('TOOL_NOT_FOUND');
    expect(result.parts[0]).toMatchObject({ type: 'text' });
  });

  it('reports isError results as FAILED with the server text for the model', async () => {
    const result = await host.callTool({ name: 'fail', arguments: { reason: 'boom' } });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('TOOL_REPORTED_ERROR');
    expect(result.toolCall.status).toBe('FAILED');
    expect(JSON.stringify(result.parts)).toContain('boom');
  });

  it('runs prompts as slash commands, named and positional', async () => {
    const named = await host.commands.run({ line: '/poem-writer --title="Gemini CLI" --mood="reverent"' });
    expect(named).toMatchObject({ kind: 'prompt', serverName: 'fixture', arguments: { title: 'Gemini CLI', mood: 'reverent' } });
    expect(named.text).toBe('Write a reverent poem called "Gemini CLI".');
    const positional = await host.commands.run({ line: '/poem-writer "Gemini CLI" reverent' });
    expect(positional.text).toBe(named.text);
  });

  it('lists what is missing when a required prompt argument is not given', async () => {
    const error = await host.commands.run({ line: '/poem-writer --mood=calm' }).catch((e: unknown) => e);
    expect(HostError.isInstance(error)).toBe(true);
    expect((error as HostError).code).toBe('MISSING_PROMPT_ARGUMENTS');
    expect((error as HostError).missingArguments).toEqual(['title']);
    expect((error as HostError).message).toContain('--title');
  });

  it('resolves prompt name conflicts like tool names and lists every prompt', async () => {
    const prompts = host.prompts.list();
    expect(prompts.find((p) => p.name === 'poem-writer')?.serverName).toBe('fixture');
    const args = prompts.find((p) => p.promptName === 'args-prompt');
    expect(args?.serverName).toBe('everything');
    const result = await host.commands.run({ line: `/${args?.name ?? ''} Paris` });
    expect(result.text).toContain('Paris');
  });

  it('lists slash commands in the development-tool shape, and runs them', async () => {
    const commands = host.commands.list();
    expect(commands[0]?.name).toBe('mcp');
    const poem = commands.find((c) => c.name === 'poem-writer');
    expect(poem?.arguments).toEqual([
      { name: 'title', description: 'Title of the poem', isRequired: true },
      { name: 'mood', description: 'Mood', isRequired: false },
    ]);
    expect((await host.commands.run({ line: '/poem-writer --title=Sea' })).text).toContain('"Sea"');
    expect((await host.commands.run({ line: '/mcp desc' })).text).toContain('MCP Servers Status:');
    await expect(host.commands.run({ line: '/nope' })).rejects.toMatchObject({ code: 'COMMAND_NOT_FOUND' });
  });

  it('fetches a prompt with argument values given as an object', async () => {
    const prompt = await host.prompts.get({ name: 'poem-writer', arguments: { title: 'Sea', mood: 'calm' } });
    expect(prompt).toMatchObject({
      kind: 'prompt',
      serverName: 'fixture',
      promptName: 'poem-writer',
      arguments: { title: 'Sea', mood: 'calm' },
    });
    expect(prompt.text).toBe('Write a calm poem called "Sea".');
    await expect(host.prompts.get({ name: 'poem-writer' })).rejects.toMatchObject({
      code: 'MISSING_PROMPT_ARGUMENTS',
      missingArguments: ['title'],
    });
    await expect(host.prompts.get({ name: 'no-such-prompt' })).rejects.toMatchObject({ code: 'COMMAND_NOT_FOUND' });
  });

  it('subscribes to a connected server\u2019s resources, and names the server it cannot reach', async () => {
    await host.resources.subscribe({ serverName: 'everything', uri: 'demo://resource/static/document/architecture.md' });
    await host.resources.unsubscribe({ serverName: 'everything', uri: 'demo://resource/static/document/architecture.md' });
    await expect(host.resources.subscribe({ serverName: 'nope', uri: 'x://y' })).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
      serverName: 'nope',
    });
  });

  it('exposes server instructions', () => {
    const instructions = host.servers.instructions();
    expect(instructions.every((entry) => entry.instructions.length > 0)).toBe(true);
    expect(instructions.map((entry) => entry.serverName)).toContain('everything');
  });

  it('handles a model response through the adapter', async () => {
    const adapter = createScriptedAdapter({
      turns: [
        {
          toolCalls: [
            { id: 'a', name: 'echo', arguments: { message: 'one' } },
            { id: 'b', name: 'add', arguments: { a: 2, b: 3 } },
          ],
        },
      ],
    });
    const scripted = await McpToolHost.create({ settings: { mcpServers: { fixture: fixtureServer('basic', { trust: true }) } }, adapter });
    try {
      await scripted.discover();
      expect(scripted.listTools().map((tool) => tool.name)).toContain('add');
      const handled = await scripted.handleModelResponse(adapter.nextTurn());
      expect(handled.calls.map((call) => call.id)).toEqual(['a', 'b']);
      expect(handled.toolResults?.outcomes.map((outcome) => outcome.parts[0])).toEqual([
        { type: 'text', text: 'one' },
        { type: 'text', text: '5' },
      ]);
      expect(handled.outcomes[1]?.structuredContent).toEqual({ sum: 5 });
      const textOnly = await scripted.handleModelResponse({ text: 'done' });
      expect(textOnly).toEqual({ calls: [], outcomes: [], toolResults: undefined });
      expect(adapter.history.toolResults).toHaveLength(1);
    } finally {
      await scripted.close();
    }
  });
});
