import { describe, expect, it } from 'vitest';
import { findArgumentPosition } from './complete-slash-command.js';

const specs = [{ name: 'title', required: true }, { name: 'mood' }, { name: 'style', required: true }];
const at = (line: string) => findArgumentPosition({ line, commandName: 'poem', arguments: specs });

describe('findArgumentPosition', () => {
  it('finds a named argument being typed, unquoted or inside an open quote', () => {
    expect(at('/poem --mood=rev')).toEqual({ commandName: 'poem', argument: 'mood', value: 'rev', valueStart: 13, context: {} });
    expect(at('/poem --title="Gemini C')).toMatchObject({ argument: 'title', value: 'Gemini C', valueStart: 15 });
    expect(at('/poem --title="a \\"b\\" c')).toMatchObject({ argument: 'title', value: 'a "b" c' });
    expect(at('/poem --mood=')).toMatchObject({ argument: 'mood', value: '' });
  });

  it('fills positional arguments required first, with what was given as context', () => {
    expect(at('/poem ')).toMatchObject({ argument: 'title', value: '', valueStart: 6, context: {} });
    expect(at('/poem "Gemini CLI" ha')).toMatchObject({ argument: 'style', value: 'ha', context: { title: 'Gemini CLI' } });
    expect(at('/poem --style=haiku "Gemini CLI" re')).toMatchObject({
      argument: 'mood',
      value: 're',
      context: { style: 'haiku', title: 'Gemini CLI' },
    });
  });

  it('answers undefined when nothing is being typed or the argument is unknown', () => {
    expect(at('/poem')).toBeUndefined();
    expect(at('/poem --colour=re')).toBeUndefined();
    expect(at('/poem a b c ')).toBeUndefined();
    expect(at('/poem --title="done"')).toBeUndefined();
  });
});
