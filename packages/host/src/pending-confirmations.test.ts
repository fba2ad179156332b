// Confirmations answered later by tool call id (host.confirmations), against the basic fixture server.
import { describe, expect, it } from 'vitest';
import type { ConfirmationRequest, ToolCall } from '@toolhost/contract';
import { HostError } from './host-error.js';
import type { McpToolHostOptions } from './host-options.js';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

async function withHost(
  options: McpToolHostOptions,
  run: (host: McpToolHost, pending: ConfirmationRequest[], updates: ToolCall[]) => Promise<void>,
): Promise<void> {
  const host = await McpToolHost.create({ settings: { mcpServers: { basic: fixtureServer('basic') } }, ...options });
  const pending: ConfirmationRequest[] = [];
  const updates: ToolCall[] = [];
  host.on('confirmation-pending', (request) => pending.push(request));
  host.on('tool-call-update', (call) => updates.push(call));
  try {
    await host.discover();
    await run(host, pending, updates);
  } finally {
    await host.close();
  }
}

async function until(check: () => boolean): Promise<void> {
  await expect.poll(check, { interval: 10 }).toBe(true);
}

function codeOf(run: () => void): string | undefined {
  try {
    run();
  } catch (error) {
    if (HostError.isInstance(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return undefined;
}

describe('host.confirmations: answering a confirmation later by tool call id', () => {
  it('keeps the call PENDING until answered, then runs it; a second answer is refused', async () => {
    await withHost({ deferConfirmations: true }, async (host, pending, updates) => {
      const call = host.callTool({ name: 'echo', arguments: { message: 'later' }, toolCallId: 'call-1' });
      await until(() => pending.length === 1);
      expect(pending[0]?.toolCallId).toBe('call-1');
      expect(host.confirmations.pending().map((request) => request.toolCallId)).toEqual(['call-1']);
      // The PENDING update carrying the request comes first, then the event.
      expect(updates.map((update) => update.status)).toEqual(['PENDING']);
      expect(updates[0]?.confirmationRequest?.toolCallId).toBe('call-1');

      // Not an offered option: refused, and the call keeps waiting.
      expect(codeOf(() => host.confirmations.answer({ toolCallId: 'call-1', optionId: 'yes please' }))).toMatch(
        /^INVALID_CONFIRMATION_ANSWER: "yes please" is not one of the options offered for tool call "call-1".*'proceed_once'.*still waiting/,
      );
      expect(host.confirmations.pending()).toHaveLength(1);

      host.confirmations.answer({ toolCallId: 'call-1', optionId: 'proceed_once' });
      expect(host.confirmations.pending()).toEqual([]);
      const result = await call;
      expect(result.isError).toBe(false);
      expect(result.display).toContain('later');
      expect(updates.map((update) => update.status)).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);

      expect(codeOf(() => host.confirmations.answer({ toolCallId: 'call-1', optionId: 'proceed_once' }))).toMatch(
        /^CONFIRMATION_NOT_PENDING: Tool call "call-1" was already answered/,
      );
      expect(codeOf(() => host.confirmations.answer({ toolCallId: 'nobody', optionId: 'cancel' }))).toMatch(
        /^CONFIRMATION_NOT_PENDING: No tool call with id "nobody" is waiting/,
      );
    });
  });

  it('skips the call when answered "cancel"', async () => {
    await withHost({ deferConfirmations: true }, async (host, pending, updates) => {
      const call = host.callTool({ name: 'add', arguments: { a: 1, b: 2 }, toolCallId: 'call-2' });
      await until(() => pending.length === 1);
      host.confirmations.answer({ toolCallId: 'call-2', optionId: 'cancel' });
      const result = await call;
      expect(result.error?.code).toBe('TOOL_CALL_DENIED');
      expect(updates.map((update) => update.status)).toEqual(['PENDING', 'CANCELLED']);
    });
  });

  it('answers ahead of a confirm hook that has not answered yet, and aborts the hook', async () => {
    let hookSignal: AbortSignal | undefined;
    const ui = {
      confirm: (_request: ConfirmationRequest, options: { readonly signal?: AbortSignal }) => {
        hookSignal = options.signal;
        return new Promise<never>(() => undefined);
      },
    };
    await withHost({ ui }, async (host, pending) => {
      const call = host.callTool({ name: 'echo', arguments: { message: 'raced' }, toolCallId: 'call-3' });
      await until(() => pending.length === 1 && hookSignal !== undefined);
      expect(hookSignal?.aborted).toBe(false);
      host.confirmations.answer({ toolCallId: 'call-3', optionId: 'proceed_once' });
      expect(hookSignal?.aborted).toBe(true);
      expect((await call).isError).toBe(false);
    });
  });

  it('leaves the signal of a confirm hook that answered alone (nothing left to stop)', async () => {
    const signals: AbortSignal[] = [];
    const ui = {
      confirm: async (_request: ConfirmationRequest, options: { readonly signal?: AbortSignal }) => {
        if (options.signal) signals.push(options.signal);
        return 'proceed_once' as const;
      },
    };
    await withHost({ ui }, async (host) => {
      const result = await host.callTool({ name: 'echo', arguments: { message: 'hook' }, toolCallId: 'call-5' });
      expect(result.isError).toBe(false);
      expect(signals).toHaveLength(1);
      expect(signals[0]?.aborted).toBe(false);
    });
  });

  it('still lets the confirm hook answer; the id is then no longer pending', async () => {
    await withHost({ ui: { confirm: async () => 'proceed_once' } }, async (host, pending) => {
      const result = await host.callTool({ name: 'echo', arguments: { message: 'hook' }, toolCallId: 'call-4' });
      expect(result.isError).toBe(false);
      expect(pending.map((request) => request.toolCallId)).toEqual(['call-4']);
      expect(codeOf(() => host.confirmations.answer({ toolCallId: 'call-4', optionId: 'cancel' }))).toMatch(/already answered/);
    });
  });

  it('cancels a waiting call when its signal aborts or the host closes', async () => {
    await withHost({ deferConfirmations: true }, async (host, pending) => {
      const controller = new AbortController();
      const call = host.callTool({ name: 'echo', arguments: { message: 'x' }, toolCallId: 'call-5' }, { signal: controller.signal });
      await until(() => pending.length === 1);
      controller.abort();
      expect((await call).error?.code).toBe('CANCELLED');
      expect(host.confirmations.pending()).toEqual([]);
      expect(codeOf(() => host.confirmations.answer({ toolCallId: 'call-5', optionId: 'proceed_once' }))).toMatch(
        /is no longer waiting for confirmation/,
      );

      const closing = host.callTool({ name: 'echo', arguments: { message: 'y' }, toolCallId: 'call-6' });
      await until(() => pending.length === 2);
      await host.close();
      expect((await closing).error?.code).toBe('CANCELLED');
    });
  });

  it('refuses a second waiting call with the same tool call id', async () => {
    await withHost({ deferConfirmations: true }, async (host, pending) => {
      const first = host.callTool({ name: 'echo', arguments: { message: 'a' }, toolCallId: 'same' });
      await until(() => pending.length === 1);
      const second = await host.callTool({ name: 'echo', arguments: { message: 'b' }, toolCallId: 'same' });
      expect(second.error?.code).toBe('DUPLICATE_TOOL_CALL_ID');
      expect(second.toolCall.status).toBe('FAILED');
      host.confirmations.answer({ toolCallId: 'same', optionId: 'proceed_once' });
      expect((await first).display).toContain('a');
    });
  });

  it('without deferConfirmations or a hook, still refuses at once with CONFIRMATION_REQUIRED', async () => {
    await withHost({}, async (host, pending) => {
      const result = await host.callTool({ name: 'echo', arguments: { message: 'no' } });
      expect(result.error?.code).toBe('CONFIRMATION_REQUIRED');
      expect(pending).toEqual([]);
    });
  });
});
