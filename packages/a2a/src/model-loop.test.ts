// The agent loop with models other than the plain scripted one: thoughts, a failing model, a model that never stops, message/send.
import type { Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel, type AgentModel } from './agent-model.js';
import { DEVELOPMENT_TOOL_EXTENSION_URI } from './development-tool.js';
import { collect, startAgent, textOf, trace, userMessage, type TestAgent } from './test-support.js';

type Model = AgentModel<unknown, unknown, unknown, unknown>;
const scripted = createScriptedModel() as unknown as Model;

let agent: TestAgent | undefined;

afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

describe('the agent loop', () => {
  it('sends the model thoughts as THOUGHT DataParts before its text', async () => {
    const model: Model = {
      ...scripted,
      generate: async (request) => ({
        ...(await scripted.generate(request)),
        thoughts: [{ subject: 'Reading', description: 'The user greets me.' }],
      }),
    };
    agent = await startAgent({ model });
    const events = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello' }]) }));
    expect(trace(events)).toEqual(['task:submitted', 'STATE_CHANGE:working', 'THOUGHT', 'TEXT_CONTENT', 'STATE_CHANGE:completed:final']);
    const thought = (events[2] as TaskStatusUpdateEvent).status.message?.parts[0];
    expect(thought).toEqual({ kind: 'data', data: { subject: 'Reading', description: 'The user greets me.' } });
  });

  it('ends the task failed, saying why, when the model request fails; the context stays usable', async () => {
    let fail = true;
    const model: Model = {
      ...scripted,
      name: 'Flaky model',
      generate: async (request) => {
        if (fail) throw new Error('quota exceeded');
        return scripted.generate(request);
      },
    };
    agent = await startAgent({ model });
    const events = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello' }]) }));
    expect(trace(events)).toEqual(['task:submitted', 'STATE_CHANGE:working', 'STATE_CHANGE:failed:final']);
    const last = events.at(-1) as TaskStatusUpdateEvent;
    expect(textOf(last)).toBe('Flaky model request failed: quota exceeded');
    expect(last.metadata?.[DEVELOPMENT_TOOL_EXTENSION_URI]).toMatchObject({
      kind: 'STATE_CHANGE',
      error: 'Flaky model request failed: quota exceeded',
    });
    fail = false;
    const again = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello again' }], { contextId: last.contextId }) }),
    );
    expect(trace(again).at(-1)).toBe('STATE_CHANGE:completed:final');
  });

  it('stops a model that keeps calling tools after limits.maxToolRounds rounds', async () => {
    const model: Model = {
      ...scripted,
      generate: async (request) => {
        const reply = await scripted.generate({ ...request, history: [{ role: 'user', text: 'call slow {"delayMs": 0}' }] });
        return reply;
      },
    };
    agent = await startAgent({ model, limits: { maxToolRounds: 2 } });
    const events = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'go' }]) }));
    const succeeded = trace(events).filter((entry) => entry === 'TOOL_CALL_UPDATE:SUCCEEDED');
    expect(succeeded).toHaveLength(2);
    expect(textOf(events.at(-2)!)).toBe('(stopped after 2 rounds of tool calls)');
    expect(trace(events).at(-1)).toBe('STATE_CHANGE:completed:final');
  });

  it('message/send answers with the task once it is final (completed, or input-required)', async () => {
    agent = await startAgent();
    const done = await agent.client.sendMessage({ message: userMessage([{ kind: 'text', text: 'hello' }]) });
    expect('result' in done && (done.result as Task).status.state).toBe('completed');
    const waiting = await agent.client.sendMessage({ message: userMessage([{ kind: 'text', text: 'call echo {"message":"sent"}' }]) });
    const task = 'result' in waiting ? (waiting.result as Task) : undefined;
    expect(task?.status.state).toBe('input-required');
    const toolCall = task?.status.message?.parts[0];
    const toolCallId = toolCall?.kind === 'data' ? String(toolCall.data['tool_call_id']) : '';
    const answered = await agent.client.sendMessage({
      message: userMessage([{ kind: 'data', data: { tool_call_id: toolCallId, selected_option_id: 'proceed_once' } }], {
        taskId: task!.id,
        contextId: task!.contextId,
      }),
    });
    expect('result' in answered && (answered.result as Task).status.state).toBe('completed');
  });

  it('close() ends an open stream with a final canceled, and cancels the running tool call', async () => {
    agent = await startAgent();
    const events: string[] = [];
    let closing: Promise<void> | undefined;
    const reading = (async () => {
      for await (const event of agent!.client.sendMessageStream({
        message: userMessage([{ kind: 'text', text: 'call slow {"delayMs": 20000}' }]),
      })) {
        events.push(...trace([event]));
        if (events.includes('TOOL_CALL_UPDATE:EXECUTING') && !closing) closing = agent!.server.close();
      }
    })();
    await reading;
    await closing;
    expect(events.at(-1)).toBe('STATE_CHANGE:canceled:final');
    expect(
      agent.updates
        .filter((update) => update.toolName === 'slow')
        .map((update) => update.status)
        .at(-1),
    ).toBe('CANCELLED');
  });
});
