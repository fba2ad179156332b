// Helpers for this package's tests: real fixture servers and server-everything over stdio.
import { createRequire } from 'node:module';
import { fixtureBinPath, type FixtureBehaviour } from '@toolhost-internal/fixtures';
import type { McpServerConfig } from '@toolhost/config';

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
