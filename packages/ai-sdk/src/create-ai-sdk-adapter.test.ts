// createAiSdkAdapter: names every provider takes (hostile fixture), and the host-driven loop
// (host.handleModelResponse on a generateText result), through `ai` with its MockLanguageModelV3.
import type { McpToolHost } from '@toolhost/host';
import { generateText, jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { AI_SDK_TOOL_NAME_POLICY } from './ai-sdk-tool-name-policy.js';
import type { AiSdkAdapter } from './create-ai-sdk-adapter.js';
import { createAiSdkTools } from './create-ai-sdk-tools.js';
import { fixtureHost, responseMessagesOf, scriptedModel, toolResultsOf } from './scripted-model.test-helper.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

describe('AI_SDK_TOOL_NAME_POLICY', () => {
  it('keeps a-z A-Z 0-9 _ -, replaces the rest, starts with a letter or _, and is idempotent', () => {
    expect(AI_SDK_TOOL_NAME_POLICY.normalize('docs.search')).toBe('docs_search');
    expect(AI_SDK_TOOL_NAME_POLICY.normalize('3d-render')).toBe('_3d-render');
    expect(AI_SDK_TOOL_NAME_POLICY.normalize('-x')).toBe('_-x');
    expect(AI_SDK_TOOL_NAME_POLICY.normalize('ünï/tool')).toBe('_n__tool');
    for (const name of ['docs.search', '3d-render', 'ok_name', 'a b:c']) {
      const once = AI_SDK_TOOL_NAME_POLICY.normalize(name);
      expect(AI_SDK_TOOL_NAME_POLICY.normalize(once)).toBe(once);
    }
    expect(AI_SDK_TOOL_NAME_POLICY.maxLength).toBe(63);
  });
});

describe('createAiSdkAdapter', () => {
  it('gives every tool of the hostile fixture a name every provider takes, and an object schema; the renamed tools are callable', async () => {
    const { host } = await fixtureHost({ hostile: { behaviour: 'hostile', trust: true } });
    hosts.push(host);
    const tools = createAiSdkTools(host);
    const names = Object.keys(tools);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,62}$/);
    const spaced = host.servers.listTools().find((definition) => definition.originalName === 'tool with spaces');
    expect(spaced?.name).toBe('tool_with_spaces');

    const { model, calls } = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'tool_with_spaces', input: {} }] }, { text: 'ok' }]);
    await generateText({ model, tools, prompt: 'Call it.', stopWhen: () => calls.length >= 2 });
    for (const declared of calls[0]?.tools ?? []) expect(declared).toMatchObject({ inputSchema: { type: 'object' } });
    expect(toolResultsOf(calls[1])[0]?.output).toEqual({ type: 'text', value: expect.stringContaining('tool with spaces') });
  });

  it('runs the host-driven loop: host.listTools() declarations, host.handleModelResponse(result) → a tool message for the next request', async () => {
    const { host } = await fixtureHost({ basic: { behaviour: 'basic', trust: true } });
    hosts.push(host);
    const typed = host as unknown as McpToolHost<
      ReturnType<AiSdkAdapter['toTools']>[number],
      Parameters<AiSdkAdapter['getToolCalls']>[0],
      ReturnType<AiSdkAdapter['toToolResults']>
    >;
    // Tools without execute: the AI SDK only declares them; the host runs the calls.
    const tools: ToolSet = Object.fromEntries(
      typed
        .listTools()
        .map((declaration) => [
          declaration.name,
          tool({ description: declaration.description, inputSchema: jsonSchema(declaration.inputSchema) }),
        ]),
    );
    const { model, calls } = scriptedModel([
      {
        toolCalls: [
          { id: 'call-1', name: 'mixed-content', input: {} },
          { id: 'call-2', name: 'add', input: { a: 1, b: 2 } },
        ],
      },
      { text: 'Done.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Do both.' }];
    const first = await generateText({ model, tools, messages });
    const handled = await typed.handleModelResponse(first);
    expect(handled.calls.map((call) => call.id)).toEqual(['call-1', 'call-2']);
    expect(handled.toolResults?.role).toBe('tool');
    messages.push(...responseMessagesOf(first), handled.toolResults!);
    const second = await generateText({ model, tools, messages });
    expect(second.text).toBe('Done.');
    const results = toolResultsOf(calls[1]);
    expect(results.map((result) => (result.output as { type: string }).type)).toEqual(['content', 'text']);
    expect(results[1]).toMatchObject({ toolCallId: 'call-2', toolName: 'add', output: { type: 'text', value: '3' } });
  });

  it('declares the host prompt tools (promptTools) from host.listTools() and runs get_mcp_prompt through handleModelResponse', async () => {
    const { host } = await fixtureHost({ basic: { behaviour: 'basic' } }, { promptTools: true });
    hosts.push(host);
    const declared = (host.listTools() as ReturnType<AiSdkAdapter['toTools']>).filter(
      (declaration) => declaration.name.endsWith('_mcp_prompts') || declaration.name.endsWith('_mcp_prompt'),
    );
    expect(declared.map((declaration) => declaration.name)).toEqual(['list_mcp_prompts', 'get_mcp_prompt']);
    expect(declared[1]?.inputSchema).toMatchObject({ required: ['serverName', 'name'], properties: { arguments: { type: 'array' } } });
    const handled = await host.handleModelResponse({
      toolCalls: [
        {
          toolCallId: 'c1',
          toolName: 'get_mcp_prompt',
          input: { serverName: 'basic', name: 'poem-writer', arguments: [{ name: 'title', value: 'Ode' }] },
        },
      ],
    });
    expect(handled.outcomes[0]?.isError).toBe(false);
    expect(JSON.stringify(handled.toolResults)).toContain('Write a neutral poem called \\"Ode\\".');
  });

  it('refuses tool input that is not a JSON object with AdapterError INVALID_TOOL_ARGUMENTS', async () => {
    const { host } = await fixtureHost({ basic: { behaviour: 'basic', trust: true } });
    hosts.push(host);
    await expect(
      host.handleModelResponse({ toolCalls: [{ toolCallId: 'c', toolName: 'echo', input: ['not', 'an', 'object'] }] }),
    ).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGUMENTS',
      provider: 'ai-sdk',
      toolName: 'echo',
      callId: 'c',
      message: "The input the model produced for tool 'echo' is not a JSON object; retry the turn.",
    });
  });
});
