import { AdapterError, type ModelStreamEvent } from '@toolhost/contract';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatStreamAccumulator } from './chat-stream-accumulator.js';
import { createOpenAIResponsesStreamAccumulator } from './responses-stream-accumulator.js';

const TEXT = '{"path": "a\\\\b", "note": "\\u00e9\\ud83c\\udf0d \u00e9\ud83c\udf0d", "n": [1, 2.5e3, null, true]}';
const EXPECTED = JSON.parse(TEXT) as Record<string, unknown>;

function chatChunk(choices: Array<Record<string, unknown>>): ChatCompletionChunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices } as unknown as ChatCompletionChunk;
}
const toolChunk = (toolCalls: Array<Record<string, unknown>>, index = 0): ChatCompletionChunk =>
  chatChunk([{ index, delta: { tool_calls: toolCalls }, finish_reason: null }]);
const finishChunk = (index = 0): ChatCompletionChunk => chatChunk([{ index, delta: {}, finish_reason: 'tool_calls' }]);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return AdapterError.isInstance(error) ? error.code : String(error);
  }
  return undefined;
}

describe('createOpenAIChatStreamAccumulator', () => {
  it('assembles arguments split at every position', () => {
    for (let cut = 0; cut <= TEXT.length; cut++) {
      const accumulator = createOpenAIChatStreamAccumulator();
      accumulator.push(toolChunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 't', arguments: TEXT.slice(0, cut) } }]));
      accumulator.push(toolChunk([{ index: 0, function: { arguments: TEXT.slice(cut) } }]));
      accumulator.push(finishChunk());
      const completion = accumulator.finish();
      const call = completion.choices[0]!.message.tool_calls![0]!;
      expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual(EXPECTED);
    }
  });

  it('continues the last call when a compatible server leaves out index, and starts a new one on a new id', () => {
    const accumulator = createOpenAIChatStreamAccumulator();
    accumulator.push(toolChunk([{ id: 'a', function: { name: 'one', arguments: '{"x":' } }]));
    accumulator.push(toolChunk([{ function: { arguments: ' 1}' } }]));
    accumulator.push(toolChunk([{ id: 'b', function: { name: 'two', arguments: '{}' } }]));
    accumulator.push(finishChunk());
    const calls = accumulator.finish().choices[0]!.message.tool_calls!;
    expect(calls.map((call) => call.type === 'function' && [call.id, call.function.name, call.function.arguments])).toEqual([
      ['a', 'one', '{"x": 1}'],
      ['b', 'two', '{}'],
    ]);
  });

  it('reports events for the first choice only, and needs finish_reason on every choice', () => {
    const accumulator = createOpenAIChatStreamAccumulator();
    const events: ModelStreamEvent[] = [];
    events.push(...accumulator.push(chatChunk([{ index: 1, delta: { content: 'second' }, finish_reason: 'stop' }])));
    events.push(...accumulator.push(chatChunk([{ index: 0, delta: { content: 'first' }, finish_reason: null }])));
    expect(events).toEqual([{ type: 'text-delta', text: 'first' }]);
    expect(codeOf(() => accumulator.finish())).toBe('INCOMPLETE_STREAM');
  });

  it('rejects a call without a name and arguments that are not an object', () => {
    const nameless = createOpenAIChatStreamAccumulator();
    nameless.push(toolChunk([{ index: 0, id: 'x', function: { arguments: '{}' } }]));
    expect(codeOf(() => nameless.push(finishChunk()))).toBe('INVALID_TOOL_CALL');
    const array = createOpenAIChatStreamAccumulator();
    array.push(toolChunk([{ index: 0, id: 'x', function: { name: 't', arguments: '[1]' } }]));
    expect(codeOf(() => array.push(finishChunk()))).toBe('INVALID_TOOL_ARGUMENTS');
  });
});

function ev(event: Record<string, unknown>): ResponseStreamEvent {
  return event as unknown as ResponseStreamEvent;
}
const created = ev({ type: 'response.created', response: { id: 'r', object: 'response', status: 'in_progress', output: [] } });
const completed = ev({ type: 'response.completed', response: { id: 'r', object: 'response', status: 'completed', output: [] } });
const added = (index: number, name: string): ResponseStreamEvent =>
  ev({
    type: 'response.output_item.added',
    output_index: index,
    item: { type: 'function_call', id: `fc_${index}`, call_id: `call_${index}`, name, arguments: '' },
  });
const delta = (index: number, text: string): ResponseStreamEvent =>
  ev({ type: 'response.function_call_arguments.delta', output_index: index, item_id: `fc_${index}`, delta: text });

describe('createOpenAIResponsesStreamAccumulator', () => {
  it('assembles arguments split at every position', () => {
    for (let cut = 0; cut <= TEXT.length; cut++) {
      const accumulator = createOpenAIResponsesStreamAccumulator();
      for (const event of [created, added(0, 't'), delta(0, TEXT.slice(0, cut)), delta(0, TEXT.slice(cut)), completed])
        accumulator.push(event);
      const [item] = accumulator.finish().output;
      expect(item?.type === 'function_call' && JSON.parse(item.arguments)).toEqual(EXPECTED);
    }
  });

  it('takes deltas that arrive before their output item, and the .done text over the deltas', () => {
    const accumulator = createOpenAIResponsesStreamAccumulator();
    const events: ModelStreamEvent[] = [];
    for (const event of [
      created,
      delta(0, '{"a": '),
      added(0, 't'),
      delta(0, '1}'),
      ev({ type: 'response.function_call_arguments.done', output_index: 0, item_id: 'fc_0', name: 't', arguments: '{"a": 2}' }),
      completed,
    ]) {
      events.push(...accumulator.push(event));
    }
    expect(events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-delta', 'tool-call-delta', 'tool-call-end']);
    expect(events.at(-1)).toMatchObject({ call: { id: 'call_0', name: 't', arguments: { a: 2 } } });
    expect(accumulator.finish().output).toEqual([
      { type: 'function_call', id: 'fc_0', call_id: 'call_0', name: 't', arguments: '{"a": 2}' },
    ]);
  });

  it('checks the limit on the deltas and on the .done text', () => {
    const viaDeltas = createOpenAIResponsesStreamAccumulator({ maxArgumentsLength: 8 });
    viaDeltas.push(created);
    viaDeltas.push(added(0, 't'));
    viaDeltas.push(delta(0, '{"a": 1}'));
    expect(codeOf(() => viaDeltas.push(delta(0, ' ')))).toBe('TOOL_ARGUMENTS_TOO_LARGE');
    const viaDone = createOpenAIResponsesStreamAccumulator({ maxArgumentsLength: 8 });
    viaDone.push(created);
    viaDone.push(added(0, 't'));
    expect(
      codeOf(() =>
        viaDone.push(
          ev({ type: 'response.function_call_arguments.done', output_index: 0, item_id: 'fc_0', name: 't', arguments: '{"a": 10}' }),
        ),
      ),
    ).toBe('TOOL_ARGUMENTS_TOO_LARGE');
  });
});
