import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfirmationPolicy, type ToolCallSubject, type ToolDefinition } from '../index.js';
import { JsonFileAllowListStore } from './index.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'toolhost-allowlist-'));
});
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
  await rm(folder, { recursive: true, force: true });
});

/** The package folder: a child process started there imports the built `@toolhost/confirmation`. */
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A child process with its own policy on `filePath`: it is asked about `toolName` (so it holds the
 * list as it is now), says `asking`, and answers "always allow this tool" when it reads a line.
 */
function approveInChild(filePath: string, toolName: string): { child: ChildProcess; asking: Promise<void>; done: Promise<void> } {
  const script = `
    import { createInterface } from 'node:readline';
    import { ConfirmationPolicy } from '@toolhost/confirmation';
    import { JsonFileAllowListStore } from '@toolhost/confirmation/node';
    const policy = new ConfirmationPolicy({ store: new JsonFileAllowListStore({ filePath: process.env.ALLOW_LIST }) });
    const tool = { name: process.env.TOOL, inputSchema: { type: 'object' } };
    const authorization = await policy.authorize({ toolCallId: 'c', serverName: 'fs', tool, arguments: {}, registeredName: tool.name });
    if (authorization.status !== 'ask') throw new Error('expected to be asked');
    process.stdout.write('asking\\n');
    const lines = createInterface({ input: process.stdin });
    await new Promise((go) => lines.once('line', go));
    lines.close();
    await authorization.answer('proceed_always_tool');
    process.stdout.write('done\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ALLOW_LIST: filePath, TOOL: toolName },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(word)) resolve();
      });
      child.on('exit', () => (output.includes(word) ? resolve() : reject(new Error(`child for ${toolName} exited: ${errors}`))));
    });
  const asking = said('asking');
  const done = said('done');
  done.catch(() => undefined); // reported through `asking` when the child fails early
  return { child, asking, done };
}

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

  it('several processes approving at the same moment: every approval is kept, none overwritten', async () => {
    const filePath = join(folder, 'mcp-allowlist.json');
    const names = ['tool_a', 'tool_b', 'tool_c', 'tool_d'];
    const processes = names.map((name) => approveInChild(filePath, name));
    // Every process has read the (empty) list and is asking; then all answer at once.
    await Promise.all(processes.map((p) => p.asking));
    for (const p of processes) p.child.stdin?.write('go\n');
    await Promise.all(processes.map((p) => p.done));
    const stored = await new JsonFileAllowListStore({ filePath }).read();
    expect([...stored.tools.values()].map((approval) => approval.toolName).sort()).toEqual(names);
    expect(await readdir(folder)).toEqual(['mcp-allowlist.json']);
  });

  it('update leaves a file that is not an allow-list untouched, and makes no folder for a change that changes nothing', async () => {
    const filePath = join(folder, 'mcp-allowlist.json');
    await writeFile(filePath, '{ not json');
    const store = new JsonFileAllowListStore({ filePath });
    await expect(store.update((list) => list)).rejects.toMatchObject({ code: 'STORE_FAILED', filePath });
    expect(await readFile(filePath, 'utf8')).toBe('{ not json');
    expect(await readdir(folder)).toEqual(['mcp-allowlist.json']);
    // A change that changes nothing makes no folder.
    const elsewhere = new JsonFileAllowListStore({ filePath: join(folder, 'unused', 'mcp-allowlist.json') });
    expect((await elsewhere.update((list) => list)).tools.size).toBe(0);
    expect(await readdir(folder)).toEqual(['mcp-allowlist.json']);
  });
});
