// Helpers for this package's tests: real fixture servers and server-everything over stdio.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath, type FixtureBehaviour } from '@toolhost-internal/fixtures';
import type { McpServerConfig } from '@toolhost/config';
import { afterEach } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

const require = createRequire(import.meta.url);

/** Path of `mcp-server-everything`. */
export const EVERYTHING_SERVER_PATH = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** A settings entry that starts a fixture server over stdio. */
export function fixtureServer(behaviour: FixtureBehaviour, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [fixtureBinPath(behaviour)], ...extra };
}

/** A settings entry that starts server-everything over stdio. */
export function everythingServer(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [EVERYTHING_SERVER_PATH, 'stdio'], ...extra };
}

/** What {@link useProjectFolders} gives a test file. */
export interface ProjectFolders {
  /** A new empty folder, removed after the test. */
  tempDir(): Promise<string>;
  /** Writes `<project>/.toolhost/settings.json` with these `mcpServers`. */
  writeProjectSettings(project: string, mcpServers: Record<string, unknown>): Promise<void>;
  /** `McpToolHost.create(options)`, closed after the test. */
  startHost(options: Parameters<typeof McpToolHost.create>[0]): Promise<McpToolHost>;
}

/**
 * Temporary project folders and hosts for the tests of one file (call it at the top level): after
 * each test every host is closed and every folder removed.
 */
export function useProjectFolders(prefix: string): ProjectFolders {
  const dirs: string[] = [];
  const hosts: McpToolHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    async tempDir() {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async writeProjectSettings(project, mcpServers) {
      await mkdir(join(project, '.toolhost'), { recursive: true });
      await writeFile(join(project, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers }));
    },
    async startHost(options) {
      const host = await McpToolHost.create(options);
      hosts.push(host);
      return host;
    },
  };
}

/** The text of a result's parts (a tool call, a prompt), joined with `separator`; other parts give ''. */
export function textOf(result: { readonly parts: readonly unknown[] } | undefined, separator = ''): string {
  return (result?.parts ?? []).map((part) => (part as { text?: string }).text ?? '').join(separator);
}

/** Resolves when `predicate` holds, polling every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
