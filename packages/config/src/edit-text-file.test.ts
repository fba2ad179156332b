import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolhost-edit-text-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('editTextFile', () => {
  it('redoes the edit when another writer changed the file meanwhile, so neither change is lost', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(file, '{"mcpServers": {}}');
    let calls = 0;
    await editTextFile(file, (text) => {
      calls++;
      if (calls === 1) writeFileSync(file, '{"mcpServers": {"other": {"command": "o"}}}');
      return {
        text: setJsoncProperty(text ?? '', { objectPath: ['mcpServers'], key: 'mine', value: { command: 'm' }, filePath: file }).text,
        result: undefined,
      };
    });
    expect(calls).toBe(2);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ mcpServers: { other: { command: 'o' }, mine: { command: 'm' } } });
  });

  it('does not write when the text is unchanged', async () => {
    const file = join(dir, 'missing.json');
    expect(await editTextFile(file, (text) => ({ text, result: 'same' }))).toBe('same');
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
