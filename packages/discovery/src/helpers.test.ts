import { describe, expect, it } from 'vitest';
import { CoalescedRunner } from './coalesced-runner.js';
import { DiscoveryError } from './discovery-error.js';
import { isToolEnabled } from './is-tool-enabled.js';
import { listAllPages } from './list-all-pages.js';
import { reconnectDelay, resolveReconnectOptions } from './reconnect-delay.js';
import { Registry } from './registry.js';
import { TypedEmitter } from './typed-emitter.js';

describe('isToolEnabled', () => {
  it('follows the include / exclude rules', () => {
    expect(isToolEnabled('a', {})).toBe(true);
    expect(isToolEnabled('a', { excludeTools: ['a'] })).toBe(false);
    expect(isToolEnabled('a', { includeTools: ['a'], excludeTools: ['a'] })).toBe(false);
    expect(isToolEnabled('run', { includeTools: ['run(ls -la)'] })).toBe(true);
    expect(isToolEnabled('run', { includeTools: ['runner'] })).toBe(false);
    expect(isToolEnabled('A', { includeTools: ['a'] })).toBe(false);
    expect(isToolEnabled('a', { includeTools: [] })).toBe(false);
    expect(isToolEnabled('', {})).toBe(false);
  });
});

describe('listAllPages', () => {
  it('keys the end of the list on presence, so an empty-string cursor is followed', async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1], nextCursor: '' },
      '': { items: [2], nextCursor: 'z' },
      z: { items: [3] },
    };
    const items = await listAllPages({
      serverName: 's',
      method: 'tools/list',
      fetchPage: async (cursor) => pages[cursor ?? 'start'] ?? { items: [] },
    });
    expect(items).toEqual([1, 2, 3]);
  });

  it('detects a cycle of cursors, not only a repeated one', async () => {
    const next: Record<string, string> = { start: 'a', a: 'b', b: 'a' };
    const error = await listAllPages({
      serverName: 's',
      method: 'prompts/list',
      fetchPage: async (cursor) => ({ items: [cursor], nextCursor: next[cursor ?? 'start'] }),
    }).catch((caught: unknown) => caught);
    expect(DiscoveryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'PAGINATION_CURSOR_REPEATED', method: 'prompts/list' });
  });
});

describe('reconnectDelay', () => {
  it('grows exponentially, is capped, and jitter only takes up to 20% off', () => {
    const options = resolveReconnectOptions({ initialDelayMs: 100, maxDelayMs: 1000 });
    expect([1, 2, 3, 4, 5, 10].map((attempt) => reconnectDelay(attempt, options, () => 0))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(reconnectDelay(3, options, () => 1)).toBe(320);
    expect(resolveReconnectOptions(undefined)).toEqual({ maxAttempts: 5, initialDelayMs: 1000, maxDelayMs: 30_000 });
  });
});

describe('CoalescedRunner', () => {
  it('runs once for a burst and once more for triggers during a run', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const runner = new CoalescedRunner({
      debounceMs: 20,
      onError: () => undefined,
      task: async () => {
        runs++;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    for (let i = 0; i < 10; i++) runner.trigger();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(runs).toBe(1);
    for (let i = 0; i < 10; i++) runner.trigger();
    release();
    await runner.idle();
    expect(runs).toBe(2);
    runner.stop();
    runner.trigger();
    await runner.idle();
    expect(runs).toBe(2);
  });

  it('reports task errors and keeps working', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const runner = new CoalescedRunner({
      debounceMs: 1,
      onError: (error) => errors.push(error),
      task: async () => {
        runs++;
        throw new Error(`boom ${runs}`);
      },
    });
    runner.trigger();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.idle();
    runner.trigger();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.idle();
    expect(errors.map((error) => (error as Error).message)).toEqual(['boom 1', 'boom 2']);
  });
});

describe('Registry', () => {
  it('replaces its content in one step and reports added, removed and changed entries', () => {
    const registry = new Registry<{ serverName: string; name: string; v: number }>((entry) => entry.name);
    registry.replace([
      { serverName: 's', name: 'a', v: 1 },
      { serverName: 's', name: 'b', v: 1 },
    ]);
    const diff = registry.replace([
      { serverName: 's', name: 'b', v: 2 },
      { serverName: 't', name: 'c', v: 1 },
    ]);
    expect(diff.added.map((entry) => entry.name)).toEqual(['c']);
    expect(diff.removed.map((entry) => entry.name)).toEqual(['a']);
    expect(diff.changed).toEqual([{ serverName: 's', name: 'b', v: 2 }]);
    expect(registry.listByServer('t').map((entry) => entry.name)).toEqual(['c']);
    expect(registry.size).toBe(2);
  });
});

describe('TypedEmitter and DiscoveryError', () => {
  it('isolates faulty listeners and unsubscribes', () => {
    const emitter = new TypedEmitter<{ ping: number }>();
    const seen: number[] = [];
    emitter.on('ping', () => {
      throw new Error('faulty');
    });
    const off = emitter.on('ping', (value) => seen.push(value));
    emitter.emit('ping', 1);
    off();
    emitter.emit('ping', 2);
    expect(seen).toEqual([1]);
  });

  it('recognises errors by brand, not by class identity', () => {
    const error = new DiscoveryError({ code: 'LIST_FAILED', message: 'x', serverName: 's' });
    expect(DiscoveryError.isInstance(error)).toBe(true);
    // An error from another copy of the package carries the same global brand.
    expect(DiscoveryError.isInstance(Object.assign(new Error('y'), { [Symbol.for('toolhost.error')]: 'discovery' }))).toBe(true);
    expect(DiscoveryError.isInstance(Object.assign(new Error('y'), { [Symbol.for('toolhost.error')]: 'transport' }))).toBe(false);
    expect(DiscoveryError.isInstance({ code: 'LIST_FAILED' })).toBe(false);
    expect(DiscoveryError.isInstance(new Error('x'))).toBe(false);
    expect(error).toMatchObject({ name: 'DiscoveryError', code: 'LIST_FAILED', serverName: 's' });
  });
});
