// AiSdkToolHost is this package's own interface (it does not depend on @toolhost/host): every
// McpToolHost must be one, and createAiSdkTools must need nothing of the host beyond it.
import type { McpToolHost } from '@toolhost/host';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { AiSdkToolHost } from './ai-sdk-tool-host.js';
import { createAiSdkTools } from './create-ai-sdk-tools.js';
import { fixtureHost, responseMessagesOf, scriptedModel, toolResultsOf } from './scripted-model.test-helper.js';
import { toolApprovalResponse } from './tool-approval.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** Only the members AiSdkToolHost declares, forwarded to a real host: anything else createAiSdkTools reached would be undefined. */
function onlyTheInterface(host: McpToolHost): AiSdkToolHost {
  return {
    listToolDefinitions: () => host.listToolDefinitions(),
    callTool: (params, options) => host.callTool(params, options),
    confirmations: {
      check: (params) => host.confirmations.check(params),
      answer: (params) => host.confirmations.answer(params),
    },
    on: (event, listener) => host.on(event, listener),
  };
}

describe('AiSdkToolHost', () => {
  it('is implemented by McpToolHost, whatever its adapter', () => {
    expectTypeOf<McpToolHost>().toExtend<AiSdkToolHost>();
    expectTypeOf<McpToolHost<{ name: string }[], { id: string }, string>>().toExtend<AiSdkToolHost>();
  });

  it('is all createAiSdkTools uses: an approved call runs through a host that has nothing else', async () => {
    const opened = await fixtureHost({ basic: { behaviour: 'basic' } }, { deferConfirmations: true });
    hosts.push(opened.host);
    const tools = createAiSdkTools(onlyTheInterface(opened.host));
    const { model, calls } = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'echo', input: { message: 'hi' } }] },
      { text: 'Echoed.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Echo hi.' }];

    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    messages.push(...responseMessagesOf(first));
    messages.push({ role: 'tool', content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'proceed_once' })] });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });

    expect(second.text).toBe('Echoed.');
    expect(toolResultsOf(calls[1])).toEqual([
      { type: 'tool-result', toolCallId: 'call-1', toolName: 'echo', output: { type: 'text', value: 'hi' } },
    ]);
    expect(opened.updates.map((update) => update.status)).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);
  });
});
