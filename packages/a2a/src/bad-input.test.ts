// Bad input gets a JSON-RPC error and changes nothing; without the bearer token nothing runs.
import type { Task } from '@a2a-js/sdk';
import { A2AClient } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorisedFetch,
  collect,
  startAgent,
  toolCallOf,
  trace,
  until,
  userMessage,
  type RpcAnswer,
  type TestAgent,
} from './test-support.js';

describe('bad input', () => {
  let agent: TestAgent;
  /** A task waiting for the confirmation of `toolCallId`. */
  let waiting: { taskId: string; contextId: string; toolCallId: string };

  async function snapshot(): Promise<unknown> {
    const got = await agent.client.getTask({ id: waiting.taskId, historyLength: 1000 });
    if (!('result' in got)) throw new Error('task vanished');
    return {
      state: got.result.status.state,
      history: got.result.history?.length,
      pending: agent.host.confirmations.pending().map((r) => r.toolCallId),
    };
  }

  async function send(message: unknown, method = 'message/stream'): Promise<RpcAnswer> {
    return (await agent.rpc(method, { message })).body;
  }

  beforeAll(async () => {
    agent = await startAgent({ limits: { maxRequestBytes: 20_000 } });
    const events = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call echo {"message":"guarded"}' }]) }),
    );
    const task = events[0] as Task;
    waiting = { taskId: task.id, contextId: task.contextId, toolCallId: toolCallOf(events[2]!)!.tool_call_id };
  });

  afterAll(async () => {
    await agent?.close();
  });

  const confirmation = (toolCallId: string, optionId = 'proceed_once') => ({
    kind: 'data' as const,
    data: { tool_call_id: toolCallId, selected_option_id: optionId },
  });

  it('refuses each bad message with a JSON-RPC error, leaving the waiting task exactly as it was', async () => {
    const before = await snapshot();
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['unknown task', userMessage([confirmation('x')], { taskId: 'no-such-task' }), -32001, /Task no-such-task not found/],
      [
        'confirmation for a call that is not waiting',
        userMessage([confirmation('call-unknown')], waiting),
        -32602,
        /tool call "call-unknown" of task .* is not waiting for a confirmation/i,
      ],
      [
        'option that was not offered',
        userMessage([confirmation(waiting.toolCallId, 'yes')], waiting),
        -32602,
        /"yes" is not one of the options offered/,
      ],
      [
        'text to a task that waits for a confirmation',
        userMessage([{ kind: 'text', text: 'hello?' }], waiting),
        -32602,
        /waits for the user's decision on tool call/,
      ],
      [
        'confirmation and text together',
        userMessage([confirmation(waiting.toolCallId), { kind: 'text', text: 'ok' }], waiting),
        -32602,
        /no text/,
      ],
      [
        'the same call answered twice in one message',
        userMessage([confirmation(waiting.toolCallId), confirmation(waiting.toolCallId)], waiting),
        -32602,
        /a second time/,
      ],
      [
        'a DataPart that is not a confirmation',
        userMessage([{ kind: 'data', data: { hello: 'world' } }], waiting),
        -32602,
        /not a ToolCallConfirmation/,
      ],
      [
        'a part of unknown kind',
        userMessage([{ kind: 'video', url: 'x' } as never], waiting),
        -32602,
        /kind must be "text", "data" or "file"/,
      ],
      ['a text part without text', userMessage([{ kind: 'text' } as never]), -32602, /parts\[0\]\.text must be a string/],
      ['no parts', userMessage([]), -32602, /parts must be a non-empty array/],
      ['a FilePart', userMessage([{ kind: 'file', file: { bytes: 'AAAA', mimeType: 'image/png' } }]), -32005, /FilePart/],
      ['an agent message', { ...userMessage([{ kind: 'text', text: 'hi' }]), role: 'agent' }, -32602, /role must be "user"/],
      ['no messageId', { kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, -32602, /messageId is required/],
      ['a confirmation without a task', userMessage([confirmation(waiting.toolCallId)]), -32602, /needs the taskId/],
      [
        'another task in a busy context',
        userMessage([{ kind: 'text', text: 'hi' }], { contextId: waiting.contextId }),
        -32600,
        /has task .* running or waiting/,
      ],
      [
        'a workspace that does not exist',
        userMessage([{ kind: 'text', text: 'hi' }], {
          metadata: {
            'https://github.com/google-gemini/gemini-cli/blob/main/docs/a2a/developer-profile/v0/spec.md': {
              workspace_path: '/no/such/folder',
            },
          },
        }),
        -32602,
        /workspace_path "\/no\/such\/folder" is not an existing folder/,
      ],
    ];
    for (const [name, message, code, pattern] of cases) {
      const answer = await send(message);
      expect(answer.error, name).toBeDefined();
      expect(answer.error?.code, name).toBe(code);
      expect(answer.error?.message, name).toMatch(pattern);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an oversized request (HTTP 413), a body that is not JSON, and a request that is not JSON-RPC', async () => {
    const before = await snapshot();
    const big = await agent.rpc('message/stream', { message: userMessage([{ kind: 'text', text: 'x'.repeat(30_000) }]) });
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: -32600, message: expect.stringContaining('limit of 20000 bytes') });
    const notJson = await agent.rpc('', undefined, { body: '{"jsonrpc": "2.0", "method": ' });
    expect(notJson.body.error?.code).toBe(-32700);
    const notRpc = await agent.rpc('', undefined, { body: '[1, 2]' });
    expect(notRpc.body.error?.code).toBe(-32600);
    const unknownMethod = await agent.rpc('tasks/explode', { id: 'x' });
    expect(unknownMethod.body.error?.code).toBe(-32601);
    expect(await snapshot()).toEqual(before);
  });

  it('the SDK client sees these errors as errors of the stream', async () => {
    await expect(collect(agent.client.sendMessageStream({ message: userMessage([confirmation('call-nope')], waiting) }))).rejects.toThrow(
      /is not waiting for a confirmation.*Code: -32602/,
    );
  });

  it('accepts the real answer once, refuses a second one, and refuses a message to the finished task', async () => {
    const answered = await collect(agent.client.sendMessageStream({ message: userMessage([confirmation(waiting.toolCallId)], waiting) }));
    expect(trace(answered).at(-1)).toBe('STATE_CHANGE:completed:final');
    const second = await send(userMessage([confirmation(waiting.toolCallId)], waiting));
    expect(second.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/is completed: a finished task takes no more messages/),
    });
    const got = await agent.client.getTask({ id: waiting.taskId });
    expect('result' in got && got.result.status.state).toBe('completed');
  });

  it('two answers racing for the same call: exactly one is taken', async () => {
    const events = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call echo {"message":"race"}' }]) }),
    );
    const task = events[0] as Task;
    const toolCallId = toolCallOf(events[2]!)!.tool_call_id;
    const message = () => userMessage([confirmation(toolCallId)], { taskId: task.id, contextId: task.contextId });
    const [a, b] = await Promise.all([send(message()), send(message())]);
    const errors = [a, b].filter((answer) => answer.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error?.message).toMatch(/not waiting for a confirmation|still working|is completed/);
    await until(async () => {
      const got = await agent.client.getTask({ id: task.id });
      return 'result' in got && got.result.status.state === 'completed';
    });
    expect(agent.updates.filter((update) => update.toolCallId === toolCallId && update.status === 'SUCCEEDED')).toHaveLength(1);
  });
});

describe('bearer-token authentication', () => {
  let agent: TestAgent;

  beforeAll(async () => {
    agent = await startAgent();
  });

  afterAll(async () => {
    await agent?.close();
  });

  it('answers 401 without the token (or with a wrong one) and runs nothing', async () => {
    const before = agent.updates.length;
    for (const token of [null, 'wrong-token-000000']) {
      const answer = await agent.rpc(
        'message/stream',
        { message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 10}' }]) },
        { token },
      );
      expect(answer.status).toBe(401);
      expect(answer.body.error?.message).toMatch(/Unauthorized/);
      expect((await agent.rpc('commands/get', {}, { token })).status).toBe(401);
      expect((await agent.rpc('command/execute', { command_path: ['mcp'] }, { token })).status).toBe(401);
    }
    const response = await fetch(agent.url, { method: 'POST', body: '{}' });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(agent.updates.length).toBe(before);
    // The card itself is public, and the SDK client without the token fails.
    expect((await fetch(new URL('/.well-known/agent-card.json', agent.url))).status).toBe(200);
    const anonymous = await A2AClient.fromCardUrl(new URL('/.well-known/agent-card.json', agent.url).href, { fetchImpl: fetch });
    await expect(collect(anonymous.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hi' }]) }))).rejects.toThrow(/401/);
    const withToken = await A2AClient.fromCardUrl(new URL('/.well-known/agent-card.json', agent.url).href, {
      fetchImpl: authorisedFetch('test-token-0123456789'),
    });
    expect(trace(await collect(withToken.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hi' }]) }))).at(-1)).toBe(
      'STATE_CHANGE:completed:final',
    );
  });
});
