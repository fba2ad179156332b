// The @a2a-js/sdk client drives the server end to end on loopback, against real MCP fixture servers, with the scripted model.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentCard, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_TOOL_EXTENSION_URI } from './development-tool.js';
import {
  agentSettings,
  collect,
  kindOf,
  startAgent,
  textOf,
  toolCallOf,
  trace,
  userMessage,
  type StreamEvent,
  type TestAgent,
} from './test-support.js';

const PNG_SIGNATURE = '89504e470d0a1a0a';

function lastTaskId(events: readonly StreamEvent[]): { taskId: string; contextId: string } {
  const task = events.find((event): event is Task => event.kind === 'task');
  if (!task) throw new Error('no task event');
  return { taskId: task.id, contextId: task.contextId };
}

describe('@toolhost/a2a server, driven by the @a2a-js/sdk client', () => {
  let agent: TestAgent;
  let workspace: string;

  beforeAll(async () => {
    agent = await startAgent();
    workspace = await mkdtemp(join(tmpdir(), 'a2a-workspace-'));
  });

  afterAll(async () => {
    await agent?.close();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it('serves the agent card: streaming, the development-tool extension with its versioned URI, the bearer scheme', async () => {
    const response = await fetch(new URL('/.well-known/agent-card.json', agent.url));
    expect(response.status).toBe(200);
    const card = (await response.json()) as AgentCard;
    expect(card.url).toBe(agent.url);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(card.capabilities.extensions).toEqual([expect.objectContaining({ uri: DEVELOPMENT_TOOL_EXTENSION_URI, required: true })]);
    // The version is embedded in the URI (v0), for semver compatibility checks.
    expect(/\/v(\d+)\//.exec(card.capabilities.extensions?.[0]?.uri ?? '')?.[1]).toBe('0');
    expect(card.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(card.security).toEqual([{ bearer: [] }]);
  });

  it('asks before a tool runs: input-required ends the stream, the answer runs it, images come back as FileParts, the task completes', async () => {
    const first = await collect(
      agent.client.sendMessageStream({
        message: userMessage([{ kind: 'text', text: 'call mixed-content {}' }], { metadata: agentSettings(workspace) }),
      }),
    );
    expect(trace(first)).toEqual([
      'task:submitted',
      'STATE_CHANGE:working',
      'TOOL_CALL_CONFIRMATION:PENDING',
      'STATE_CHANGE:input-required:final',
    ]);
    const pending = toolCallOf(first[2]!)!;
    expect(pending).toMatchObject({
      status: 'PENDING',
      tool_name: 'mixed-content',
      input_parameters: {},
      confirmation_request: {
        options: expect.arrayContaining([expect.objectContaining({ id: 'proceed_once' }), expect.objectContaining({ id: 'cancel' })]),
        mcp_details: { server_name: 'basic', tool_name: 'mixed-content' },
      },
    });
    // The input-required event carries the waiting ToolCall too; metadata is keyed by the extension URI.
    const inputRequired = first[3] as TaskStatusUpdateEvent;
    expect(toolCallOf(inputRequired)?.tool_call_id).toBe(pending.tool_call_id);
    expect(inputRequired.metadata?.[DEVELOPMENT_TOOL_EXTENSION_URI]).toMatchObject({ kind: 'STATE_CHANGE', model: 'scripted' });
    // The workspace of the first message became the servers' roots.
    expect(agent.host.roots.list().map((root) => root.uri)).toEqual([pathToFileURL(workspace).href]);

    const { taskId, contextId } = lastTaskId(first);
    const second = await collect(
      agent.client.sendMessageStream({
        message: userMessage([{ kind: 'data', data: { tool_call_id: pending.tool_call_id, selected_option_id: 'proceed_once' } }], {
          taskId,
          contextId,
        }),
      }),
    );
    expect(trace(second)).toEqual([
      'STATE_CHANGE:working',
      'TOOL_CALL_UPDATE:EXECUTING',
      'TOOL_CALL_UPDATE:SUCCEEDED',
      'TEXT_CONTENT',
      'STATE_CHANGE:completed:final',
    ]);
    const succeeded = second[2] as TaskStatusUpdateEvent;
    expect(toolCallOf(succeeded)?.output?.text).toContain('[Image: image/png]');
    const files = (succeeded.status.message?.parts ?? []).flatMap((part) =>
      part.kind === 'file' && 'bytes' in part.file ? [part.file] : [],
    );
    const image = files.find((file) => file.mimeType === 'image/png');
    expect(Buffer.from(image!.bytes, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
    expect(files.map((file) => file.mimeType)).toContain('audio/wav');
    expect(textOf(second[3]!)).toContain('first text block');

    const got = await agent.client.getTask({ id: taskId, historyLength: 100 });
    expect('result' in got && got.result.status.state).toBe('completed');
  });

  it('skips the tool when the answer is cancel', async () => {
    const first = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'call echo {"message":"no"}' }]) }),
    );
    const pending = toolCallOf(first[2]!)!;
    const { taskId, contextId } = lastTaskId(first);
    const before = agent.updates.length;
    const second = await collect(
      agent.client.sendMessageStream({
        message: userMessage([{ kind: 'data', data: { tool_call_id: pending.tool_call_id, selected_option_id: 'cancel' } }], {
          taskId,
          contextId,
        }),
      }),
    );
    expect(trace(second)).toEqual(['STATE_CHANGE:working', 'TOOL_CALL_UPDATE:CANCELLED', 'TEXT_CONTENT', 'STATE_CHANGE:completed:final']);
    expect(toolCallOf(second[1]!)?.error?.type).toBe('TOOL_CALL_DENIED');
    // The call never went to EXECUTING.
    expect(agent.updates.slice(before).map((update) => update.status)).toEqual(['CANCELLED']);
  });

  it('continues a conversation in the same context with a new task', async () => {
    const first = await collect(agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'hello' }]) }));
    expect(trace(first)).toEqual(['task:submitted', 'STATE_CHANGE:working', 'TEXT_CONTENT', 'STATE_CHANGE:completed:final']);
    const { contextId } = lastTaskId(first);
    const second = await collect(
      agent.client.sendMessageStream({ message: userMessage([{ kind: 'text', text: 'again' }], { contextId }) }),
    );
    expect(lastTaskId(second).contextId).toBe(contextId);
    expect(kindOf(second.at(-1)!)).toBe('STATE_CHANGE');
  });
});
