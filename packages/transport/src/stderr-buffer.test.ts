import { describe, expect, it } from 'vitest';
import { StderrBuffer } from './stderr-buffer.js';

describe('StderrBuffer', () => {
  it('keeps only the last lines, across chunk boundaries', () => {
    const buffer = new StderrBuffer(3);
    buffer.write('one\ntw');
    buffer.write('o\r\nthree\nfour\nfi');
    expect(buffer.lines()).toEqual(['two', 'three', 'four']);
    buffer.flush();
    expect(buffer.lines()).toEqual(['three', 'four', 'fi']);
  });

  it('notifies line listeners and cuts very long lines', () => {
    const buffer = new StderrBuffer(5);
    const seen: string[] = [];
    const stop = buffer.onLine((line) => seen.push(line));
    buffer.write(`${'x'.repeat(10_000)}\nshort\n`);
    stop();
    buffer.write('ignored\n');
    expect(seen.map((line) => line.length)).toEqual([4096, 5]);
    expect(buffer.lines()).toHaveLength(3);
  });
});
