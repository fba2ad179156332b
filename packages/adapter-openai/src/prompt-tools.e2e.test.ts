// The host's prompt tools (`promptTools`) through the OpenAI Chat Completions adapter in strict
// mode: declared from host.listTools(), called the way a strict model answers (nulls for absent
// optional fields), run against the real basic fixture server over stdio.
import { createFixtureHost } from '@toolhost-internal/test-support';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';

function completionCalling(calls: Array<{ id: string; name: string; arguments: unknown }>): ChatCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        },
      },
    ],
  } as ChatCompletion;
}

describe('promptTools with the OpenAI Chat Completions adapter (strict)', () => {
  it('declares list_mcp_prompts and get_mcp_prompt as strict functions, and a strict call gets the prompt without asking', async () => {
    const { host, confirmations } = await createFixtureHost(createOpenAIChatAdapter(), { promptTools: true });
    try {
      const tools = host.listTools();
      const get = tools.find((tool) => tool.type === 'function' && tool.function.name === 'get_mcp_prompt');
      expect(tools.some((tool) => tool.type === 'function' && tool.function.name === 'list_mcp_prompts')).toBe(true);
      expect(get).toMatchObject({
        function: {
          strict: true,
          parameters: {
            type: 'object',
            additionalProperties: false,
            required: ['serverName', 'name', 'arguments'],
            properties: {
              arguments: {
                type: ['array', 'null'],
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['name', 'value'],
                  properties: { value: { type: 'string' } },
                },
              },
            },
          },
        },
      });

      const handled = await host.handleModelResponse(
        completionCalling([
          { id: 'call_1', name: 'list_mcp_prompts', arguments: { serverName: null } },
          {
            id: 'call_2',
            name: 'get_mcp_prompt',
            arguments: { serverName: 'fixture', name: 'poem-writer', arguments: [{ name: 'title', value: 'Ode to a CLI' }] },
          },
        ]),
      );
      expect(handled.outcomes.map((outcome) => outcome.isError)).toEqual([false, false]);
      expect(confirmations).toEqual([]);
      const messages = handled.toolResults as unknown as Array<{ role: string; tool_call_id: string; content: string }>;
      expect(messages[0]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
      expect(messages[0]?.content).toContain('- fixture:poem-writer | Poem writer |');
      expect(messages[1]).toMatchObject({ role: 'tool', tool_call_id: 'call_2' });
      expect(messages[1]?.content).toContain('[user]\nWrite a neutral poem called "Ode to a CLI".');
    } finally {
      await host.close();
    }
  });
});
