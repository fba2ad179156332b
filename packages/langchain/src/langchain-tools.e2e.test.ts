// End to end: LangChain ChatOpenAI (Responses API) → msw (OpenAI API) → createLangChainTools →
// McpToolHost → real stdio MCP fixture servers → the next model request.
import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { Command, END, interrupt, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { isPng } from '@toolhost-internal/test-support';
import { ToolhostError, type ConfirmationRequest, type ToolCall } from '@toolhost/contract';
import { McpToolHost, type McpToolHostOptions } from '@toolhost/host';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmWithInterrupt, createLangChainTools, isToolhostConfirmationInterrupt, type ToolhostArtifact } from './index.js';

// ---- The OpenAI Responses API, served by msw: each test scripts the model's answers. ----------

type ModelTurn = { readonly call: { readonly name: string; readonly arguments: Record<string, unknown> } } | { readonly text: string };

const bodies: Record<string, unknown>[] = [];
let script: ModelTurn[] = [];

function responseOf(turn: ModelTurn, n: number): Record<string, unknown> {
  const output =
    'call' in turn
      ? [
          {
            type: 'function_call',
            id: `fc_${n}`,
            call_id: `call_${n}`,
            name: turn.call.name,
            arguments: JSON.stringify(turn.call.arguments),
            status: 'completed',
          },
        ]
      : [
          {
            type: 'message',
            id: `msg_${n}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          },
        ];
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: 0,
    model: 'gpt-test',
    status: 'completed',
    output,
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
}

const api = setupServer(
  http.post('https://api.openai.com/v1/responses', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    const turn = script.shift();
    if (!turn) return HttpResponse.json({ error: { message: 'the test scripted no more model turns' } }, { status: 500 });
    return HttpResponse.json(responseOf(turn, bodies.length));
  }),
);

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  bodies.length = 0;
  script = [];
});
afterAll(() => api.close());

function chatModel(): ChatOpenAI {
  return new ChatOpenAI({ model: 'gpt-test', apiKey: 'test-key', useResponsesApi: true, maxRetries: 0 });
}

// ---- Hosts on the fixture servers. ------------------------------------------------------------

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function createHost(options: Partial<McpToolHostOptions> = {}, servers: Record<string, string> = { fixture: 'basic' }) {
  const mcpServers = Object.fromEntries(
    Object.entries(servers).map(([name, behaviour]) => [name, { command: process.execPath, args: [fixtureBinPath(behaviour as 'basic')] }]),
  );
  const host = await McpToolHost.create({ settings: { mcpServers }, deferConfirmations: true, ...options });
  hosts.push(host);
  await host.discover();
  return host;
}

/** The `slow` fixture's counts of started calls: proof that a call reached (or never reached) the server. */
async function slowCallsStarted(host: McpToolHost): Promise<number> {
  const off = host.on('confirmation-pending', (request) => {
    if (request.mcpDetails.toolName === 'slow-stats')
      host.confirmations.answer({ toolCallId: request.toolCallId, optionId: 'proceed_once' });
  });
  try {
    const result = await host.callTool({ name: 'slow-stats' });
    expect(result.isError).toBe(false);
    return Number(result.structuredContent?.['started']);
  } finally {
    off();
  }
}

function toolCallOf(message: BaseMessage): ToolCall & { id: string; name: string; args: Record<string, unknown> } {
  const call = (message as AIMessage).tool_calls?.[0];
  if (!call?.id) throw new Error('the model message has no tool call with an id');
  return { ...call, id: call.id } as never;
}

function functionCallOutput(body: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return (body?.['input'] as Record<string, unknown>[]).find((item) => item['type'] === 'function_call_output');
}

describe('createLangChainTools with ChatOpenAI', () => {
  it('the model calls an MCP tool; its image reaches the next request as an input_image', async () => {
    const host = await createHost();
    const asked: ConfirmationRequest[] = [];
    const tools = createLangChainTools(host, {
      confirm: (request) => {
        asked.push(request);
        return 'proceed_once';
      },
    });
    const model = chatModel().bindTools(tools);
    script = [{ call: { name: 'mixed-content', arguments: {} } }, { text: 'I see a one-pixel image.' }];

    const messages: BaseMessage[] = [new HumanMessage('Show me everything.')];
    const first = await model.invoke(messages);
    const declared = (bodies[0]?.['tools'] as Record<string, unknown>[]).find((entry) => entry['name'] === 'echo');
    expect(declared).toMatchObject({
      type: 'function',
      name: 'echo',
      description: 'Echoes back the message it is given.',
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    });

    const call = toolCallOf(first);
    expect(call).toMatchObject({ name: 'mixed-content', id: 'call_1' });
    const mixed = tools.find((entry) => entry.name === call.name);
    const toolMessage = await mixed!.invoke(call);
    expect(toolMessage).toBeInstanceOf(ToolMessage);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ toolCallId: 'call_1', mcpDetails: { serverName: 'fixture', toolName: 'mixed-content' } });
    const artifact = (toolMessage as ToolMessage).artifact as ToolhostArtifact;
    expect(artifact).toMatchObject({ serverName: 'fixture', toolName: 'mixed-content', isError: false });
    expect(artifact.parts.map((part) => (part.type === 'text' ? 'text' : part.mimeType))).toEqual([
      'text',
      'image/png',
      'audio/wav',
      'application/octet-stream',
    ]);

    messages.push(first, toolMessage as ToolMessage);
    const second = await model.invoke(messages);
    expect(second.text).toBe('I see a one-pixel image.');

    const output = functionCallOutput(bodies[1]);
    expect(output).toMatchObject({ type: 'function_call_output', call_id: 'call_1' });
    const items = output?.['output'] as Record<string, string>[];
    expect(items.map((item) => item['type'])).toEqual(['input_text', 'input_image']);
    expect(items[0]?.['text']).toContain('first text block');
    expect(items[0]?.['text']).toContain('second text block');
    expect(items[0]?.['text']).toContain("[Tool 'mixed-content' also returned audio/wav data, which this model cannot receive.]");
    const url = items[1]?.['image_url'] ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(isPng(url.slice('data:image/png;base64,'.length))).toBe(true);
  });

  it('a declined confirmation: the tool never reaches the server and the model reads the refusal', async () => {
    const host = await createHost({}, { slow: 'slow' });
    const tools = createLangChainTools(host, { confirm: () => 'cancel' });
    const model = chatModel().bindTools(tools);
    script = [{ call: { name: 'slow', arguments: { delayMs: 0 } } }, { text: 'Understood, I will not wait.' }];

    const messages: BaseMessage[] = [new HumanMessage('Wait a moment.')];
    const first = await model.invoke(messages);
    const call = toolCallOf(first);
    const result = (await tools.find((entry) => entry.name === 'slow')!.invoke(call)) as ToolMessage;
    expect(result.status).toBe('error');
    expect((result.artifact as ToolhostArtifact).isError).toBe(true);
    expect((result.artifact as ToolhostArtifact).errorCode).toBeDefined();
    expect(await slowCallsStarted(host)).toBe(0);

    messages.push(first, result);
    await model.invoke(messages);
    const output = functionCallOutput(bodies[1]);
    expect(output).toMatchObject({ call_id: 'call_1' });
    expect(String(output?.['output'])).toMatch(/slow/);
  });

  it('"always allow this tool" and "always allow this server" are honoured: later calls are not asked', async () => {
    const host = await createHost();
    const answers = ['proceed_always_tool', 'proceed_always_server'] as const;
    const asked: string[] = [];
    const tools = createLangChainTools(host, {
      confirm: (request) => {
        asked.push(request.mcpDetails.toolName);
        return answers[asked.length - 1] ?? 'cancel';
      },
    });
    const byName = new Map(tools.map((entry) => [entry.name, entry]));
    const invoke = async (name: string, args: Record<string, unknown>, id: string) =>
      (await byName.get(name)!.invoke({ type: 'tool_call', id, name, args })) as ToolMessage;

    expect((await invoke('echo', { message: 'one' }, 'c1')).content).toBe('one');
    expect((await invoke('echo', { message: 'two' }, 'c2')).content).toBe('two');
    expect(asked).toEqual(['echo']);
    const sum = await invoke('add', { a: 2, b: 3 }, 'c3');
    expect((sum.artifact as ToolhostArtifact).structuredContent).toEqual({ sum: 5 });
    expect(asked).toEqual(['echo', 'add']);
    expect((await invoke('cwd', {}, 'c4')).status).toBe('success');
    expect(asked).toEqual(['echo', 'add']);
  });

  it('a tool that reports an error answers a ToolMessage with status error', async () => {
    const host = await createHost();
    const tools = createLangChainTools(host, { confirm: () => 'proceed_once' });
    const fail = tools.find((entry) => entry.name === 'fail')!;
    const message = (await fail.invoke({ type: 'tool_call', id: 'c1', name: 'fail', args: { reason: 'disk full' } })) as ToolMessage;
    expect(message).toMatchObject({ status: 'error', tool_call_id: 'c1', name: 'fail' });
    expect(message.content).toBe("[MCP tool 'fail' reported an error]\ndisk full");
    expect(message.artifact).toMatchObject({ isError: true, errorCode: 'TOOL_REPORTED_ERROR', serverName: 'fixture' });
  });

  it('a confirm callback that throws cancels the call and the error comes out of invoke', async () => {
    const host = await createHost({}, { slow: 'slow' });
    const dialogGone = new Error('the dialog was closed');
    const tools = createLangChainTools(host, {
      confirm: () => {
        throw dialogGone;
      },
    });
    const slow = tools.find((entry) => entry.name === 'slow')!;
    await expect(slow.invoke({ type: 'tool_call', id: 'c1', name: 'slow', args: { delayMs: 0 } })).rejects.toBe(dialogGone);
    expect(await slowCallsStarted(host)).toBe(0);
  });

  it('an answer that is not an offered option fails the call with INVALID_CONFIRMATION_ANSWER and does not run it', async () => {
    const host = await createHost({}, { slow: 'slow' });
    const tools = createLangChainTools(host, { confirm: () => 'yes please' as never });
    const slow = tools.find((entry) => entry.name === 'slow')!;
    const error: unknown = await slow.invoke({ type: 'tool_call', id: 'c1', name: 'slow', args: { delayMs: 0 } }).catch((caught) => caught);
    expect(ToolhostError.isInstance(error) && error.code).toBe('INVALID_CONFIRMATION_ANSWER');
    expect(await slowCallsStarted(host)).toBe(0);
  });

  it('a confirm callback with a host that does not defer confirmations: INVALID_OPTIONS naming deferConfirmations', async () => {
    const host = await createHost({ deferConfirmations: false });
    const tools = createLangChainTools(host, { confirm: () => 'proceed_once' });
    const echo = tools.find((entry) => entry.name === 'echo')!;
    const error: unknown = await echo
      .invoke({ type: 'tool_call', id: 'c1', name: 'echo', args: { message: 'hi' } })
      .catch((caught) => caught);
    expect(ToolhostError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
    expect((error as Error).message).toContain('deferConfirmations: true');
    expect((error as Error).message).toContain('"fixture"');
  });

  it('names: characters LangChain models reject become _, a valid name is kept, and each call reaches its server', async () => {
    const host = await createHost({}, { fixture: 'basic', 'docs.v1': 'basic', docs_v1: 'basic' });
    const hostNames = host.servers.listTools().map((entry) => entry.name);
    expect(hostNames).toEqual(expect.arrayContaining(['echo', 'docs.v1__echo', 'docs_v1__echo']));
    const tools = createLangChainTools(host, { confirm: () => 'proceed_once' });
    const names = tools.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['echo', 'docs_v1__echo', 'docs_v1__echo_2']));
    const call = async (name: string) =>
      (await tools
        .find((entry) => entry.name === name)!
        .invoke({ type: 'tool_call', id: `id-${name}`, name, args: { message: name } })) as ToolMessage;
    // The server named docs_v1 keeps its valid name; docs.v1's tool, renamed, yields.
    expect((await call('docs_v1__echo')).artifact).toMatchObject({ serverName: 'docs_v1', toolName: 'echo' });
    const renamed = await call('docs_v1__echo_2');
    expect(renamed.content).toBe('docs_v1__echo_2');
    expect(renamed.artifact).toMatchObject({ serverName: 'docs.v1', toolName: 'echo' });
  });

  it("the host's own resource and prompt tools (resourceTools, promptTools) come as tools too, and run without a confirmation", async () => {
    const host = await createHost({ resourceTools: true, promptTools: true });
    const tools = createLangChainTools(host, { confirm: () => 'cancel' });
    const names = tools.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource', 'list_mcp_prompts', 'get_mcp_prompt']));
    const read = (await tools
      .find((entry) => entry.name === 'read_mcp_resource')!
      .invoke({
        type: 'tool_call',
        id: 'r1',
        name: 'read_mcp_resource',
        args: { serverName: 'fixture', uri: 'fixture://basic/readme' },
      })) as ToolMessage;
    expect(read.status).not.toBe('error');
    expect(read.content).toBe('This is the basic fixture.');
  });

  it("schemaProfile 'openai-strict': the optional property is declared nullable and the model's null is not sent", async () => {
    const host = await createHost();
    const tools = createLangChainTools(host, { confirm: () => 'proceed_once', schemaProfile: 'openai-strict' });
    const fail = tools.find((entry) => entry.name === 'fail')!;
    expect(fail.schema).toMatchObject({
      additionalProperties: false,
      required: ['reason'],
      properties: { reason: { type: ['string', 'null'] } },
    });
    const message = (await fail.invoke({ type: 'tool_call', id: 'c1', name: 'fail', args: { reason: null } })) as ToolMessage;
    // Without stripping, the host would refuse `null` for a string; stripped, the tool runs and answers its default.
    expect(message.content).toBe("[MCP tool 'fail' reported an error]\nthe fail tool failed");
  });

  it('acceptedMediaTypes: audio as an audio block when the model takes it, and [] for text-only tool messages', async () => {
    const host = await createHost();
    const withAudio = createLangChainTools(host, { confirm: () => 'proceed_once', acceptedMediaTypes: ['image/*', 'audio/wav'] });
    const message = (await withAudio
      .find((entry) => entry.name === 'mixed-content')!
      .invoke({ type: 'tool_call', id: 'c1', name: 'mixed-content', args: {} })) as ToolMessage;
    const blocks = message.content as Record<string, unknown>[];
    expect(blocks.map((block) => block['type'])).toEqual(['text', 'image', 'audio']);
    expect(blocks[2]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });

    const textOnly = createLangChainTools(host, { confirm: () => 'proceed_once', acceptedMediaTypes: [] });
    const text = (await textOnly
      .find((entry) => entry.name === 'mixed-content')!
      .invoke({ type: 'tool_call', id: 'c2', name: 'mixed-content', args: {} })) as ToolMessage;
    expect(typeof text.content).toBe('string');
    expect(text.content).toContain('image/png data, which this model cannot receive');
  });
});

describe('confirmWithInterrupt in a LangGraph graph', () => {
  async function createGraph(host: McpToolHost) {
    const tools = createLangChainTools(host, { confirm: confirmWithInterrupt(interrupt) });
    const model = chatModel().bindTools(tools);
    return new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode('tools', new ToolNode(tools))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', toolsCondition, ['tools', END])
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver() });
  }

  it('the confirmation interrupts the graph; resuming with proceed_once runs the tool and the image reaches the model', async () => {
    const host = await createHost();
    const graph = await createGraph(host);
    const config = { configurable: { thread_id: 'thread-1' } };
    script = [{ call: { name: 'mixed-content', arguments: {} } }, { text: 'A one-pixel image.' }];

    const paused = await graph.invoke({ messages: [new HumanMessage('Show me everything.')] }, config);
    const interrupts = (paused as { __interrupt__?: { value: unknown }[] }).__interrupt__ ?? [];
    expect(interrupts).toHaveLength(1);
    // The same interrupt, as the thread's state shows it (the README's loop reads it there).
    const waiting = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
    expect(waiting.map((entry) => entry.value)).toEqual([interrupts[0]?.value]);
    const value = interrupts[0]?.value;
    expect(isToolhostConfirmationInterrupt(value)).toBe(true);
    expect(value).toMatchObject({
      kind: 'toolhost-confirmation',
      toolCallId: 'call_1',
      request: { mcpDetails: { serverName: 'fixture', toolName: 'mixed-content' } },
    });
    expect(bodies).toHaveLength(1);

    const done = await graph.invoke(new Command({ resume: 'proceed_once' }), config);
    const last = done.messages.at(-1);
    expect(last?.text).toBe('A one-pixel image.');
    const items = functionCallOutput(bodies[1])?.['output'] as Record<string, string>[];
    expect(items.map((item) => item['type'])).toEqual(['input_text', 'input_image']);
    expect(isPng((items[1]?.['image_url'] ?? '').replace('data:image/png;base64,', ''))).toBe(true);
  });

  it('resuming with cancel: the tool never reaches the server', async () => {
    const host = await createHost({}, { slow: 'slow' });
    const graph = await createGraph(host);
    const config = { configurable: { thread_id: 'thread-2' } };
    script = [{ call: { name: 'slow', arguments: { delayMs: 0 } } }, { text: 'Not waiting then.' }];

    const paused = await graph.invoke({ messages: [new HumanMessage('Wait a moment.')] }, config);
    expect((paused as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(1);
    const done = await graph.invoke(new Command({ resume: { optionId: 'cancel' } }), config);
    const toolMessage = done.messages.find((message) => ToolMessage.isInstance(message));
    expect(toolMessage).toMatchObject({ status: 'error', tool_call_id: 'call_1' });
    expect(done.messages.at(-1)?.text).toBe('Not waiting then.');
    expect(await slowCallsStarted(host)).toBe(0);
  });

  it('a resume value naming another tool call is refused: the tool never reaches the server', async () => {
    const host = await createHost({}, { slow: 'slow' });
    const graph = await createGraph(host);
    const config = { configurable: { thread_id: 'thread-3' } };
    script = [{ call: { name: 'slow', arguments: { delayMs: 0 } } }, { text: 'Something went wrong.' }];

    await graph.invoke({ messages: [new HumanMessage('Wait a moment.')] }, config);
    const done = await graph.invoke(new Command({ resume: { toolCallId: 'call_other', optionId: 'proceed_once' } }), config);
    const toolMessage = done.messages.find((message) => ToolMessage.isInstance(message));
    expect(toolMessage).toMatchObject({ status: 'error', tool_call_id: 'call_1' });
    expect(toolMessage?.text).toContain('answers tool call "call_other"');
    expect(await slowCallsStarted(host)).toBe(0);

    // The matching toolCallId is accepted.
    script = [{ call: { name: 'slow', arguments: { delayMs: 0 } } }, { text: 'Done.' }];
    await graph.invoke({ messages: [new HumanMessage('Now wait.')] }, config);
    const second = await graph.invoke(new Command({ resume: { toolCallId: 'call_3', optionId: 'proceed_once' } }), config);
    expect(second.messages.at(-1)?.text).toBe('Done.');
    expect(await slowCallsStarted(host)).toBe(1);
  });
});
