// connectClient with the revision options versionNegotiationOptions picks for an entry, against
// real stdio fixtures of each protocol era.
import { Client } from '@modelcontextprotocol/client';
import { fixtureBinPath, type FixtureEra } from '@toolhost-internal/fixtures';
import type { McpServerConfig } from '@toolhost/config';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClient, type OpenedConnection } from './connect-client.js';
import { isModernRevision, versionNegotiationOptions } from './version-negotiation.js';

const opened: OpenedConnection[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});

function basicFixture(era: FixtureEra, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [fixtureBinPath('basic'), `--era=${era}`], ...extra };
}

/** Connects a fresh SDK client to `config` with the entry's revision options; returns the client. */
async function connect(config: McpServerConfig): Promise<Client> {
  const client = new Client({ name: 'connection-test', version: '0.0.0' }, { capabilities: {}, ...versionNegotiationOptions(config) });
  const connection = await connectClient({ serverName: 'basic', config, client, timeout: 30_000, signal: AbortSignal.timeout(60_000) });
  opened.push(connection);
  expect(connection.transportType).toBe('stdio');
  expect(connection.pid()).toEqual(expect.any(Number));
  return client;
}

describe('connectClient with versionNegotiationOptions', () => {
  it('negotiates 2026-07-28 with a server that speaks it', async () => {
    const client = await connect(basicFixture('both'));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(isModernRevision(client.getNegotiatedProtocolVersion())).toBe(true);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('falls back to initialize with a 2025-era server', async () => {
    const client = await connect(basicFixture('legacy'));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(isModernRevision(client.getNegotiatedProtocolVersion())).toBe(false);
  });

  it('keeps to the revision an entry pins, even when the server speaks a newer one', async () => {
    const client = await connect(basicFixture('both', { protocolVersion: '2025-11-25' }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  });

  it('closes the connection: a stdio server process ends', async () => {
    const client = new Client({ name: 'connection-test', version: '0.0.0' }, { capabilities: {} });
    const config = basicFixture('legacy');
    const connection = await connectClient({ serverName: 'basic', config, client, timeout: 30_000, signal: AbortSignal.timeout(60_000) });
    const pid = connection.pid();
    expect(pid).toEqual(expect.any(Number));
    await connection.close();
    expect(() => process.kill(pid as number, 0)).toThrow();
  });
});
