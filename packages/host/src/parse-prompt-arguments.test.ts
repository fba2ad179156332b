import { describe, expect, it } from 'vitest';
import { parsePromptArguments, tokenizePositional } from './parse-prompt-arguments.js';

const two = [
  { name: 'a', required: true },
  { name: 'b', required: true },
];
const poem = [
  { name: 'title', required: true },
  { name: 'mood', required: false },
];

describe('parsePromptArguments', () => {
  it('assigns positional tokens in order when two are required', () => {
    expect(parsePromptArguments('hello world', two).values).toEqual({ a: 'hello', b: 'world' });
  });

  it('keeps a quoted token together', () => {
    expect(parsePromptArguments('"hello world" foo', two).values).toEqual({ a: 'hello world', b: 'foo' });
  });

  it('joins every positional token into the only required argument', () => {
    expect(parsePromptArguments('hello world', [{ name: 'a', required: true }]).values).toEqual({ a: 'hello world' });
  });

  it('unescapes quotes and backslashes', () => {
    expect(parsePromptArguments('"hello \\"world\\"" x', two).values.a).toBe('hello "world"');
    expect(parsePromptArguments('"hello\\\\world" x', two).values.a).toBe('hello\\world');
  });

  it('treats a leading escaped quote as literal text', () => {
    expect(parsePromptArguments('\\"hello world', two).values).toEqual({ a: '"hello', b: 'world' });
  });

  it('mixes named and positional arguments in any order', () => {
    expect(parsePromptArguments('--b=two one', two).values).toEqual({ a: 'one', b: 'two' });
    expect(parsePromptArguments('one --b=two', two).values).toEqual({ a: 'one', b: 'two' });
    const three = [...two, { name: 'c', required: true }];
    expect(parsePromptArguments('x --b="y y" z', three).values).toEqual({ a: 'x', b: 'y y', c: 'z' });
  });

  it('parses the seeds\u2019 named and positional forms of /poem-writer', () => {
    expect(parsePromptArguments('--title="Gemini CLI" --mood="reverent"', poem)).toEqual({
      values: { title: 'Gemini CLI', mood: 'reverent' },
      missing: [],
    });
    expect(parsePromptArguments('"Gemini CLI" reverent', poem)).toEqual({
      values: { title: 'Gemini CLI', mood: 'reverent' },
      missing: [],
    });
  });

  it('fills required arguments before optional ones and joins surplus tokens into the last', () => {
    const optionalFirst = [{ name: 'mood' }, { name: 'title', required: true }];
    expect(parsePromptArguments('Haiku', optionalFirst).values).toEqual({ title: 'Haiku' });
    expect(parsePromptArguments('one two three', two).values).toEqual({ a: 'one', b: 'two three' });
  });

  it('lists missing required arguments', () => {
    const result = parsePromptArguments('--mood=calm', poem);
    expect(result.values).toEqual({ mood: 'calm' });
    expect(result.missing).toEqual(['title']);
    expect(parsePromptArguments('', two).missing).toEqual(['a', 'b']);
  });

  it('ignores empty named values and undeclared names', () => {
    expect(parsePromptArguments('--a="" --zzz=1 v w', two).values).toEqual({ a: 'v', b: 'w' });
  });
});

describe('tokenizePositional', () => {
  it('splits on whitespace outside quotes', () => {
    expect(tokenizePositional('  a  "b c"\td ')).toEqual(['a', 'b c', 'd']);
  });
});
