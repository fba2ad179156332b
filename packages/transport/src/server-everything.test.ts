import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { firstText, isAlive, newClient } from './test-helpers.js';

const EVERYTHING = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

const connections: ConnectedTransport[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A port that was free a moment ago (server-everything only takes a PORT, it cannot report port 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('@modelcontextprotocol/server-everything', () => {
  it('over stdio: connects, calls echo, and leaves no process after close', async () => {
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'everything',
      config: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      client,
      timeout: 60_000,
    });
    connections.push(connection);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('echo');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'stdio ok' } }))).toContain('stdio ok');
    const pid = connection.pid!;
    await connection.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('over Streamable HTTP: an untyped url connects without falling back, and the session is deleted on close', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/listening on port/i.test(output)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${output}`)));
    });
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'everything-http',
      config: { url: `http://127.0.0.1:${port}/mcp` },
      client,
      timeout: 60_000,
    });
    connections.push(connection);
    expect(connection).toMatchObject({ kind: 'http', fellBackToSse: false });
    expect(connection.transport.sessionId).toBeTruthy();
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'http ok' } }))).toContain('http ok');
    await connection.close();
    expect(connection.transport.sessionId).toBeUndefined();
  });
});
