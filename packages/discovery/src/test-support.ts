// Helpers shared by the tests of this package (not part of the public API).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fixtureBinPath, type FixtureBehaviour } from '@toolhost-internal/fixtures';
import type { McpServerConfig } from '@toolhost/config';
import { afterEach } from 'vitest';
import { McpServerManager } from './mcp-server-manager.js';
import type { McpServerManagerEvents, McpServerManagerOptions } from './manager-types.js';

/**
 * A `createManager` for one test file: call it at the top level of the file; every manager
 * it creates is closed after each test, so no fixture process outlives its test.
 */
export function closingManagers(): (options: McpServerManagerOptions) => McpServerManager {
  const managers: McpServerManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.close()));
  });
  return (options) => {
    const manager = new McpServerManager(options);
    managers.push(manager);
    return manager;
  };
}

/** A stdio server entry that runs a fixture binary with `--kebab=value` options. */
export function stdioFixture(
  behaviour: FixtureBehaviour,
  options: Record<string, string | number | boolean> = {},
  extra: Partial<McpServerConfig> = {},
): McpServerConfig {
  const args = Object.entries(options).map(([key, value]) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}=${String(value)}`);
  return { command: process.execPath, args: [fixtureBinPath(behaviour), ...args], ...extra };
}

/** A stdio server entry that runs `@modelcontextprotocol/server-everything stdio`. */
export function everythingServer(): McpServerConfig {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('@modelcontextprotocol/server-everything/package.json');
  return { command: process.execPath, args: [join(dirname(packageJson), 'dist', 'index.js'), 'stdio'] };
}

/** Resolve with the first event payload matching `predicate`, or reject after `timeoutMs`. */
export function nextEvent<K extends keyof McpServerManagerEvents>(
  manager: McpServerManager,
  event: K,
  predicate: (payload: McpServerManagerEvents[K]) => boolean = () => true,
  timeoutMs = 60_000,
): Promise<McpServerManagerEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${String(event)} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = manager.on(event, (payload) => {
      if (!predicate(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

/** Whether a process with this pid is still alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait until `check` is true, polling; rejects after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The text of the first content block of a tool result. */
export function firstText(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }> | undefined;
  return content?.[0]?.text ?? '';
}
