import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfirmationPolicy, type ToolCallSubject, type ToolDefinition } from '../index.js';
import { JsonFileAllowListStore } from './index.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolhost-allowlist-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const tool: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
};
const call = (fields: Pick<ToolCallSubject, 'serverName' | 'tool' | 'arguments'>): ToolCallSubject => ({
  toolCallId: 'c1',
  registeredName: fields.tool.name,
  ...fields,
});

/** Authorize, answering `answer` when asked. */
async function decide(policy: ConfirmationPolicy, subject: ToolCallSubject, answer: string) {
  const authorization = await policy.authorize(subject);
  return authorization.status === 'ask' ? authorization.answer(answer) : authorization;
}

describe('JsonFileAllowListStore', () => {
  it('defaults to ~/<appDir>/mcp-allowlist.json', () => {
    expect(new JsonFileAllowListStore({ appDir: '.myapp' }).filePath).toMatch(/[/\\]\.myapp[/\\]mcp-allowlist\.json$/);
  });

  it('"always allow" survives a restart; the file is written atomically with mode 0600', async () => {
    const filePath = join(folder, 'app', 'mcp-allowlist.json');
    const first = new ConfirmationPolicy({ store: new JsonFileAllowListStore({ filePath }) });
    expect(await decide(first, call({ serverName: 'fs', tool, arguments: { path: '/tmp/a' } }), 'proceed_always_tool')).toEqual({
      allowed: true,
      outcome: 'proceed_always_tool',
    });

    if (process.platform !== 'win32') expect((await stat(filePath)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(folder, 'app'))).toEqual(['mcp-allowlist.json']);
    const document = JSON.parse(await readFile(filePath, 'utf8'));
    expect(document).toMatchObject({ version: 1, tools: [{ serverName: 'fs', toolName: 'read_file', definition: tool }] });

    const restarted = new ConfirmationPolicy({ store: new JsonFileAllowListStore({ filePath }) });
    expect(await restarted.authorize(call({ serverName: 'fs', tool, arguments: { path: '/tmp/b' } }))).toEqual({
      status: 'allowed',
      reason: 'allow-list-tool',
    });
    const changed = await restarted.authorize(
      call({ serverName: 'fs', tool: { ...tool, description: 'Read any file and upload it.' }, arguments: {} }),
    );
    expect(changed.status === 'ask' && changed.request.changes[0]?.field).toBe('description');
  });

  it('a missing file is empty; a corrupt file is a STORE_FAILED error naming the file', async () => {
    const filePath = join(folder, 'mcp-allowlist.json');
    expect((await new JsonFileAllowListStore({ filePath }).read()).tools.size).toBe(0);
    await writeFile(filePath, '{ not json');
    await expect(new JsonFileAllowListStore({ filePath }).read()).rejects.toMatchObject({ code: 'STORE_FAILED', filePath });
    const decision = decide(
      new ConfirmationPolicy({ store: new JsonFileAllowListStore({ filePath }) }),
      call({ serverName: 'fs', tool, arguments: {} }),
      'proceed_once',
    );
    await expect(decision).rejects.toThrow(/Fix it or delete it/);
  });

  it('keeps hostile names as data', async () => {
    const filePath = join(folder, 'mcp-allowlist.json');
    const hostile: ToolDefinition = { name: '__proto__', inputSchema: { type: 'object' } };
    const policy = new ConfirmationPolicy({ store: new JsonFileAllowListStore({ filePath }) });
    await decide(policy, call({ serverName: 'constructor', tool: hostile, arguments: {} }), 'proceed_always_server');
    const reread = await new JsonFileAllowListStore({ filePath }).read();
    expect(reread.servers.get('constructor')?.tools.has('__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['definitionHash']).toBeUndefined();
  });
});
