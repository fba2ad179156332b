// commands/get, command/execute, tasks/get, tasks/cancel and tasks/resubscribe through the SDK client.
import type { Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteSlashCommandResponse, WireSlashCommand } from './development-tool.js';
import { collect, startAgent, textOf, toolCallOf, trace, until, userMessage, type StreamEvent, type TestAgent } from './test-support.js';

describe('slash commands and tasks', () => {
  let agent: TestAgent;

  beforeAll(async () => {
    agent = await startAgent();
  });

  afterAll(async () => {
    await agent?.close();
  });

  it('commands/get lists /mcp and its views, then the MCP prompts, in the RFC shape', async () => {
    const answer = (await agent.client.callExtensionMethod('commands/get', {})) as unknown as { result: { commands: WireSlashCommand[] } };
    const commands = answer.result.commands;
    expect(commands[0]).toMatchObject({ name: 'mcp', arguments: [{ name: 'server', is_required: false }] });
    expect(commands[0]?.sub_commands.map((command) => command.name)).toEqual(expect.arrayContaining(['list', 'desc', 'schema', 'auth']));
    const poem = commands.find((command) => command.name === 'poem-writer');
    expect(poem).toMatchObject({
      sub_commands: [],
      arguments: expect.arrayContaining([{ name: 'title', description: expect.any(String), is_required: true }]),
    });
  });

  it('command/execute starts /mcp as a task whose output is read with tasks/resubscribe and tasks/get', async () => {
    const answer = (await agent.client.callExtensionMethod('command/execute', { command_path: ['mcp', 'desc'], args: '' })) as unknown as {
      result: ExecuteSlashCommandResponse;
    };
    expect(answer.result.status).toBe('STARTED');
    const taskId = answer.result.execution_id;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const events = await collect(agent.client.resubscribeTask({ id: taskId }));
    // The stream starts with the task as it is now; the command may already be done.
    expect(events[0]?.kind).toBe('task');
    await until(async () => {
      const got = await agent.client.getTask({ id: taskId, historyLength: 50 });
      return 'result' in got && got.result.status.state === 'completed';
    });
    const got = await agent.client.getTask({ id: taskId, historyLength: 50 });
    const task = 'result' in got ? got.result : undefined;
    const texts = (task?.history ?? []).flatMap((message) => message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])));
    expect(texts.join('\n')).toMatch(/basic[\s\S]*echo[\s\S]*Echoes back the message/);
  });

  it('command/execute answers FAILED_TO_START for an unknown command, and a JSON-RPC error for malformed params', async () => {
    const unknown = (await agent.client.callExtensionMethod('command/execute', { command_path: ['nope'], args: '' })) as unknown as {
      result: ExecuteSlashCommandResponse;
    };
    expect(unknown.result).toMatchObject({ status: 'FAILED_TO_START', message: expect.stringContaining('There is no /nope command') });
    const malformed = await agent.rpc('command/execute', { command_path: 'mcp' });
    expect(malformed.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('command_path must be') });
  });

  it('a prompt sent as a slash command in message/stream goes to the model with its text', async () => {
    const events = await collect(
      agent.client.sendMessageStream({
        message: userMessage([{ kind: 'text', text: '/poem-writer --title="Gemini CLI" --mood=reverent' }]),
      }),
    );
    expect(trace(events)).toEqual(['task:submitted', 'STATE_CHANGE:working', 'TEXT_CONTENT', 'STATE_CHANGE:completed:final']);
    expect(textOf(events[2]!)).toContain('scripted model');
  });

  it('tasks/resubscribe follows a running task from a second connection; tasks/cancel stops it and both streams end canceled', async () => {
    const stream = agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 20000}' }]) });
    const first: StreamEvent[] = [];
    let taskId = '';
    for await (const event of stream) {
      first.push(event);
      if (event.kind === 'task') taskId = event.id;
      if (toolCallOf(event)?.status === 'EXECUTING') break;
    }
    expect(trace(first)).toEqual(['task:submitted', 'STATE_CHANGE:working', 'TOOL_CALL_UPDATE:PENDING', 'TOOL_CALL_UPDATE:EXECUTING']);
    const resubscribed = collect(agent.client.resubscribeTask({ id: taskId }));
    const working = await agent.client.getTask({ id: taskId });
    expect('result' in working && working.result.status.state).toBe('working');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cancelled = await agent.client.cancelTask({ id: taskId });
    expect('result' in cancelled && cancelled.result.status.state).toBe('canceled');
    const followed = await resubscribed;
    expect(followed[0]?.kind).toBe('task');
    expect(trace(followed).at(-1)).toBe('STATE_CHANGE:canceled:final');
    const got = await agent.client.getTask({ id: taskId });
    expect('result' in got && got.result.status.state).toBe('canceled');
    // The MCP call was cancelled on the server too.
    await until(() => agent.updates.some((update) => update.toolName === 'slow' && update.status === 'CANCELLED'));
  });

  it('tasks/cancel of a task waiting for a confirmation cancels the waiting tool call', async () => {
    const events = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call echo {"message":"wait"}' }]) }),
    );
    const task = events[0] as Task;
    const pending = toolCallOf(events[2]!)!;
    expect(agent.host.confirmations.pending().map((request) => request.toolCallId)).toContain(pending.tool_call_id);
    const cancelled = await agent.client.cancelTask({ id: task.id });
    expect('result' in cancelled && cancelled.result.status.state).toBe('canceled');
    await until(() => !agent.host.confirmations.pending().some((request) => request.toolCallId === pending.tool_call_id));
    expect(agent.updates.filter((update) => update.toolCallId === pending.tool_call_id).map((update) => update.status)).toEqual([
      'PENDING',
      'CANCELLED',
    ]);
    // A finished task takes no more messages, and a cancel of it is refused.
    const again = await agent.client.cancelTask({ id: task.id });
    expect('error' in again && again.error.code).toBe(-32002);
  });

  it('tasks/get and tasks/cancel of an unknown task answer TaskNotFound', async () => {
    const got = await agent.client.getTask({ id: 'no-such-task' });
    expect('error' in got && got.error.code).toBe(-32001);
    const cancelled = await agent.client.cancelTask({ id: 'no-such-task' });
    expect('error' in cancelled && cancelled.error.code).toBe(-32001);
  });

  it('the input-required event is the last of its stream and carries the waiting call', async () => {
    const events = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call add {"a":1,"b":2}' }]) }),
    );
    const last = events.at(-1) as TaskStatusUpdateEvent;
    expect(last.final).toBe(true);
    expect(last.status.state).toBe('input-required');
    expect(toolCallOf(last)).toMatchObject({ tool_name: 'add', status: 'PENDING', input_parameters: { a: 1, b: 2 } });
    await agent.client.cancelTask({ id: last.taskId });
  });
});
