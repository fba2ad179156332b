// Long tool calls the server runs as tasks (MCP tasks), through McpToolHost against real servers
// on loopback: the 2025-11-25 experimental feature (task-augmented tools/call, tasks/get,
// tasks/result, tasks/cancel) and the 2026-07-28 Tasks extension (resultType "task", tasks/get
// with the result inline, tasks/update, tasks/cancel, requestState echoed).
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath, startEraHttpFixture, startHttpFixture, type EraHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import type { ToolCall } from '@toolhost/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostTaskOptions, McpToolHostOptions } from './host-options.js';
import { McpToolHost } from './mcp-tool-host.js';
import { FileTaskStore, InMemoryTaskStore, type TaskStore } from './tool-call/tasks/task-store.js';

const FAST: HostTaskOptions = { minPollIntervalMs: 10, defaultPollIntervalMs: 20, maxPollIntervalMs: 100 };

const hosts: McpToolHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-tasks-'));
  dirs.push(dir);
  return dir;
}

async function connect(url: string, options: Partial<McpToolHostOptions> = {}): Promise<McpToolHost> {
  const host = await McpToolHost.create({
    settings: { mcpServers: { jobs: { httpUrl: url, trust: true } } },
    tasks: FAST,
    stores: { tasks: new InMemoryTaskStore() },
    ...options,
  });
  hosts.push(host);
  await host.discover();
  return host;
}

function toolName(host: McpToolHost, originalName: string): string {
  const tool = host.servers.listTools().find((candidate) => candidate.originalName === originalName);
  if (!tool) throw new Error(`tool ${originalName} is not listed`);
  return tool.name;
}

async function stats(host: McpToolHost): Promise<Record<string, number>> {
  const result = await host.callTool({ name: toolName(host, 'task-stats') });
  return result.structuredContent as Record<string, number>;
}

function record(host: McpToolHost): ToolCall[] {
  const updates: ToolCall[] = [];
  host.on('tool-call-update', (update) => updates.push(update));
  return updates;
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each([
  { revision: '2025-11-25', start: () => startHttpFixture({ behaviour: 'tasks' }) },
  { revision: '2026-07-28', start: () => startEraHttpFixture({ behaviour: 'tasks', era: 'modern' }) },
])('tasks on $revision', ({ revision, start }) => {
  let fixture: HttpFixture | EraHttpFixture;
  beforeAll(async () => {
    fixture = await start();
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('negotiates the revision under test', async () => {
    const host = await connect(fixture.url);
    expect(host.servers.status().servers[0]?.protocolVersion).toBe(revision);
  });

  it('shows the call as EXECUTING with the task status, then maps the task result', async () => {
    const host = await connect(fixture.url);
    const updates = record(host);
    const before = await stats(host);
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 600, steps: 3 }, toolCallId: 'job-1' });
    expect(result.error).toBeUndefined();
    expect(result.display).toBe('task done after 3 steps');
    expect(result.toolCall.status).toBe('SUCCEEDED');
    const job = updates.filter((update) => update.toolCallId === 'job-1');
    const executing = job.filter((update) => update.status === 'EXECUTING' && update.task);
    expect(executing[0]?.task).toMatchObject({ status: 'working', statusMessage: 'step 0 of 3' });
    const shown = executing.filter((update) => update.task?.status === 'working').map((update) => update.liveContent ?? '');
    // The server moves a step every 200 ms and the host polls every 20 ms: at least two steps are seen, in order.
    expect(shown.every((text) => /^step [0-2] of 3$/.test(text))).toBe(true);
    expect(new Set(shown).size).toBeGreaterThanOrEqual(2);
    expect([...shown].sort()).toEqual(shown);
    expect(new Set(executing.map((update) => update.task?.taskId)).size).toBe(1);
    expect(job.at(-1)?.status).toBe('SUCCEEDED');
    const after = await stats(host);
    expect(after['created']).toBe((before['created'] ?? 0) + 1);
    expect(after['polls']).toBeGreaterThan(before['polls'] ?? 0);
    // 2026-07-28: every request carried the latest requestState the server sent.
    expect(after['staleStates']).toBe(0);
    expect(await host.tasks.list()).toEqual([]);
  });

  it('reports a failed task as TASK_FAILED naming the server, tool and task', async () => {
    const host = await connect(fixture.url);
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 50, outcome: 'fail' } });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('TASK_FAILED');
    expect(result.error?.message).toMatch(/^Tool "slow-task" of MCP server "jobs" ran as task \S+, which failed: /);
    expect(result.error?.message).toContain('failed on purpose');
    expect(result.toolCall.status).toBe('FAILED');
  });

  it('maps a tool error inside a completed task as TOOL_REPORTED_ERROR', async () => {
    const host = await connect(fixture.url);
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 50, outcome: 'tool-error' } });
    expect(result.error?.code).toBe('TOOL_REPORTED_ERROR');
    expect(result.display).toContain('the tool reported an error on purpose');
    expect(result.toolCall.status).toBe('FAILED');
  });

  it('cancels the task on the server when the call is aborted', async () => {
    const host = await connect(fixture.url);
    const updates = record(host);
    const before = await stats(host);
    const controller = new AbortController();
    const pending = host.callTool(
      { name: toolName(host, 'slow-task'), arguments: { delayMs: 5000 }, toolCallId: 'to-cancel' },
      { signal: controller.signal },
    );
    await waitFor('the task runs', () => updates.some((update) => update.toolCallId === 'to-cancel' && update.task !== undefined));
    controller.abort();
    const result = await pending;
    expect(result.error?.code).toBe('CANCELLED');
    expect(result.error?.message).toContain('asked the server to cancel task');
    expect(result.toolCall.status).toBe('CANCELLED');
    const after = await stats(host);
    expect(after['cancelRequests']).toBe((before['cancelRequests'] ?? 0) + 1);
    expect(after['cancelled']).toBe((before['cancelled'] ?? 0) + 1);
    expect(await host.tasks.list()).toEqual([]);
  });

  it('gives up on a task that never finishes at the deadline, and cancels it', async () => {
    const host = await connect(fixture.url, { tasks: { ...FAST, timeoutMs: 400 } });
    const before = await stats(host);
    const started = Date.now();
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 50, outcome: 'never' } });
    const elapsed = Date.now() - started;
    expect(result.error?.code).toBe('REQUEST_TIMEOUT');
    expect(result.error?.message).toMatch(
      /^Tool "slow-task" of MCP server "jobs" did not finish within 400 ms \(task \S+, last status working: still working\)/,
    );
    expect(elapsed).toBeGreaterThanOrEqual(400);
    // The task never finishes: only the deadline ends the call (the bound leaves room for a loaded machine).
    expect(elapsed).toBeLessThan(30_000);
    expect((await stats(host))['cancelRequests']).toBe((before['cancelRequests'] ?? 0) + 1);
  });

  it('bounds what the server says: control characters escaped, long messages cut, absurd poll intervals ignored', async () => {
    // maxPollIntervalMs keeps its default (30 s): only ignoring the absurd hint keeps this call fast.
    const host = await connect(fixture.url, { tasks: { minPollIntervalMs: 10, defaultPollIntervalMs: 20 } });
    const updates = record(host);
    const hostile = `\u001b]0;owned\u0007\u202eevil\n${'x'.repeat(5000)}`;
    const started = Date.now();
    const absurd = await host.callTool({
      name: toolName(host, 'slow-task'),
      arguments: { delayMs: 200, pollIntervalMs: 1e12, statusMessage: hostile },
      toolCallId: 'hostile',
    });
    // Polls every 20 ms; a host that took the absurd hint would wait the 30 s maximum.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(absurd.error).toBeUndefined();
    const shown = updates.find((update) => update.toolCallId === 'hostile' && update.task)?.liveContent ?? '';
    expect(shown).toMatch(/^\\u001b\]0;owned\\u0007\\u202eevil\\u000axxx/);
    // eslint-disable-next-line no-control-regex -- the control characters are what must be absent
    expect(shown).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(shown.length).toBeLessThanOrEqual(600);
  });

  it('lowers a long poll interval the server asks for to maxPollIntervalMs', async () => {
    const host = await connect(fixture.url, { tasks: { ...FAST, maxPollIntervalMs: 50 } });
    const started = Date.now();
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 200, pollIntervalMs: 3_600_000 } });
    expect(result.error).toBeUndefined();
    // Polls every 50 ms; one that took the hint would wait an hour.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('picks the task up again after a restart: same store, new host, resume', async () => {
    const dir = await tempDir();
    const filePath = join(dir, 'mcp-tasks.json');
    const first = await connect(fixture.url, { stores: { tasks: new FileTaskStore({ filePath }) } });
    const updates = record(first);
    const pending = first.callTool({ name: toolName(first, 'slow-task'), arguments: { delayMs: 1200, steps: 4 }, toolCallId: 'survivor' });
    await waitFor('the task runs', () => updates.some((update) => update.toolCallId === 'survivor' && update.task !== undefined));
    const taskId = updates.find((update) => update.task)?.task?.taskId ?? '';
    await first.close();
    const interrupted = await pending;
    expect(interrupted.error?.code).toBe('CLOSED');
    expect(interrupted.error?.message).toContain(`host.tasks.resume({ serverName: "jobs", taskId: "${taskId}" })`);
    const saved = JSON.parse(await readFile(filePath, 'utf8')) as { tasks: Array<Record<string, unknown>> };
    expect(saved.tasks).toEqual([
      expect.objectContaining({
        serverName: 'jobs',
        taskId,
        toolCallId: 'survivor',
        toolName: 'slow-task',
        serverToolName: 'slow-task',
        protocolVersion: revision,
      }),
    ]);
    if (revision === '2026-07-28') expect(saved.tasks[0]?.['requestState']).toEqual(expect.any(String));
    if (process.platform !== 'win32') expect((await stat(filePath)).mode & 0o777).toBe(0o600);

    const second = await connect(fixture.url, { stores: { tasks: new FileTaskStore({ filePath }) } });
    expect(await second.tasks.list()).toEqual([
      expect.objectContaining({ serverName: 'jobs', taskId, toolCallId: 'survivor', running: false }),
    ]);
    const resumedUpdates = record(second);
    const result = await second.tasks.resume({ serverName: 'jobs', taskId });
    expect(result.error).toBeUndefined();
    expect(result.display).toBe('task done after 4 steps');
    expect(result.toolCall).toMatchObject({ toolCallId: 'survivor', status: 'SUCCEEDED', serverName: 'jobs', task: { taskId } });
    expect(resumedUpdates.some((update) => update.status === 'EXECUTING' && update.task?.taskId === taskId)).toBe(true);
    expect(await second.tasks.list()).toEqual([]);
    expect((JSON.parse(await readFile(filePath, 'utf8')) as { tasks: unknown[] }).tasks).toEqual([]);
    expect((await stats(second))['staleStates']).toBe(0);
    await expect(second.tasks.resume({ serverName: 'jobs', taskId })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('cancels an outstanding task through host.tasks.cancel', async () => {
    const store: TaskStore = new InMemoryTaskStore();
    const first = await connect(fixture.url, { stores: { tasks: store } });
    const updates = record(first);
    const pending = first.callTool({ name: toolName(first, 'slow-task'), arguments: { delayMs: 5000 }, toolCallId: 'left' });
    await waitFor('the task runs', () => updates.some((update) => update.task !== undefined));
    const taskId = updates.find((update) => update.task)?.task?.taskId ?? '';
    await first.close();
    await pending;
    const second = await connect(fixture.url, { stores: { tasks: store } });
    const before = await stats(second);
    await second.tasks.cancel({ serverName: 'jobs', taskId });
    expect(await second.tasks.list()).toEqual([]);
    expect((await stats(second))['cancelled']).toBe((before['cancelled'] ?? 0) + 1);
  });
});

describe('tasks over stdio', () => {
  it.each(['legacy', 'modern'])('runs a task on a stdio server of the %s era', async (era) => {
    const host = await McpToolHost.create({
      // 2026-07-28 pinned: in auto mode a stdio server that has not answered the version probe within
      // 5 s (a busy machine starting it) counts as a 2025-era one.
      settings: {
        mcpServers: {
          jobs: {
            command: process.execPath,
            args: [fixtureBinPath('tasks'), `--era=${era}`],
            trust: true,
            ...(era === 'modern' ? { protocolVersion: '2026-07-28' as const } : {}),
          },
        },
      },
      tasks: FAST,
    });
    hosts.push(host);
    await host.discover();
    const updates = record(host);
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 100 } });
    expect(result.display).toBe('task done after 3 steps');
    expect(updates.some((update) => update.task?.status === 'working')).toBe(true);
  });
});

describe('tasks on 2025-11-25 only', () => {
  let fixture: HttpFixture;
  beforeAll(async () => {
    fixture = await startHttpFixture({ behaviour: 'tasks' });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('refuses a tool that requires tasks when the host does not use them, without calling the server', async () => {
    const host = await connect(fixture.url, { tasks: false });
    const before = await stats(host);
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: {} });
    expect(result.error?.code).toBe('TASK_REQUIRED');
    expect(result.error?.message).toBe(
      'Tool "slow-task" of MCP server "jobs" can only run as a task (execution.taskSupport "required"), and this host does not use tasks; create the host with the tasks option (tasks: true) to call it.',
    );
    expect(await stats(host)).toEqual(before);
  });

  it('runs a tool whose task support is optional inline, unless optionalTools is set', async () => {
    const inline = await connect(fixture.url);
    expect((await inline.callTool({ name: toolName(inline, 'maybe-task'), arguments: { delayMs: 20 } })).display).toBe(
      'ran inline (no task) after 3 steps',
    );
    const asTask = await connect(fixture.url, { tasks: { ...FAST, optionalTools: true } });
    expect((await asTask.callTool({ name: toolName(asTask, 'maybe-task'), arguments: { delayMs: 20 } })).display).toBe(
      'task done after 3 steps',
    );
  });
});

describe('tasks on 2026-07-28 only', () => {
  let fixture: EraHttpFixture;
  beforeAll(async () => {
    fixture = await startEraHttpFixture({ behaviour: 'tasks', era: 'modern' });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('answers input_required inside a task through ui.elicit and tasks/update', async () => {
    const asked: string[] = [];
    const host = await connect(fixture.url, {
      ui: {
        elicit: async (request) => {
          asked.push(`${request.serverName}: ${request.message}`);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    const updates = record(host);
    const result = await host.callTool({ name: toolName(host, 'ask-task'), arguments: { delayMs: 50 }, toolCallId: 'ask' });
    expect(result.error).toBeUndefined();
    expect(result.display).toBe('hello Ada');
    expect(asked).toEqual(['jobs: What name should the task greet?']);
    expect(updates.some((update) => update.task?.status === 'input_required')).toBe(true);
    expect((await stats(host))['updates']).toBe(1);
  });

  it('stops a task that asks for input again after every answer: 10 rounds, then the task is cancelled with an error naming it', async () => {
    let asked = 0;
    const host = await connect(fixture.url, {
      // A deadline far past the test's own timeout: only the round bound can end this call in time.
      // Polls 150 ms apart and a user who takes 100 ms to answer stay under the rate limit of
      // server requests (10 a second), which would otherwise end the call first.
      tasks: { minPollIntervalMs: 150, defaultPollIntervalMs: 150, maxPollIntervalMs: 150, timeoutMs: 600_000 },
      ui: {
        elicit: async () => {
          asked += 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    const updates = record(host);
    const before = await stats(host);
    const result = await host.callTool({
      name: toolName(host, 'ask-task'),
      arguments: { delayMs: 10, outcome: 'ask-forever' },
      toolCallId: 'pester',
    });
    const taskId = updates.find((update) => update.toolCallId === 'pester' && update.task)?.task?.taskId;
    expect(taskId).toEqual(expect.any(String));
    expect(result.error?.code).toBe('REQUEST_FAILED');
    expect(result.error?.message).toBe(
      `Tool "${toolName(host, 'ask-task')}" of MCP server "jobs" asked for input again after 10 rounds of answers during task ${taskId}; the host stopped answering and cancelled the task.`,
    );
    expect(asked).toBe(10);
    const after = await stats(host);
    expect(after['updates']).toBe((before['updates'] ?? 0) + 10);
    expect(after['cancelRequests']).toBe((before['cancelRequests'] ?? 0) + 1);
    expect(await host.tasks.list()).toEqual([]);
  });

  it('sends every request about a task with the Mcp-Name header set to the task id (routing, SEP-2663)', async () => {
    const host = await connect(fixture.url);
    const updates = record(host);
    await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 100 } });
    const taskId = updates.find((update) => update.task)?.task?.taskId;
    const polls = fixture.requests.filter((request) => request.rpcMethods.includes('tasks/get'));
    const mine = polls.filter((request) => (request.rpcParams?.[0] as { taskId?: string } | undefined)?.taskId === taskId);
    expect(mine.length).toBeGreaterThan(0);
    for (const request of mine) expect(request.headers['mcp-name']).toBe(taskId);
  });

  it('declares the Tasks extension only with the tasks option, so the server runs the tool inline otherwise', async () => {
    const host = await connect(fixture.url, { tasks: false });
    const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 20 } });
    expect(result.display).toBe('ran inline (no task) after 3 steps');
  });
});

describe('tasks option', () => {
  it('refuses nonsense poll settings', async () => {
    await expect(McpToolHost.create({ settings: { mcpServers: {} }, tasks: { minPollIntervalMs: 0 } })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
    });
    await expect(
      McpToolHost.create({ settings: { mcpServers: {} }, tasks: { minPollIntervalMs: 500, maxPollIntervalMs: 100 } }),
    ).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('keeps outstanding tasks in ~/<appDir>/mcp-tasks.json (mode 0600) by default when settings come from files', async () => {
    const fixture = await startHttpFixture({ behaviour: 'tasks' });
    try {
      const home = await tempDir();
      await mkdir(join(home, '.tasks-app'), { recursive: true });
      await writeFile(
        join(home, '.tasks-app', 'settings.json'),
        JSON.stringify({ mcpServers: { jobs: { httpUrl: fixture.url, trust: true } } }),
      );
      const options = { homeDir: home, appDir: '.tasks-app', systemSettingsPath: false, systemDefaultsPath: false, tasks: FAST } as const;
      const host = await McpToolHost.create(options);
      hosts.push(host);
      await host.discover();
      const updates = record(host);
      const pending = host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 3000 }, toolCallId: 'kept' });
      await waitFor('the task runs', () => updates.some((update) => update.task !== undefined));
      await host.close();
      await pending;
      const filePath = join(home, '.tasks-app', 'mcp-tasks.json');
      const saved = JSON.parse(await readFile(filePath, 'utf8')) as { version: number; tasks: Array<Record<string, unknown>> };
      expect(saved.version).toBe(1);
      expect(saved.tasks).toEqual([expect.objectContaining({ serverName: 'jobs', toolCallId: 'kept', protocolVersion: '2025-11-25' })]);
      if (process.platform !== 'win32') expect((await stat(filePath)).mode & 0o777).toBe(0o600);
      const again = await McpToolHost.create(options);
      hosts.push(again);
      expect((await again.tasks.list()).map((task) => task.toolCallId)).toEqual(['kept']);
    } finally {
      await fixture.close();
    }
  });
});

describe('a tampered or hostile task file (mcp-tasks.json)', () => {
  let fixture: EraHttpFixture;
  beforeAll(async () => {
    fixture = await startEraHttpFixture({ behaviour: 'tasks', era: 'modern' });
  });
  afterAll(async () => {
    await fixture.close();
  });

  /** A task entry as a host writes it. */
  const entry = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
    serverName: 'jobs',
    taskId: 'task-1',
    toolCallId: 'call-1',
    toolName: 'jobs__slow-task',
    serverToolName: 'slow-task',
    protocolVersion: '2026-07-28',
    createdAt: '2026-08-01T10:00:00.000Z',
    ...fields,
  });

  const HOSTILE_FILES: ReadonlyArray<readonly [string, () => string, string]> = [
    ['not JSON', () => '{"tasks": [', 'is not valid JSON'],
    ['a list at the root', () => JSON.stringify([entry()]), 'is not a task file (it should be { "version": 1, "tasks": [...] })'],
    ['tasks that is not a list', () => JSON.stringify({ version: 1, tasks: 'all of them' }), 'is not a task file'],
    ['another version', () => JSON.stringify({ version: 2, tasks: [] }), 'has version 2, not 1'],
    [
      'thousands of entries',
      () => JSON.stringify({ version: 1, tasks: Array.from({ length: 5000 }, () => entry()) }),
      'holds 5000 tasks, more than the 500',
    ],
    [
      'a task id with a line break',
      () => JSON.stringify({ version: 1, tasks: [entry(), entry({ taskId: 'evil\r\nInjected: yes' })] }),
      'has an entry that is not a task (tasks[1]: taskId is not a string of 1 to 256 visible ASCII characters)',
    ],
    [
      'a task id of 100,000 characters',
      () => JSON.stringify({ version: 1, tasks: [entry({ taskId: 'x'.repeat(100_000) })] }),
      'tasks[0]: taskId is not a string of 1 to 256 visible ASCII characters',
    ],
    [
      'a status message with terminal escapes',
      () => JSON.stringify({ version: 1, tasks: [entry({ statusMessage: '\u001b]0;owned\u0007' })] }),
      'tasks[0]: statusMessage is not an escaped status message',
    ],
    ['an entry that is not an object', () => JSON.stringify({ version: 1, tasks: [entry(), 42] }), 'tasks[1]: not an object'],
    [
      'a file of 17 MiB',
      () => JSON.stringify({ version: 1, tasks: [], padding: 'x'.repeat(17 * 1024 * 1024) }),
      'larger than the 16777216 bytes',
    ],
  ];

  it.each(HOSTILE_FILES)(
    'with %s: listing fails naming the file, calls still run, and the file is never overwritten',
    async (_label, content, problem) => {
      const dir = await tempDir();
      const filePath = join(dir, 'mcp-tasks.json');
      const text = content();
      await writeFile(filePath, text);
      const warnings: string[] = [];
      const host = await connect(fixture.url, { stores: { tasks: new FileTaskStore({ filePath }) } });
      host.on('warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
      const listing = host.tasks.list();
      await expect(listing).rejects.toMatchObject({ code: 'STORE_FAILED' });
      const message = ((await listing.catch((error: unknown) => error)) as Error).message;
      expect(message).toContain(`The MCP task file ${filePath} `);
      expect(message).toContain(problem);
      expect(message).toContain('The host leaves it as it is');
      // eslint-disable-next-line no-control-regex -- no control character from the file may reach a message
      expect(message).not.toMatch(/[\u0000-\u001f]/);
      expect(message.length).toBeLessThan(1000);
      // A call run as a task would store it: the call still succeeds, the write is refused and reported.
      const result = await host.callTool({ name: toolName(host, 'slow-task'), arguments: { delayMs: 50 } });
      expect(result.error).toBeUndefined();
      await waitFor('the refused write is reported', () => warnings.length > 0);
      expect(warnings[0]).toContain(`STORE_FAILED: The MCP task file ${filePath} `);
      expect(await readFile(filePath, 'utf8')).toBe(text);
    },
  );
});
