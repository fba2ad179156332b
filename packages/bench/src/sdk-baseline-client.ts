// The raw v2 SDK side of the process benchmarks: `@modelcontextprotocol/client`'s `Client` and
// stdio transport used directly, with the version negotiation toolhost uses for the same entry.
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { versionNegotiationOptions } from '@toolhost/discovery';
import type { StdioServerEntry } from './wires.js';

/** `clientInfo` of every raw SDK client of the bench. */
export const SDK_CLIENT_INFO = { name: 'toolhost-bench', version: '0.0.0' } as const;

/**
 * The SDK's `StdioClientTransport`, unchanged. A subclass only because the SDK's `'auto'`
 * negotiation treats the base class specially: on exactly `StdioClientTransport` it probes with
 * `server/discover` on a disposable sibling process (one extra spawn per connect), on any other
 * stdio-shaped transport (a subclass, or toolhost's own) it probes in place on the connection.
 * In place is what toolhost does, so the baseline sends the same messages to the same single
 * process per server.
 */
export class InPlaceStdioClientTransport extends StdioClientTransport {}

/** The environment the SDK gives a stdio child when the caller passes none. */
export function sdkDefaultChildEnvironment(): Record<string, string> {
  return getDefaultEnvironment();
}

/**
 * A new raw SDK `Client` built the way `@toolhost/discovery` builds its own (`capabilities: {}`
 * plus `versionNegotiationOptions(entry)`: `'auto'` with the stdio probe timeout, for an entry
 * without a pin), connected over stdio to `entry` with the SDK's defaults (its small child
 * environment). Closes everything and rethrows when the connection fails.
 */
export async function connectSdkClient(entry: StdioServerEntry): Promise<Client> {
  const transport = new InPlaceStdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' });
  transport.stderr?.on('data', () => undefined); // drain the ready line
  const client = new Client({ ...SDK_CLIENT_INFO }, { capabilities: {}, ...versionNegotiationOptions(entry) });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  }
  return client;
}
