// Clients that flood the agent with tasks, or leave while a confirmation waits, cannot grow its memory without bound.
import type { Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel, type AgentModel } from './agent-model.js';
import type { WireToolCall } from './development-tool.js';
import {
  collect,
  manyCallsModel,
  startAgent,
  startWebhook,
  toolCallOf,
  trace,
  until,
  userMessage,
  type RpcAnswer,
  type TestAgent,
} from './test-support.js';

type Model = AgentModel<unknown, unknown, unknown, unknown>;

/** The default of limits.maxFinishedTasks. */
const DEFAULT_MAX_FINISHED_TASKS = 200;

let agent: TestAgent | undefined;
let webhook: Awaited<ReturnType<typeof startWebhook>> | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await webhook?.close();
  webhook = undefined;
});

/** The scripted model, recording how long the history of each request is (how much of the conversation is kept). */
function recordingModel(): { model: Model; historyLengths: number[] } {
  const scripted = createScriptedModel() as unknown as Model;
  const historyLengths: number[] = [];
  return {
    historyLengths,
    model: {
      ...scripted,
      generate: async (request) => {
        historyLengths.push(request.history.length);
        return scripted.generate(request);
      },
    },
  };
}

/** `message/send` of a text; resolves to the task, or the JSON-RPC error. */
async function send(target: TestAgent, text: string, extra: { readonly contextId?: string } = {}): Promise<RpcAnswer> {
  return (await target.rpc('message/send', { message: userMessage([{ kind: 'text', text }], extra) })).body;
}

async function getTask(target: TestAgent, id: string): Promise<RpcAnswer> {
  return (await target.rpc('tasks/get', { id, historyLength: 10 })).body;
}

/** Start a task whose tool call waits for a confirmation, as a client that then leaves would. */
async function leaveWaiting(target: TestAgent, index: number): Promise<{ task: Task; toolCallId: string }> {
  const events = await collect(
    target.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: `call echo {"message":"left ${index}"}` }]) }),
  );
  expect(trace(events).at(-1)).toBe('STATE_CHANGE:input-required:final');
  return { task: events[0] as Task, toolCallId: toolCallOf(events[2]!)!.tool_call_id };
}

describe('finished tasks', () => {
  it(`400 finished tasks: only the last ${DEFAULT_MAX_FINISHED_TASKS} stay (the default cap), and the oldest conversations are forgotten too`, async () => {
    const recording = recordingModel();
    agent = await startAgent({ model: recording.model });
    const tasks: Task[] = [];
    for (let index = 0; index < 400; index++) {
      const answer = await send(agent, `hello ${index}`);
      const task = answer.result as Task;
      expect(task.status.state).toBe('completed');
      tasks.push(task);
    }
    const found: boolean[] = [];
    for (const task of tasks) {
      const got = await getTask(agent, task.id);
      if (got.error) expect(got.error.code).toBe(-32001);
      found.push(got.result !== undefined);
    }
    // Exactly the newest ones are kept.
    expect(found.filter(Boolean)).toHaveLength(DEFAULT_MAX_FINISHED_TASKS);
    expect(found.slice(-DEFAULT_MAX_FINISHED_TASKS).every(Boolean)).toBe(true);

    // The newest conversation goes on with its history; the oldest starts afresh.
    recording.historyLengths.length = 0;
    await send(agent, 'and again', { contextId: tasks.at(-1)!.contextId });
    await send(agent, 'and again', { contextId: tasks[0]!.contextId });
    expect(recording.historyLengths).toEqual([3, 1]);
  });

  it('a finished task is forgotten after limits.finishedTaskTtlMs; a task waiting for a confirmation is not', async () => {
    agent = await startAgent({ limits: { finishedTaskTtlMs: 300 } });
    const finished = (await send(agent, 'hello')).result as Task;
    const waiting = await leaveWaiting(agent, 0);
    await until(async () => (await getTask(agent!, finished.id)).error?.code === -32001);
    const still = (await getTask(agent, waiting.task.id)).result as Task;
    expect(still.status.state).toBe('input-required');
    expect(agent.host.confirmations.pending().map((request) => request.toolCallId)).toEqual([waiting.toolCallId]);
  });
});

describe("a task's history", () => {
  it('keeps the request and the newest messages, limits.maxTaskHistory in all', async () => {
    agent = await startAgent({ model: manyCallsModel(40), limits: { maxTaskHistory: 50 } });
    const events = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'run them all' }]) }));
    expect(trace(events).at(-1)).toBe('STATE_CHANGE:completed:final');
    // 40 calls, each PENDING, EXECUTING and SUCCEEDED: far more messages than the limit.
    const messages = events.filter((event) => event.kind === 'status-update' && event.status.message !== undefined);
    expect(messages.length).toBeGreaterThan(100);
    const task = (await agent.rpc('tasks/get', { id: (events[0] as Task).id, historyLength: 1000 })).body.result as Task;
    expect(task.history).toHaveLength(50);
    expect(task.history![0]).toMatchObject({ role: 'user', parts: [{ kind: 'text', text: 'run them all' }] });
    const last = messages.at(-1)!;
    expect(task.history!.at(-1)?.messageId).toBe(last.kind === 'status-update' ? last.status.message?.messageId : undefined);
  });
});

describe('confirmations nobody answers', () => {
  it('150 clients that left while a confirmation waited: each expires, the host forgets it, and the task says why', async () => {
    webhook = await startWebhook();
    const recording = recordingModel();
    agent = await startAgent({ model: recording.model, limits: { confirmationTimeoutMs: 2000, maxLiveTasks: 200 } });
    const pushed = await collect(
      agent.client.sendMessageStream({
        message: userMessage([{ kind: 'text', text: 'call echo {"message":"pushed"}' }]),
        configuration: { pushNotificationConfig: { url: webhook.url } },
      }),
    );
    const left = [{ task: pushed[0] as Task, toolCallId: toolCallOf(pushed[2]!)!.tool_call_id }];
    for (let index = 1; index < 150; index++) left.push(await leaveWaiting(agent, index));
    const ids = new Set(left.map((entry) => entry.toolCallId));

    await until(() => !agent!.host.confirmations.pending().some((request) => ids.has(request.toolCallId)), 60_000);
    for (const { task, toolCallId } of left) {
      const got = (await getTask(agent, task.id)).result as Task;
      expect(got.status.state).toBe('canceled');
      const message = got.status.message!;
      expect(message.parts[0]).toMatchObject({
        kind: 'text',
        text: expect.stringMatching(
          new RegExp(
            `^Nobody answered the confirmation of tool call ${toolCallId} \\(echo\\) within 2 seconds \\(limits\\.confirmationTimeoutMs\\)`,
          ),
        ),
      });
      const call = message.parts.find((part) => part.kind === 'data')?.data as unknown as WireToolCall;
      expect(call).toMatchObject({ tool_call_id: toolCallId, status: 'CANCELLED', error: { type: 'CANCELLED' } });
      expect(call.confirmation_request).toBeUndefined();
    }
    // The MCP server was never called: the calls went from PENDING to CANCELLED.
    const statuses = agent.updates.filter((update) => ids.has(update.toolCallId)).map((update) => update.status);
    expect(new Set(statuses)).toEqual(new Set(['PENDING', 'CANCELLED']));
    // The webhook was told, and an answer that comes too late is refused.
    const notified = await webhook.waitFor((task) => task.id === left[0]!.task.id && task.status.state === 'canceled');
    expect(notified.status.message?.parts[0]).toMatchObject({ kind: 'text', text: expect.stringMatching(/^Nobody answered/) });
    const late = await agent.rpc('message/send', {
      message: userMessage([{ kind: 'data', data: { tool_call_id: left[0]!.toolCallId, selected_option_id: 'proceed_once' } }], {
        taskId: left[0]!.task.id,
        contextId: left[0]!.task.contextId,
      }),
    });
    expect(late.body.error?.message).toMatch(/is canceled: a finished task takes no more messages/);
    // The expired turn left the conversation: the next message starts from a clean history.
    recording.historyLengths.length = 0;
    await send(agent, 'still there?', { contextId: left[1]!.task.contextId });
    expect(recording.historyLengths).toEqual([1]);
  });

  it('at most limits.maxLiveTasks tasks run or wait at once: one more is refused, naming the limit, until one ends', async () => {
    agent = await startAgent({ limits: { maxLiveTasks: 3 } });
    const waiting = [await leaveWaiting(agent, 0), await leaveWaiting(agent, 1), await leaveWaiting(agent, 2)];
    const refusals = [
      await agent.rpc('message/stream', { message: userMessage([{ kind: 'text', text: 'call echo {"message":"4"}' }]) }),
      await agent.rpc('message/send', { message: userMessage([{ kind: 'text', text: 'hello' }]) }),
      await agent.rpc('command/execute', { command_path: ['mcp'], args: '' }),
    ];
    for (const refusal of refusals) {
      expect(refusal.body.error?.code).toBe(-32600);
      expect(refusal.body.error?.message).toMatch(/already has 3 tasks running or waiting for a confirmation.*limits\.maxLiveTasks = 3/);
    }
    expect(agent.host.confirmations.pending()).toHaveLength(3);
    // An answer to a waiting task is not a new task: it is accepted.
    const answered = await agent.rpc('message/send', {
      message: userMessage([{ kind: 'data', data: { tool_call_id: waiting[0]!.toolCallId, selected_option_id: 'cancel' } }], {
        taskId: waiting[0]!.task.id,
        contextId: waiting[0]!.task.contextId,
      }),
    });
    expect((answered.body.result as Task).status.state).toBe('completed');
    await agent.client.cancelTask({ id: waiting[1]!.task.id });
    expect(((await send(agent, 'hello')).result as Task).status.state).toBe('completed');
  });
});

describe('push notification configurations', () => {
  it('one task takes at most 16; replacing one is fine', async () => {
    agent = await startAgent();
    const { task } = await leaveWaiting(agent, 0);
    webhook = await startWebhook();
    const set = (id: string) =>
      agent!.rpc('tasks/pushNotificationConfig/set', { taskId: task.id, pushNotificationConfig: { id, url: `${webhook!.url}?${id}` } });
    for (let index = 0; index < 16; index++) expect((await set(`config-${index}`)).body.error, `config-${index}`).toBeUndefined();
    const refused = await set('config-16');
    expect(refused.body.error?.message).toMatch(/has 16 push notification configurations, the most one task may have/);
    expect((await set('config-3')).body.error).toBeUndefined();
    const list = await agent.rpc('tasks/pushNotificationConfig/list', { id: task.id });
    expect(list.body.result).toHaveLength(16);
  });
});
