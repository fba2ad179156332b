// Push notifications: a webhook gets the updates of a task whose client went away; webhook URLs are guarded.
import type { Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { A2AClient } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireToolCall } from './development-tool.js';
import { InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkWebhookUrl,
  GuardedPushNotificationSender,
  MAX_QUEUED_NOTIFICATIONS,
  NOTIFICATION_TOKEN_HEADER,
} from './push-notifications.js';
import {
  authorisedFetch,
  collect,
  manyCallsModel,
  startAgent,
  startWebhook,
  TOKEN,
  toolCallOf,
  trace,
  until,
  userMessage,
  type TestAgent,
} from './test-support.js';

function toolCallsIn(task: Task): WireToolCall[] {
  return (task.history ?? []).flatMap((message) =>
    message.parts.flatMap((part) => (part.kind === 'data' && 'tool_call_id' in part.data ? [part.data as unknown as WireToolCall] : [])),
  );
}

describe('push notifications', () => {
  let agent: TestAgent;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;

  beforeAll(async () => {
    agent = await startAgent();
    webhook = await startWebhook();
  });

  afterAll(async () => {
    await agent?.close();
    await webhook?.close();
  });

  it('keep coming to the webhook after the client disconnected, until the task completed', async () => {
    const controller = new AbortController();
    const client = await A2AClient.fromCardUrl(new URL('/.well-known/agent-card.json', agent.url).href, {
      fetchImpl: authorisedFetch(TOKEN, controller.signal),
    });
    const stream = client.sendMessageStream({
      message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 600}' }]),
      configuration: { pushNotificationConfig: { url: webhook.url, token: 'hook-secret' } },
    });
    let taskId = '';
    for await (const event of stream) {
      if (event.kind === 'task') {
        taskId = event.id;
        break;
      }
    }
    // The client goes away while the tool runs.
    controller.abort();
    const done = await webhook.waitFor((task) => task.id === taskId && task.status.state === 'completed');
    const calls = toolCallsIn(done);
    // Progress arrives as more EXECUTING updates, each with the live content replaced.
    expect(calls.map((call) => call.status).filter((status, index, all) => status !== all[index - 1])).toEqual([
      'PENDING',
      'EXECUTING',
      'SUCCEEDED',
    ]);
    expect(calls.some((call) => call.status === 'EXECUTING' && /waited \d+ ms/.test(call.live_content ?? ''))).toBe(true);
    const texts = (done.history ?? []).flatMap((message) => message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])));
    expect(texts.join('\n')).toContain('done after 600 ms');
    const forTask = webhook.received.filter((entry) => entry.body.id === taskId);
    expect(forTask.length).toBeGreaterThanOrEqual(4);
    expect(forTask.every((entry) => entry.headers[NOTIFICATION_TOKEN_HEADER.toLowerCase()] === 'hook-secret')).toBe(true);
    // In order: the completed task is the last notification.
    expect(forTask.at(-1)?.body.status.state).toBe('completed');
  });

  it('tasks/pushNotificationConfig/set on a waiting task: the webhook follows the answer to the end', async () => {
    const events = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call echo {"message":"pushed"}' }]) }),
    );
    const task = events[0] as Task;
    const set = await agent.client.setTaskPushNotificationConfig({ taskId: task.id, pushNotificationConfig: { url: webhook.url } });
    expect('result' in set).toBe(true);
    const waiting = await agent.client.getTask({ id: task.id });
    expect('result' in waiting && waiting.result.status.state).toBe('input-required');
    const toolCallId = toolCallOf(events[2]!)!.tool_call_id;
    // Answer without reading the stream (fire and forget), as a client that leaves at once would.
    const answer = await agent.rpc('message/stream', {
      message: userMessage([{ kind: 'data', data: { tool_call_id: toolCallId, selected_option_id: 'proceed_once' } }], {
        taskId: task.id,
        contextId: task.contextId,
      }),
    });
    expect(answer.status).toBe(200);
    const done = await webhook.waitFor((pushed) => pushed.id === task.id && pushed.status.state === 'completed');
    expect(toolCallsIn(done).at(-1)).toMatchObject({ tool_call_id: toolCallId, status: 'SUCCEEDED', output: { text: 'pushed' } });
  });

  it('refuses webhook URLs that are not http(s), carry credentials, or point at private addresses', async () => {
    const events = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello' }]) }));
    const taskId = (events[0] as Task).id;
    const cases: Array<[string, RegExp]> = [
      ['ftp://127.0.0.1/hook', /scheme ftp: is not http or https/],
      ['http://user:pw@127.0.0.1/hook', /credentials/],
      ['http://169.254.169.254/latest/meta-data', /private, link-local or non-public address \(169\.254\.169\.254\)/],
      ['http://10.1.2.3/hook', /private/],
      ['not-a-url', /not an absolute URL/],
    ];
    for (const [url, pattern] of cases) {
      const answer = await agent.rpc('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url } });
      expect(answer.body.error?.code, url).toBe(-32602);
      expect(answer.body.error?.message, url).toMatch(pattern);
    }
    const list = await agent.rpc('tasks/pushNotificationConfig/list', { id: taskId });
    expect(list.body.result).toEqual([]);
    // In a first message, the same guard applies and nothing starts.
    const stream = await agent.rpc('message/stream', {
      message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 10}' }]),
      configuration: { pushNotificationConfig: { url: 'http://10.0.0.1/hook' } },
    });
    expect(stream.body.error?.code).toBe(-32602);
  });

  it('refuses loopback webhooks unless allowLoopback, both when set and when connecting', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9/hook', {})).toMatch(/loopback address \(127\.0\.0\.1\)/);
    expect(await checkWebhookUrl('http://localhost:9/hook', {})).toMatch(/loopback/);
    expect(await checkWebhookUrl('http://[::1]:9/hook', {})).toMatch(/loopback/);
    expect(await checkWebhookUrl('http://127.0.0.1:9/hook', { allowLoopback: true })).toBeUndefined();
    expect(await checkWebhookUrl('http://10.0.0.1/hook', { allowLoopback: true })).toMatch(/private/);
    expect(await checkWebhookUrl('http://10.0.0.1/hook', { allowPrivateNetwork: true })).toBeUndefined();

    // When connecting: a configuration that slipped through (a DNS answer that changed) is still refused.
    const store = new InMemoryPushNotificationStore();
    await store.save('task-1', { url: webhook.url.replace('127.0.0.1', 'localhost') });
    const errors: Error[] = [];
    const sender = new GuardedPushNotificationSender({ store, onError: (error) => errors.push(error) });
    const before = webhook.received.length;
    await sender.send({ kind: 'task', id: 'task-1', contextId: 'c', status: { state: 'working' } });
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/Push notification for task task-1 to .* failed: .*loopback/),
    ]);
    expect(webhook.received.length).toBe(before);
    const allowed = new GuardedPushNotificationSender({ store, allowLoopback: true });
    await allowed.send({ kind: 'task', id: 'task-1', contextId: 'c', status: { state: 'working' } });
    expect(webhook.received.length).toBe(before + 1);

    const strict = await startAgent({ pushNotifications: {} });
    try {
      const events = await collect(strict.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello' }]) }));
      const taskId = (events[0] as Task).id;
      const answer = await strict.rpc('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url: webhook.url } });
      expect(answer.body.error?.message).toMatch(/loopback address.*a local client needs the agent to allow loopback webhooks/);
    } finally {
      await strict.close();
    }
  });

  it('with pushNotifications: false the card says so and configurations are refused', async () => {
    const off = await startAgent({ pushNotifications: false });
    try {
      expect(off.server.agentCard.capabilities.pushNotifications).toBe(false);
      const answer = await off.rpc('message/stream', {
        message: userMessage([{ kind: 'text', text: 'hi' }]),
        configuration: { pushNotificationConfig: { url: webhook.url } },
      });
      expect(answer.body.error?.code).toBe(-32003);
    } finally {
      await off.close();
    }
  });
});

describe('a webhook slower than the updates', () => {
  it('gets the newest state, with the waiting notifications bounded, not one held request per update', async () => {
    // A hostile (or just stuck) webhook: it answers nothing until released.
    const received: Task[] = [];
    const held: ServerResponse[] = [];
    let released = false;
    const hook = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Task);
        if (released) response.writeHead(204).end();
        else held.push(response);
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const errors: Error[] = [];
    const agent = await startAgent({
      model: manyCallsModel(40),
      pushNotifications: { allowLoopback: true, timeoutMs: 60_000 },
      onError: (error) => errors.push(error),
    });
    try {
      const events = await collect(
        agent.client.sendMessageStream({
          message: userMessage([{ kind: 'text', text: 'run them all' }]),
          configuration: { pushNotificationConfig: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` } },
        }),
      );
      expect(trace(events).at(-1)).toBe('STATE_CHANGE:completed:final');
      // Far more updates than may wait; all of them happened while the first notification was held.
      expect(events.length).toBeGreaterThan(100);
      await until(() => received.length === 1);
      released = true;
      for (const response of held.splice(0)) response.writeHead(204).end();
      await until(() => received.at(-1)?.status.state === 'completed');
      // The held one, then at most MAX_QUEUED_NOTIFICATIONS (32) waiting ones.
      expect(received.length).toBeLessThanOrEqual(1 + 32);
      expect(MAX_QUEUED_NOTIFICATIONS).toBe(32);
      expect(errors.map((error) => error.message)).toContainEqual(
        expect.stringMatching(/the webhook is slower than the task's updates; older updates are skipped/),
      );
    } finally {
      await agent.close();
      await new Promise<void>((resolve) => {
        hook.close(() => resolve());
        hook.closeAllConnections();
      });
    }
  });
});

describe('a status update', () => {
  it('has the RFC event metadata under the extension URI', async () => {
    const agent = await startAgent();
    try {
      const events = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello' }]) }));
      const updates = events.filter((event): event is TaskStatusUpdateEvent => event.kind === 'status-update');
      for (const update of updates) {
        const metadata = update.metadata as Record<string, { kind: string; model: string }>;
        expect(metadata['https://github.com/google-gemini/gemini-cli/blob/main/docs/a2a/developer-profile/v0/spec.md']).toEqual({
          kind: metadata['kind'],
          model: 'scripted',
        });
      }
    } finally {
      await agent.close();
    }
  });
});
