// End to end: a real stdio MCP server → McpToolHost → OpenAI adapter → openai client → msw (OpenAI API).
// 129 tools never reach OpenAI; deferred tools reach the Responses API for its own tool search.
import { createFixtureHost } from '@toolhost-internal/test-support';
import { AdapterError, type HostToolDefinition } from '@toolhost/contract';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';

const chatBodies: Record<string, unknown>[] = [];
const responsesBodies: Record<string, unknown>[] = [];

// What a Responses API answer that searched deferred tools holds (the item types of the tool
// search guide, as `openai` 6.49 types them): the hosted search, what it loaded, then a call of a
// function it found, inside its namespace.
const SEARCH_CALL = {
  type: 'tool_search_call',
  id: 'tsc_1',
  call_id: null,
  execution: 'server',
  status: 'completed',
  arguments: { query: 'mixed content' },
};
const SEARCH_OUTPUT = {
  type: 'tool_search_output',
  id: 'tso_1',
  call_id: null,
  execution: 'server',
  status: 'completed',
  tools: [
    {
      type: 'namespace',
      name: 'fixture',
      description: 'Tools of the MCP server fixture.',
      tools: [{ type: 'function', name: 'mixed-content', parameters: { type: 'object', properties: {} }, defer_loading: true }],
    },
  ],
};
const FOUND_CALL = {
  type: 'function_call',
  id: 'fc_1',
  call_id: 'call_1',
  namespace: 'fixture',
  name: 'mixed-content',
  arguments: '{}',
  status: 'completed',
};

const api = setupServer(
  http.post('https://api.openai.com/v1/chat/completions', async ({ request }) => {
    chatBodies.push((await request.json()) as Record<string, unknown>);
    const message = { role: 'assistant', content: 'Nothing to call.' };
    return HttpResponse.json({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message }],
    });
  }),
  http.post('https://api.openai.com/v1/responses', async ({ request }) => {
    responsesBodies.push((await request.json()) as Record<string, unknown>);
    const output =
      responsesBodies.length === 1
        ? [SEARCH_CALL, SEARCH_OUTPUT, FOUND_CALL]
        : [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'I see a one-pixel image.', annotations: [] }],
            },
          ];
    return HttpResponse.json({ id: `resp_${responsesBodies.length}`, object: 'response', model: 'gpt-5.4', status: 'completed', output });
  }),
);

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterAll(() => api.close());

const client = (): OpenAI => new OpenAI({ apiKey: 'test-key', maxRetries: 0 });

describe('OpenAI tool limit end to end', () => {
  it('fails listTools for a server with 129 tools before any request, and sends 128 when a filter leaves one out', async () => {
    const { host } = await createFixtureHost(
      createOpenAIChatAdapter(),
      {},
      { behaviour: 'paginated', args: ['--pages=1', '--page-size=129'] },
    );
    try {
      expect(host.listToolDefinitions()).toHaveLength(129);
      let caught: unknown;
      try {
        host.listTools();
      } catch (error) {
        caught = error;
      }
      expect(AdapterError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', provider: 'openai', limit: 'maxTools' });
      expect((caught as Error).message).toContain('this one would declare 129');
      expect(chatBodies).toHaveLength(0);

      const tools = host.listTools({ filter: (tool) => tool.name !== 'tool-129' });
      await client().chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools });
      expect(chatBodies[0]?.['tools']).toHaveLength(128);
    } finally {
      await host.close();
    }
  });
});

describe('OpenAI native tool search end to end', () => {
  it('sends deferred tools in namespaces with tool_search, runs only the found function, and replays the search items', async () => {
    const adapter = createOpenAIResponsesAdapter({ toolSearch: 'native' });
    const { host, confirmations } = await createFixtureHost(adapter);
    try {
      const deferred = host
        .listToolDefinitions()
        .map((tool): HostToolDefinition => (tool.name === 'echo' ? tool : { ...tool, deferLoading: true }));
      const tools = adapter.toTools(deferred);
      const input: ResponseInputItem[] = [{ role: 'user', content: 'Show me the mixed content.' }];
      const first = await client().responses.create({ model: 'gpt-5.4', input, tools });

      const sent = responsesBodies[0]?.['tools'] as Record<string, unknown>[];
      expect(sent.map((tool) => tool['type'])).toEqual(['function', 'namespace', 'tool_search']);
      expect(sent[0]).toMatchObject({ type: 'function', name: 'echo', strict: true });
      const namespace = sent[1] as { name: string; tools: Record<string, unknown>[] };
      expect(namespace.name).toBe('fixture');
      expect(namespace.tools.map((tool) => tool['name'])).toContain('mixed-content');
      expect(namespace.tools.every((tool) => tool['defer_loading'] === true)).toBe(true);

      const handled = await host.handleModelResponse(first);
      expect(confirmations.map((request) => request.mcpDetails.toolName)).toEqual(['mixed-content']);
      expect(handled.outcomes).toHaveLength(1);
      expect(handled.toolResults).toEqual([expect.objectContaining({ type: 'function_call_output', call_id: 'call_1' })]);

      input.push(...(first.output as ResponseInputItem[]), ...handled.toolResults!);
      await client().responses.create({ model: 'gpt-5.4', input, tools });
      const replayed = responsesBodies[1]?.['input'] as Record<string, unknown>[];
      expect(replayed.map((item) => item['type'] ?? item['role'])).toEqual([
        'user',
        'tool_search_call',
        'tool_search_output',
        'function_call',
        'function_call_output',
      ]);
      expect(replayed[1]).toMatchObject(SEARCH_CALL);
      expect(replayed[2]).toMatchObject(SEARCH_OUTPUT);
    } finally {
      await host.close();
    }
  });
});
