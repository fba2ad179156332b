import type { GenerateContentResponse } from '@google/genai';
import { AdapterError, type ModelStreamEvent } from '@toolhost/contract';
import { describe, expect, it } from 'vitest';
import { createGeminiStreamAccumulator } from './gemini-stream-accumulator.js';

function chunk(parts: unknown[], finishReason?: string, index?: number): GenerateContentResponse {
  return {
    candidates: [
      { content: { role: 'model', parts }, ...(index === undefined ? {} : { index }), ...(finishReason ? { finishReason } : {}) },
    ],
  } as unknown as GenerateContentResponse;
}

function run(
  chunks: GenerateContentResponse[],
  maxArgumentsLength?: number,
): { response: GenerateContentResponse; events: ModelStreamEvent[] } {
  const accumulator = createGeminiStreamAccumulator(maxArgumentsLength ? { maxArgumentsLength } : {});
  const events = chunks.flatMap((c) => accumulator.push(c));
  return { response: accumulator.finish(), events };
}

function errorOf(fn: () => unknown): AdapterError | undefined {
  try {
    fn();
  } catch (error) {
    if (AdapterError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
}

const partial = (jsonPath: string, value: Record<string, unknown>, willContinue = false): Record<string, unknown> => ({
  functionCall: { partialArgs: [{ jsonPath, ...value, ...(willContinue ? { willContinue } : {}) }], willContinue: true },
});

describe('createGeminiStreamAccumulator', () => {
  it('places partial arguments by JSON path: nested objects, arrays, quoted names, strings continued across parts', () => {
    const { response } = run([
      chunk([{ functionCall: { name: 'cook', willContinue: true } }]),
      chunk([partial('$.recipe.steps[0]', { stringValue: 'Boil ' }, true)]),
      chunk([partial('$.recipe.steps[0]', { stringValue: 'water' })]),
      chunk([partial('$.recipe.steps[1]', { stringValue: 'Eat' })]),
      chunk([partial("$['recipe']['serves']", { numberValue: 4 })]),
      chunk([partial('$.recipe["vegan \\"ok\\""]', { boolValue: true })]),
      chunk([partial('$.notes', { nullValue: 'NULL_VALUE' })]),
      chunk([partial('$.recipe.tags[0].name', { stringValue: 'quick' })]),
      chunk([{ functionCall: {} }], 'STOP'),
    ]);
    expect(response.candidates?.[0]?.content?.parts?.[0]?.functionCall).toEqual({
      name: 'cook',
      args: { recipe: { steps: ['Boil water', 'Eat'], serves: 4, 'vegan "ok"': true, tags: [{ name: 'quick' }] }, notes: null },
    });
  });

  it('never sets a prototype through a path, and refuses paths that skip array items or mix names and indexes', () => {
    const { response } = run([
      chunk([{ functionCall: { name: 't', willContinue: true } }]),
      chunk([partial('$.__proto__.polluted', { boolValue: true })]),
      chunk([{ functionCall: {} }], 'STOP'),
    ]);
    const args = response.candidates?.[0]?.content?.parts?.[0]?.functionCall?.args as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(args)).toEqual(['__proto__']);

    for (const [path, message] of [
      ['$.list[3]', 'skips array items'],
      ['$[0]', 'an index into an object'],
      ['$.a[*]', 'is not a JSON path'],
      ['$', 'is not a JSON path'],
    ] as const) {
      const error = errorOf(() =>
        run([chunk([{ functionCall: { name: 'tool_x', willContinue: true } }]), chunk([partial(path, { numberValue: 1 })])]),
      );
      expect(error).toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', toolName: 'tool_x' });
      expect(error?.message).toContain(message);
    }
  });

  it('joins text parts (thoughts apart), keeps a signature on an empty text part, and drops willContinue: false', () => {
    const { response } = run([
      chunk([{ text: 'a', thought: true }, { text: 'b', thought: true }, { text: 'c' }]),
      chunk([{ text: 'd' }, { functionCall: { name: 'f', args: {}, willContinue: false } }]),
      chunk([{ text: '', thoughtSignature: 'sig' }], 'STOP'),
    ]);
    expect(response.candidates?.[0]?.content?.parts).toEqual([
      { text: 'ab', thought: true },
      { text: 'cd' },
      { functionCall: { name: 'f', args: {} } },
      { text: '', thoughtSignature: 'sig' },
    ]);
  });

  it('assembles every candidate by index but reports events for the first only', () => {
    const { response, events } = run([
      chunk([{ text: 'one' }], undefined, 1),
      chunk([{ text: 'zero' }, { functionCall: { name: 'f', args: { x: 1 } } }], 'STOP', 0),
      chunk([{ functionCall: { name: 'g', args: {} } }], 'STOP', 1),
    ]);
    expect(response.candidates?.map((c) => c.content?.parts?.length)).toEqual([2, 2]);
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end']);
  });

  it('counts the limit on whole and on partial arguments, and needs a finishReason on every candidate', () => {
    expect(errorOf(() => run([chunk([{ functionCall: { name: 'f', args: { s: 'x'.repeat(20) } } }], 'STOP')], 20))?.code).toBe(
      'TOOL_ARGUMENTS_TOO_LARGE',
    );
    expect(
      errorOf(() =>
        run(
          [
            chunk([{ functionCall: { name: 'f', willContinue: true } }]),
            ...Array.from({ length: 5 }, () => chunk([partial('$.s', { stringValue: 'xxxxx' }, true)])),
          ],
          40,
        ),
      ),
    ).toMatchObject({ code: 'TOOL_ARGUMENTS_TOO_LARGE', toolName: 'f' });
    expect(errorOf(() => run([chunk([{ text: 'hi' }], 'STOP', 0), chunk([{ text: 'cut' }], undefined, 1)]))?.code).toBe(
      'INCOMPLETE_STREAM',
    );
    expect(errorOf(() => run([]))?.code).toBe('INCOMPLETE_STREAM');
  });
});
