import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { AdapterError } from '@toolhost/contract';
import { describe, expect, it } from 'vitest';
import { collectAnthropicStream, createAnthropicStreamAccumulator } from './anthropic-stream-accumulator.js';

const start = {
  type: 'message_start',
  message: {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
} as unknown as RawMessageStreamEvent;
const end = [
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
] as unknown as RawMessageStreamEvent[];

const toolStart = (index: number, name: string, input: unknown = {}): RawMessageStreamEvent =>
  ({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}`, name, input } }) as RawMessageStreamEvent;
const json = (index: number, partial_json: string): RawMessageStreamEvent =>
  ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }) as RawMessageStreamEvent;
const stop = (index: number): RawMessageStreamEvent => ({ type: 'content_block_stop', index }) as RawMessageStreamEvent;

function run(
  events: RawMessageStreamEvent[],
  maxArgumentsLength?: number,
): ReturnType<ReturnType<typeof createAnthropicStreamAccumulator>['finish']> {
  const accumulator = createAnthropicStreamAccumulator(maxArgumentsLength === undefined ? {} : { maxArgumentsLength });
  for (const event of events) accumulator.push(event);
  return accumulator.finish();
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return AdapterError.isInstance(error) ? error.code : String(error);
  }
  return undefined;
}

describe('createAnthropicStreamAccumulator', () => {
  const text = '{"path": "a\\\\b", "note": "\\u00e9\\ud83c\\udf0d \u00e9\ud83c\udf0d", "n": [1, 2.5e3, null, true]}';
  const expected = JSON.parse(text) as Record<string, unknown>;

  it('assembles input JSON split at every position into the same object', () => {
    for (let cut = 0; cut <= text.length; cut++) {
      const message = run([start, toolStart(0, 'tool'), json(0, text.slice(0, cut)), json(0, text.slice(cut)), stop(0), ...end]);
      expect(message.content[0]).toMatchObject({ type: 'tool_use', input: expected });
    }
  });

  it('applies deltas that arrive before their content_block_start', () => {
    const message = run([start, json(0, '{"a":'), toolStart(0, 'tool'), json(0, ' 1}'), stop(0), ...end]);
    expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_0', name: 'tool', input: { a: 1 } }]);
  });

  it('keeps the input of content_block_start when no JSON follows, and reads an empty input as {}', () => {
    const message = run([start, toolStart(0, 'given', { a: 1 }), stop(0), toolStart(1, 'empty'), json(1, ''), stop(1), ...end]);
    expect(message.content.map((block) => (block.type === 'tool_use' ? block.input : undefined))).toEqual([{ a: 1 }, {}]);
  });

  it('rejects input that is JSON but not an object, naming the tool', () => {
    const accumulator = createAnthropicStreamAccumulator();
    accumulator.push(start);
    accumulator.push(toolStart(0, 'lister'));
    accumulator.push(json(0, '[1, 2]'));
    let error: unknown;
    try {
      accumulator.push(stop(0));
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', toolName: 'lister', callId: 'toolu_0' });
  });

  it('counts the limit per call, in characters', () => {
    expect(codeOf(() => run([start, toolStart(0, 't'), json(0, '{"a":"123"}'), stop(0), ...end], 11))).toBeUndefined();
    expect(codeOf(() => run([start, toolStart(0, 't'), json(0, '{"a":"1234"}'), stop(0), ...end], 11))).toBe('TOOL_ARGUMENTS_TOO_LARGE');
    expect(codeOf(() => createAnthropicStreamAccumulator({ maxArgumentsLength: 0 }))).toBe('INVALID_OPTIONS');
  });

  it('calls a stream without message_start, or without message_stop, incomplete', () => {
    expect(codeOf(() => run([toolStart(0, 't')]))).toBe('INCOMPLETE_STREAM');
    expect(codeOf(() => run([]))).toBe('INCOMPLETE_STREAM');
    expect(
      codeOf(() =>
        run([
          start,
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'hi' } } as RawMessageStreamEvent,
          stop(0),
        ]),
      ),
    ).toBe('INCOMPLETE_STREAM');
  });

  it('rejects collectAnthropicStream with bad options instead of throwing synchronously', async () => {
    const empty = (async function* () {})();
    await expect(collectAnthropicStream(empty, { maxArgumentsLength: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
