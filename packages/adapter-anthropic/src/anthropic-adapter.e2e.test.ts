// End to end: @anthropic-ai/sdk client → msw (Messages API) → McpToolHost → real stdio MCP server → next request.
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { createFixtureHost, isPng } from '@toolhost-internal/test-support';
import type { ConfirmationRequest } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

const bodies: Record<string, unknown>[] = [];

const api = setupServer(
  http.post('https://api.anthropic.com/v1/messages', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    const first = bodies.length === 1;
    return HttpResponse.json({
      id: `msg_${bodies.length}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: first ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
      content: first
        ? [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'toolu_1', name: 'mixed-content', input: {} },
          ]
        : [{ type: 'text', text: 'I see a one-pixel image.' }],
    });
  }),
);

let host: McpToolHost<Tool, Message | readonly ContentBlock[], MessageParam>;
let confirmations: ConfirmationRequest[];

beforeAll(async () => {
  api.listen({ onUnhandledRequest: 'error' });
  ({ host, confirmations } = await createFixtureHost(createAnthropicAdapter()));
});

afterAll(async () => {
  await host?.close();
  api.close();
});

describe('Anthropic adapter end to end', () => {
  it('sends the MCP result as a tool_result with text and a base64 image in the next request', async () => {
    const client = new Anthropic({ apiKey: 'test-key', maxRetries: 0 });
    const messages: MessageParam[] = [{ role: 'user', content: 'Show me everything.' }];
    const tools = host.listTools();
    const first = await client.messages.create({ model: 'claude-test', max_tokens: 256, messages, tools });
    expect(bodies[0]?.['tools']).toContainEqual(
      expect.objectContaining({ name: 'mixed-content', input_schema: expect.objectContaining({ type: 'object' }) }),
    );

    const handled = await host.handleModelResponse(first);
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.mcpDetails).toMatchObject({ serverName: 'fixture', toolName: 'mixed-content' });
    messages.push({ role: 'assistant', content: first.content }, handled.toolResults!);
    const second = await client.messages.create({ model: 'claude-test', max_tokens: 256, messages, tools });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'I see a one-pixel image.' });

    const sent = (bodies[1]?.['messages'] as Record<string, unknown>[])[2];
    expect(sent?.['role']).toBe('user');
    const [result] = sent?.['content'] as Record<string, unknown>[];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(result).not.toHaveProperty('is_error');
    const blocks = result?.['content'] as Record<string, unknown>[];
    expect(blocks.map((block) => block['type'])).toEqual(['text', 'image']);
    expect(String(blocks[0]?.['text'])).toContain('first text block');
    expect(String(blocks[0]?.['text'])).toContain('audio/wav data, which this model cannot receive');
    const source = blocks[1]?.['source'] as Record<string, string>;
    expect(source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(isPng(source['data'] ?? '')).toBe(true);
  });

  it('marks a failing MCP tool with is_error in the tool_result', async () => {
    const outcome = await host.callTool({ toolCallId: 'toolu_2', name: 'fail', arguments: { reason: 'disk full' } });
    expect(outcome.call.id).toBe('toolu_2');
    const message = createAnthropicAdapter().toToolResults([outcome]);
    expect(message.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true })]);
    expect(JSON.stringify(message.content)).toContain('disk full');
  });
});
