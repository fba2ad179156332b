import { describe, expect, it } from 'vitest';
import { assignToolNames, MAX_TOOL_NAME_LENGTH } from './index.js';

const names = (entries: { serverName: string; toolName: string }[], reservedNames?: string[]) =>
  assignToolNames(entries, { reservedNames }).names.map((n) => n.registeredName);

describe('assignToolNames', () => {
  it('gives the first server the bare name and later servers serverName__toolName', () => {
    const result = assignToolNames([
      { serverName: 'github', toolName: 'search' },
      { serverName: 'gitlab', toolName: 'search' },
      { serverName: 'jira', toolName: 'search' },
      { serverName: 'gitlab', toolName: 'merge' },
    ]);
    expect(result.names.map((n) => [n.registeredName, n.kind])).toEqual([
      ['search', 'bare'],
      ['gitlab__search', 'qualified'],
      ['jira__search', 'qualified'],
      ['merge', 'bare'],
    ]);
    expect(result.byRegisteredName.get('gitlab__search')).toEqual({
      registeredName: 'gitlab__search',
      serverName: 'gitlab',
      toolName: 'search',
      kind: 'qualified',
    });
  });

  it('depends only on the order given, and is deterministic', () => {
    const entries = [
      { serverName: 'b', toolName: 'x' },
      { serverName: 'a', toolName: 'x' },
    ];
    expect(names(entries)).toEqual(['x', 'a__x']);
    expect(names(entries)).toEqual(names(entries.map((e) => ({ ...e }))));
    expect(names([...entries].reverse())).toEqual(['x', 'b__x']);
  });

  it('sanitises names and keeps the original for tools/call', () => {
    const result = assignToolNames([{ serverName: 'my server', toolName: 'get/user profile' }]);
    expect(result.names[0]).toMatchObject({ registeredName: 'get_user_profile', toolName: 'get/user profile', serverName: 'my server' });
  });

  it('never overwrites: names equal after sanitising on one server get a stable hash suffix', () => {
    const entries = [
      { serverName: 's', toolName: 'a b' },
      { serverName: 's', toolName: 'a_b' },
      { serverName: 's', toolName: 'a.b' },
      { serverName: 's', toolName: 'a/b' },
    ];
    const result = names(entries);
    expect(result[0]).toBe('a_b');
    expect(result[1]).toBe('s__a_b');
    expect(result[2]).toBe('a.b');
    expect(result[3]).toMatch(/^s__a_b_[0-9a-z]{7}$/);
    expect(new Set(result).size).toBe(4);
    expect(names(entries)).toEqual(result);
  });

  it('keeps long names apart after truncation, within 63 characters', () => {
    const long = (middle: string) => `${'prefix_'.repeat(5)}${middle}${'_suffix'.repeat(5)}`;
    const entries = [
      { serverName: 'one', toolName: long('AAA') },
      { serverName: 'one', toolName: long('BBB') },
      { serverName: 'two', toolName: long('AAA') },
      { serverName: 'two', toolName: long('BBB') },
    ];
    const result = names(entries);
    expect(new Set(result).size).toBe(4);
    for (const name of result) {
      expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
      expect(name).toMatch(/^[a-zA-Z0-9_.-]+$/);
    }
  });

  it('separates server "a_b" + tool "c" from server "a" + tool "b_c" (Gemini CLI collides them)', () => {
    const result = names([
      { serverName: 'x', toolName: 'c' },
      { serverName: 'x', toolName: 'b__c' },
      { serverName: 'a_b', toolName: 'c' },
      { serverName: 'a', toolName: 'b__c' },
    ]);
    expect(new Set(result).size).toBe(4);
  });

  it('a tool listed twice gets two distinct names', () => {
    const result = names([
      { serverName: 's', toolName: 't' },
      { serverName: 's', toolName: 't' },
      { serverName: 's', toolName: 't' },
    ]);
    expect(result[0]).toBe('t');
    expect(result[1]).toBe('s__t');
    expect(result[2]).toMatch(/^s__t_[0-9a-z]{7}$/);
  });

  it('never hands out a reserved name, and handles empty tool names', () => {
    expect(names([{ serverName: 's', toolName: 'read_file' }], ['read_file'])).toEqual(['s__read_file']);
    expect(names([{ serverName: 's', toolName: '' }])).toEqual(['s__']);
  });

  it('names every tool within a vendor policy, once: no dots for OpenAI, 64 characters, still unique', () => {
    const policy = { maxLength: 64, normalize: (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_') };
    const long = `files.${'x'.repeat(100)}.read`;
    const assigned = assignToolNames(
      [
        { serverName: 'fs', toolName: 'files.read' },
        { serverName: 'fs', toolName: 'files_read' },
        { serverName: 'other', toolName: long },
      ],
      { policy },
    ).names.map((entry) => entry.registeredName);
    expect(assigned[0]).toBe('files_read');
    expect(assigned[1]).toBe('fs__files_read');
    expect(assigned[2]).toHaveLength(64);
    expect(assigned[2]).toMatch(/^files_x+___x+_read$/);
    for (const name of assigned) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
