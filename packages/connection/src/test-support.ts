// Helpers for this folder's tests: real servers over real transports (never mocks of the SDK).
import { createRequire } from 'node:module';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';

const require = createRequire(import.meta.url);

/** Path of `@modelcontextprotocol/server-everything`'s entry point. */
export const EVERYTHING_SERVER = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** A client constructed with `capabilities`, prepared by `prepare` before it connects. */
export async function connectEverything(
  capabilities: ClientCapabilities,
  prepare: (client: Client) => void = () => undefined,
): Promise<Client> {
  const client = new Client({ name: 'toolhost-test', version: '0.0.0' }, { capabilities });
  prepare(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], stderr: 'ignore' }));
  return client;
}

/** Connects to a Streamable HTTP endpoint. */
export async function connectHttp(
  url: string,
  capabilities: ClientCapabilities = {},
  prepare: (client: Client) => void = () => undefined,
): Promise<Client> {
  const client = new Client({ name: 'toolhost-test', version: '0.0.0' }, { capabilities });
  prepare(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Text of a tool result's text blocks, joined. */
export function resultText(result: object): string {
  const raw = (result as { content?: unknown }).content;
  const content = Array.isArray(raw) ? (raw as Array<{ type: string; text?: string }>) : [];
  return content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('\n');
}

/** Resolves when `predicate` holds, polling every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
