// createAiSdkTools through the AI SDK itself (generateText / streamText of `ai`, with its own
// MockLanguageModelV3 from `ai/test`), against real MCP fixture servers over stdio.
import type { McpToolHost, McpToolHostOptions } from '@toolhost/host';
import { generateText, stepCountIs, streamText, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAiSdkTools } from './create-ai-sdk-tools.js';
import {
  IMAGE_PROMPT_PART,
  fixtureHost,
  responseMessagesOf,
  scriptedModel,
  streamResponseMessagesOf,
  toolResultsOf,
} from './scripted-model.test-helper.js';
import { toolApprovalResponse } from './tool-approval.js';

const hosts: McpToolHost[] = [];

async function openHost(...args: Parameters<typeof fixtureHost>) {
  const opened = await fixtureHost(...args);
  hosts.push(opened.host);
  return opened;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

type ApprovalRequestPart = {
  type: 'tool-approval-request';
  approvalId: string;
  toolCall: { toolCallId: string; toolName: string; input: unknown };
};

function approvalRequestsOf(content: ReadonlyArray<{ type: string }>): ApprovalRequestPart[] {
  return content.filter((part): part is ApprovalRequestPart => part.type === 'tool-approval-request');
}

/** What the slow fixture's server counted: started, completed and cancelled `slow` calls. */
async function slowStats(host: McpToolHost): Promise<{ started: number; completed: number }> {
  const result = await host.callTool({ name: 'slow-stats' });
  return result.structuredContent as { started: number; completed: number };
}

/** An approvals store that keeps what the host writes, as the host's approval store. */
function recordingStore() {
  let stored: unknown = { servers: new Map(), tools: new Map() };
  const store = {
    read: async () => stored,
    write: async (allowList: unknown) => {
      stored = allowList;
    },
  } as unknown as NonNullable<NonNullable<McpToolHostOptions['stores']>['approvals']>;
  return {
    store,
    servers: () => [...(stored as { servers: Map<string, unknown> }).servers.keys()],
    tools: () =>
      [...(stored as { tools: Map<string, { serverName: string; toolName: string }> }).tools.values()].map(
        (t) => `${t.serverName}.${t.toolName}`,
      ),
  };
}

describe('createAiSdkTools: tools', () => {
  it('declares every host tool with its sanitised input schema, runs a trusted call without approval and gives the model its text', async () => {
    const { host, updates } = await openHost({ basic: { behaviour: 'basic', trust: true } });
    const tools = createAiSdkTools(host);
    expect(Object.keys(tools).sort()).toEqual(['add', 'cwd', 'echo', 'env', 'fail', 'headers', 'mixed-content']);
    const { model, calls } = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'add', input: { a: 2, b: 3 } }] }, { text: 'It is 5.' }]);
    const result = await generateText({ model, tools, prompt: 'Add 2 and 3.', stopWhen: stepCountIs(3) });

    expect(result.text).toBe('It is 5.');
    expect(approvalRequestsOf(result.steps[0]?.content ?? [])).toEqual([]);
    const declared = calls[0]?.tools?.find((tool) => tool.name === 'add');
    expect(declared).toMatchObject({
      type: 'function',
      description: 'Adds two numbers.',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(toolResultsOf(calls[1])).toEqual([
      { type: 'tool-result', toolCallId: 'call-1', toolName: 'add', output: { type: 'text', value: '5' } },
    ]);
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      content: [{ type: 'text', text: '5' }],
      isError: false,
      structuredContent: { sum: 5 },
    });
    expect(updates.map((update) => `${update.toolCallId}:${update.status}`)).toEqual([
      'call-1:PENDING',
      'call-1:EXECUTING',
      'call-1:SUCCEEDED',
    ]);
  });

  it("includes the host's own resource and prompt tools (resourceTools, promptTools) and runs them through generateText", async () => {
    const { host } = await openHost({ basic: { behaviour: 'basic' } }, { resourceTools: true, promptTools: true });
    const tools = createAiSdkTools(host);
    expect(Object.keys(tools)).toEqual(
      expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource', 'list_mcp_prompts', 'get_mcp_prompt']),
    );
    const { model, calls } = scriptedModel([
      {
        toolCalls: [
          { id: 'read-1', name: 'read_mcp_resource', input: { serverName: 'basic', uri: 'fixture://basic/readme' } },
          { id: 'prompts-1', name: 'list_mcp_prompts', input: {} },
        ],
      },
      { text: 'Read it.' },
    ]);
    const result = await generateText({ model, tools, prompt: 'Read the readme.', stopWhen: stepCountIs(3) });

    expect(result.text).toBe('Read it.');
    expect(approvalRequestsOf(result.steps[0]?.content ?? [])).toEqual([]);
    const [read, prompts] = toolResultsOf(calls[1]) as Array<{ toolCallId: string; output: { type: string; value: string } }>;
    expect(read).toMatchObject({ toolCallId: 'read-1', output: { type: 'text' } });
    expect(read?.output.value).toBe('This is the basic fixture.');
    expect(prompts?.output.value).toContain('basic:poem-writer');
  });

  it('gives the model images, audio and blobs as media parts of the tool result, base64 passed through', async () => {
    const { host } = await openHost({ basic: { behaviour: 'basic', trust: true } });
    const { model, calls } = scriptedModel([{ toolCalls: [{ id: 'call-m', name: 'mixed-content', input: {} }] }, { text: 'Seen.' }]);
    await generateText({ model, tools: createAiSdkTools(host), prompt: 'Show me everything.', stopWhen: stepCountIs(3) });

    const [result] = toolResultsOf(calls[1]);
    const output = result?.output as { type: string; value: Array<Record<string, unknown>> };
    expect(output.type).toBe('content');
    expect(output.value.map((part) => `${String(part['type'])} ${String(part['mediaType'] ?? '')}`.trim())).toEqual([
      'text',
      `${IMAGE_PROMPT_PART} image/png`,
      'file-data audio/wav',
      'file-data application/octet-stream',
    ]);
    expect(String(output.value[0]?.['text'])).toMatch(/^first text block\n[\s\S]*second text block$/);
    expect(output.value[1]?.['data']).toMatch(/^iVBORw0KGgo/); // the PNG as the server sent it
    expect(output.value[3]).toEqual({ type: 'file-data', data: 'AAECAw==', mediaType: 'application/octet-stream', filename: 'blob' });
  });

  it('sends a failed call to the model as error text, with toolhost error code in the output', async () => {
    const { host } = await openHost({ basic: { behaviour: 'basic', trust: true } });
    const { model, calls } = scriptedModel([
      { toolCalls: [{ id: 'call-f', name: 'fail', input: { reason: 'disk full' } }] },
      { text: 'It failed.' },
    ]);
    const result = await generateText({ model, tools: createAiSdkTools(host), prompt: 'Fail.', stopWhen: stepCountIs(3) });
    expect(toolResultsOf(calls[1])[0]?.output).toEqual({ type: 'error-text', value: expect.stringContaining('disk full') });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ isError: true, errorCode: 'TOOL_REPORTED_ERROR' });
  });
});

describe('createAiSdkTools: confirmations as AI SDK tool approvals', () => {
  it('asks through a tool-approval-request for a call toolhost would ask about, runs it once when approved and asks again next time', async () => {
    const { host, updates } = await openHost({ basic: { behaviour: 'basic' } }, { deferConfirmations: true });
    const tools = createAiSdkTools(host);
    const { model, calls, push } = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'echo', input: { message: 'hi' } }] },
      { text: 'Echoed.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Echo hi.' }];

    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    const [request] = approvalRequestsOf(first.content);
    expect(request?.toolCall).toMatchObject({ toolCallId: 'call-1', toolName: 'echo', input: { message: 'hi' } });
    expect(updates).toEqual([]); // nothing ran, nothing is pending in the host
    expect(host.confirmations.pending()).toEqual([]);
    expect(calls).toHaveLength(1);

    messages.push(...responseMessagesOf(first));
    messages.push({ role: 'tool', content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'proceed_once' })] });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(second.text).toBe('Echoed.');
    expect(toolResultsOf(calls[1])).toEqual([
      { type: 'tool-result', toolCallId: 'call-1', toolName: 'echo', output: { type: 'text', value: 'hi' } },
    ]);
    // The host asked once (PENDING with the request), the approval answered it, the call ran once.
    expect(updates.map((update) => `${update.toolCallId}:${update.status}`)).toEqual([
      'call-1:PENDING',
      'call-1:EXECUTING',
      'call-1:SUCCEEDED',
    ]);
    expect(updates[0]?.confirmationRequest?.toolCallId).toBe('call-1');

    // "Allow once" is not remembered: the next call of the tool asks again.
    push({ toolCalls: [{ id: 'call-2', name: 'echo', input: { message: 'again' } }] });
    messages.push(...responseMessagesOf(second), { role: 'user', content: 'Once more.' });
    const third = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(approvalRequestsOf(third.content).map((part) => part.toolCall.toolCallId)).toEqual(['call-2']);
  });

  it('never runs a denied call: the model gets execution-denied with the reason, the server is not called', async () => {
    const { host } = await openHost({ slow: { behaviour: 'slow' } }, { deferConfirmations: true, allowList: ['slow.slow-stats'] });
    const tools = createAiSdkTools(host);
    const { model, calls } = scriptedModel([
      { toolCalls: [{ id: 'call-s', name: 'slow', input: { delayMs: 0 } }] },
      { text: 'Fine, I will not.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Wait a bit.' }];
    const first = await generateText({ model, tools, messages });
    const [request] = approvalRequestsOf(first.content);
    messages.push(...responseMessagesOf(first), {
      role: 'tool',
      content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'cancel', reason: 'The user said no.' })],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(second.text).toBe('Fine, I will not.');
    expect(toolResultsOf(calls[1])).toEqual([
      { type: 'tool-result', toolCallId: 'call-s', toolName: 'slow', output: { type: 'execution-denied', reason: 'The user said no.' } },
    ]);
    expect(await slowStats(host)).toMatchObject({ started: 0 });
  });

  it('records "always allow this tool" through the host approval store: the tool runs without approval afterwards, other tools still ask', async () => {
    const approvals = recordingStore();
    const { host } = await openHost(
      { basic: { behaviour: 'basic' } },
      { deferConfirmations: true, stores: { approvals: approvals.store } },
    );
    const tools = createAiSdkTools(host);
    const { model } = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'echo', input: { message: 'one' } }] },
      { text: 'ok' },
      { toolCalls: [{ id: 'call-2', name: 'echo', input: { message: 'two' } }] },
      { text: 'ok again' },
      { toolCalls: [{ id: 'call-3', name: 'add', input: { a: 1, b: 1 } }] },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Echo one.' }];
    const first = await generateText({ model, tools, messages });
    const [request] = approvalRequestsOf(first.content);
    messages.push(...responseMessagesOf(first), {
      role: 'tool',
      content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'proceed_always_tool' })],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(second.text).toBe('ok');
    expect(approvals.tools()).toEqual(['basic.echo']);
    expect(approvals.servers()).toEqual([]);

    messages.push(...responseMessagesOf(second), { role: 'user', content: 'Echo two.' });
    const third = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(approvalRequestsOf(third.content)).toEqual([]);
    expect(third.text).toBe('ok again');
    expect(third.steps[0]?.toolResults[0]?.output).toMatchObject({ content: [{ type: 'text', text: 'two' }] });

    messages.push(...responseMessagesOf(third), { role: 'user', content: 'Add.' });
    const fourth = await generateText({ model, tools, messages });
    expect(approvalRequestsOf(fourth.content).map((part) => part.toolCall.toolName)).toEqual(['add']);
  });

  it('records "always allow this server" (the reason of an approved response, as useChat sends it): every tool of the server runs without approval', async () => {
    const approvals = recordingStore();
    const { host } = await openHost(
      { basic: { behaviour: 'basic' } },
      { deferConfirmations: true, stores: { approvals: approvals.store } },
    );
    const tools = createAiSdkTools(host);
    const { model } = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'echo', input: { message: 'one' } }] },
      { text: 'ok' },
      { toolCalls: [{ id: 'call-2', name: 'add', input: { a: 1, b: 2 } }] },
      { text: '3' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Echo one.' }];
    const first = await generateText({ model, tools, messages });
    const [request] = approvalRequestsOf(first.content);
    const response: ToolApprovalResponse = {
      type: 'tool-approval-response',
      approvalId: request!.approvalId,
      approved: true,
      reason: 'proceed_always_server',
    };
    messages.push(...responseMessagesOf(first), { role: 'tool', content: [response] });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(approvals.servers()).toEqual(['basic']);

    messages.push(...responseMessagesOf(second), { role: 'user', content: 'Add.' });
    const third = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(approvalRequestsOf(third.content)).toEqual([]);
    expect(third.text).toBe('3');
  });

  it('runs an approved call once: the same approval sent again does not call the tool a second time', async () => {
    const { host } = await openHost({ slow: { behaviour: 'slow' } }, { deferConfirmations: true, allowList: ['slow.slow-stats'] });
    const tools = createAiSdkTools(host);
    const { model, calls } = scriptedModel([
      { toolCalls: [{ id: 'call-s', name: 'slow', input: { delayMs: 0 } }] },
      { text: 'done' },
      { text: 'done?' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Wait.' }];
    const first = await generateText({ model, tools, messages });
    const [request] = approvalRequestsOf(first.content);
    messages.push(...responseMessagesOf(first), {
      role: 'tool',
      content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'proceed_once' })],
    });
    await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(await slowStats(host)).toMatchObject({ started: 1, completed: 1 });

    // A replay of the same history (a reloaded page, a retried request).
    await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(await slowStats(host)).toMatchObject({ started: 1 });
    expect(toolResultsOf(calls[2])[0]?.output).toEqual({
      type: 'error-text',
      value:
        'Tool "slow" of MCP server "slow" was already called for tool call "call-s" under this approval; an approval is used once. The tool was not called again.',
    });
  });

  it('cancels a call toolhost asks about when the AI SDK did not approve it (execute called directly, as by a framework ignoring needsApproval)', async () => {
    const { host, updates } = await openHost({ basic: { behaviour: 'basic' } }, { deferConfirmations: true });
    const tools = createAiSdkTools(host);
    const execute = tools['echo']!.execute!;
    const output = await execute(
      { message: 'sneaky' } as never,
      { toolCallId: 'direct-1', messages: [] } as unknown as Parameters<typeof execute>[1],
    );
    expect(output).toEqual({
      content: [
        {
          type: 'text',
          text: `Tool "echo" of MCP server "basic" needs the user's approval, which was not asked for this call (what the tool needs changed since): the tool was not called. Call it again to ask for approval.`,
        },
      ],
      isError: true,
      errorCode: 'TOOL_CALL_DENIED',
    });
    expect(updates.map((update) => update.status)).toEqual(['PENDING', 'CANCELLED']);
    expect(host.confirmations.pending()).toEqual([]);
  });

  it('tells the model how to let the AI SDK ask when the host was created without deferConfirmations', async () => {
    const { host } = await openHost({ basic: { behaviour: 'basic' } });
    const { model, calls } = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'echo', input: { message: 'hi' } }] }, { text: 'No.' }]);
    const result = await generateText({ model, tools: createAiSdkTools(host), prompt: 'Echo.', stopWhen: stepCountIs(3) });
    expect(approvalRequestsOf(result.steps[0]?.content ?? [])).toEqual([]);
    expect(toolResultsOf(calls[1])[0]?.output).toEqual({
      type: 'error-text',
      value: expect.stringMatching(
        /needs confirmation, but this host cannot ask.* create the McpToolHost with deferConfirmations: true\.$/,
      ),
    });
  });

  it("with confirmation: 'host', asks through the host's confirm hook and never through the AI SDK", async () => {
    const asked: string[] = [];
    const { host } = await openHost(
      { basic: { behaviour: 'basic' } },
      {
        ui: {
          confirm: async (request) => {
            asked.push(request.toolCallId);
            return 'proceed_once';
          },
        },
      },
    );
    const { model } = scriptedModel([{ toolCalls: [{ id: 'call-h', name: 'echo', input: { message: 'hook' } }] }, { text: 'ok' }]);
    const result = await generateText({
      model,
      tools: createAiSdkTools(host, { confirmation: 'host' }),
      prompt: 'Echo.',
      stopWhen: stepCountIs(3),
    });
    expect(approvalRequestsOf(result.steps[0]?.content ?? [])).toEqual([]);
    expect(asked).toEqual(['call-h']);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ content: [{ type: 'text', text: 'hook' }], isError: false });
  });
});

describe('createAiSdkTools with streamText', () => {
  it('streams a tool-approval-request, then the approved call streams its tool result and the answer', async () => {
    const { host } = await openHost({ basic: { behaviour: 'basic' } }, { deferConfirmations: true });
    const tools = createAiSdkTools(host);
    const { model, calls } = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'mixed-content', input: {} }] }, { text: 'A pixel.' }]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Show me.' }];

    const first = streamText({ model, tools, messages, stopWhen: stepCountIs(3) });
    const firstParts: Array<{ type: string }> = [];
    for await (const part of first.fullStream) firstParts.push(part);
    const request = firstParts.find((part) => part.type === 'tool-approval-request') as ApprovalRequestPart | undefined;
    expect(request?.toolCall.toolName).toBe('mixed-content');
    expect(firstParts.some((part) => part.type === 'tool-result')).toBe(false);

    messages.push(...(await streamResponseMessagesOf(first)), {
      role: 'tool',
      content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'proceed_once' })],
    });
    const second = streamText({ model, tools, messages, stopWhen: stepCountIs(3) });
    const secondParts: Array<{ type: string; output?: unknown }> = [];
    for await (const part of second.fullStream) secondParts.push(part);
    expect(await second.text).toBe('A pixel.');
    expect(secondParts.find((part) => part.type === 'tool-result')?.output).toMatchObject({ isError: false });
    const output = toolResultsOf(calls[1])[0]?.output as { type: string; value: Array<{ type: string }> };
    expect(output.value.map((part) => part.type)).toEqual(['text', IMAGE_PROMPT_PART, 'file-data', 'file-data']);
  });
});
