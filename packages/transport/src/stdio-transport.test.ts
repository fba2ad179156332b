import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { createTransport } from './create-transport.js';
import { StdioTransport } from './stdio-transport.js';
import { TransportError } from './transport-error.js';
import { firstText, isAlive, newClient } from './test-helpers.js';
import { SdkErrorCode } from '@modelcontextprotocol/server';

const open: ConnectedTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connectFixture(
  behaviour: Parameters<typeof fixtureBinPath>[0],
  extra: {
    args?: string[];
    env?: Record<string, string>;
    cwd?: string;
    inherited?: Record<string, string>;
    closeGraceMs?: number;
  } = {},
): Promise<{ connection: ConnectedTransport; client: ReturnType<typeof newClient> }> {
  const client = newClient();
  const connection = await connectTransport({
    serverName: `stdio-${behaviour}`,
    config: {
      command: process.execPath,
      args: [fixtureBinPath(behaviour), ...(extra.args ?? [])],
      ...(extra.env ? { env: extra.env } : {}),
      ...(extra.cwd ? { cwd: extra.cwd } : {}),
    },
    client,
    ...(extra.inherited ? { env: extra.inherited } : {}),
    closeGraceMs: extra.closeGraceMs ?? 500,
  });
  open.push(connection);
  return { connection, client };
}

describe('stdio transport', () => {
  it('connects, calls a tool, and passes args and cwd', async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cwd-')));
    const { connection, client } = await connectFixture('basic', { cwd: folder });
    expect(connection.kind).toBe('stdio');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'hello' } }))).toBe('hello');
    const where = JSON.parse(firstText(await client.callTool({ name: 'cwd', arguments: {} }))) as { cwd: string; pid: number };
    expect(where.cwd).toBe(folder);
    expect(where.pid).toBe(connection.pid);
  });

  it('passes the allowlisted inherited environment plus the entry env, which is never removed', async () => {
    const { client } = await connectFixture('basic', {
      inherited: { PATH: process.env.PATH ?? '', HOME: '/home/test', GITHUB_TOKEN: 'leak', GEMINI_API_KEY: 'leak', COLOR: 'blue' },
      env: { MY_API_KEY: 'explicit', GREETING: 'hi' },
    });
    const seen = JSON.parse(firstText(await client.callTool({ name: 'env', arguments: {} }))) as Record<string, string>;
    expect(seen).toMatchObject({ HOME: '/home/test', MY_API_KEY: 'explicit', GREETING: 'hi' });
    expect(seen).not.toHaveProperty('COLOR');
    expect(seen).not.toHaveProperty('GITHUB_TOKEN');
    expect(seen).not.toHaveProperty('GEMINI_API_KEY');
  });

  it('fails with CWD_NOT_FOUND before spawning when the folder is missing', async () => {
    const client = newClient();
    const missing = join(tmpdir(), 'toolhost-does-not-exist-4242');
    const error = await connectTransport({
      serverName: 'nocwd',
      config: { command: 'definitely-not-a-command-4242', cwd: missing },
      client,
    }).catch((e: unknown) => e);
    expect(TransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CWD_NOT_FOUND', serverName: 'nocwd', cwd: missing });
    expect((error as Error).message).toContain(missing);
  });

  it('fails with SPAWN_FAILED for a command that does not exist', async () => {
    const error = await connectTransport({
      serverName: 'nocmd',
      config: { command: 'definitely-not-a-command-4242' },
      client: newClient(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SPAWN_FAILED', serverName: 'nocmd', command: 'definitely-not-a-command-4242' });
  });

  it('keeps the last stderr lines without printing them', async () => {
    const { connection, client } = await connectFixture('stderr', { args: ['--stderr-lines=50'] });
    await client.callTool({ name: 'write-stderr', arguments: { lines: 3, text: 'later' } });
    await expect.poll(() => connection.stderr?.lines().at(-1)).toBe('later 3');
    const small = createTransport(
      { command: process.execPath, args: [fixtureBinPath('stderr'), '--stderr-lines=50'] },
      { serverName: 'small', stderrLines: 4 },
    );
    const other = newClient();
    await other.connect(small.transport);
    await expect
      .poll(() => small.stderr?.lines())
      .toEqual(['stderr line 48 of 50', 'stderr line 49 of 50', 'stderr line 50 of 50', expect.stringMatching(/ready/)]);
    await small.close();
  });

  it('close leaves no process behind, even one that ignores stdin EOF and SIGTERM', async () => {
    // A long grace period: the polite server must exit on stdin EOF alone, well before any signal.
    const polite = await connectFixture('basic', { closeGraceMs: 15_000 });
    const politePid = polite.connection.pid!;
    const stubborn = await connectFixture('basic', { args: ['--ignore-sigterm', '--ignore-stdin-close'] });
    const stubbornPid = stubborn.connection.pid!;
    expect(isAlive(politePid) && isAlive(stubbornPid)).toBe(true);
    const started = Date.now();
    await polite.connection.close();
    expect(isAlive(politePid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(14_000);
    await stubborn.connection.close();
    expect(isAlive(stubbornPid)).toBe(false);
    expect(stubborn.connection.stderr?.lines()).toContain('SIGTERM ignored');
  });

  it('close() while start() is under way spawns nothing, so no child is left behind', async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cwd-')));
    const transport = new StdioTransport({
      serverName: 'racy',
      command: process.execPath,
      args: [fixtureBinPath('basic'), '--ignore-stdin-close'],
      cwd: folder,
      env: { PATH: process.env.PATH ?? '' },
      closeGraceMs: 200,
    });
    const starting = transport.start().catch((e: unknown) => e);
    await transport.close();
    const error = await starting;
    expect(transport.pid).toBeUndefined();
    expect(error).toMatchObject({ code: 'SERVER_NOT_CONNECTED', serverName: 'racy' });
  });

  it('a crash during tools/call fails the call and closes the client', async () => {
    const { client, connection } = await connectFixture('crash');
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toMatchObject({ code: SdkErrorCode.ConnectionClosed });
    expect(closed).toBe(true);
    expect(connection.stderr?.lines()).toContain('crash: going down in the middle of tools/call');
  });

  it('reports a server that exits at start-up as CONNECTION_CLOSED with its stderr', async () => {
    const error = await connectTransport({
      serverName: 'dies',
      config: { command: process.execPath, args: ['-e', 'console.error("boom: missing API key"); process.exit(2)'] },
      client: newClient(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', serverName: 'dies' });
    expect((error as TransportError).stderr).toContain('boom: missing API key');
  });
});
