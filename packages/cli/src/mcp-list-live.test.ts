import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fixtureBinPath, startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { closedPort, put, putProjectSettings, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost mcp list` connects to every enabled server (the built binary, real fixture servers
// on loopback). Build first: `pnpm --filter @toolhost-internal/fixtures build` and `pnpm --filter @toolhost/cli build`.
const project = useTrustedProject('toolhost-cli-live-');
const settings = (servers: Record<string, unknown>) => putProjectSettings(project.place, JSON.stringify({ mcpServers: servers }));
const list = (...extra: string[]) => runToolhost(['mcp', 'list', ...extra], project.place);

/** An HTTP server that accepts every request and never answers: a server that is slow to fail. */
async function startSilentServer(): Promise<string> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

describe('toolhost mcp list: live status', () => {
  it('shows real stdio, Streamable HTTP and SSE servers Connected and broken ones Disconnected with the reason', async () => {
    const http: HttpFixture = await startHttpFixture({ behaviour: 'basic' });
    const sse: HttpFixture = await startHttpFixture({ behaviour: 'basic', transport: 'sse' });
    project.cleanups.push(
      () => http.close(),
      () => sse.close(),
    );
    const port = await closedPort();
    // Timeouts far above the 5 s default, which a busy machine starting a server can reach; 2026-07-28
    // pinned, as in auto mode a stdio server silent for 5 s counts as a 2025-era one.
    await settings({
      stdio: { command: process.execPath, args: [fixtureBinPath('basic')], timeout: 60_000 },
      modern: {
        command: process.execPath,
        args: [fixtureBinPath('basic'), '--era=modern'],
        timeout: 60_000,
        protocolVersion: '2026-07-28',
      },
      remote: { httpUrl: http.url, timeout: 60_000 },
      events: { url: sse.url, type: 'sse', timeout: 60_000 },
      missing: { command: 'toolhost-no-such-command-xyz', args: ['--serve'] },
      closed: { url: `http://127.0.0.1:${port}/mcp`, type: 'http' },
    });
    const result = await list();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['Configured MCP servers:', '']);
    expect(lines).toContain(`✓ stdio: ${process.execPath} ${fixtureBinPath('basic')} (stdio) - Connected (MCP 2025-11-25) [project]`);
    expect(lines).toContain(
      `✓ modern: ${process.execPath} ${fixtureBinPath('basic')} --era=modern (stdio) - Connected (MCP 2026-07-28) [project]`,
    );
    expect(lines).toContain(`✓ remote: ${http.url} (http) - Connected (MCP 2025-11-25) [project]`);
    expect(lines).toContain(`✓ events: ${sse.url} (sse) - Connected (MCP 2025-11-25) [project]`);
    const missing = lines.indexOf('✗ missing: toolhost-no-such-command-xyz --serve (stdio) - Disconnected [project]');
    expect(missing).toBeGreaterThan(1);
    expect(lines[missing + 1]).toMatch(/^ {4}Reason: .*'toolhost-no-such-command-xyz': the command was not found on PATH/);
    const closed = lines.indexOf(`✗ closed: http://127.0.0.1:${port}/mcp (http) - Disconnected [project]`);
    expect(closed).toBeGreaterThan(1);
    expect(lines[closed + 1]).toMatch(/^ {4}Reason: .*'closed'.* could not be reached: connection refused at 127\.0\.0\.1:/);
    // The fixture really saw the handshake, and the session was ended.
    expect(http.requests.flatMap((request) => request.rpcMethods)).toContain('initialize');
    expect(http.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });

  it('shows a reason a server wrote with terminal escapes and a forged log line visibly escaped, never raw', async () => {
    const script = join(project.place.cwd, 'evil-server.cjs');
    const hostile = 'boom\u001b[2J\u001b]0;pwned\u0007\u202e\n[INFO] all good\r';
    await put(
      script,
      `process.stdin.on('data', (chunk) => { for (const line of String(chunk).split('\\n')) { if (!line.trim()) continue; const request = JSON.parse(line); if (request.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: ${JSON.stringify(hostile)} } }) + '\\n'); } });`,
    );
    await settings({ evil: { command: process.execPath, args: [script] } });
    const result = await list();
    // eslint-disable-next-line no-control-regex -- raw control characters are what must not appear
    expect(result.stdout + result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(result.stdout).not.toMatch(/^\[INFO\]/m);
    expect(result.stdout).toContain('\n    Reason: ');
    expect(result.stdout).toContain('boom\\u001b[2J\\u001b]0;pwned\\u0007\\u202e\\u000a[INFO] all good\\u000d');
  });

  it('probes every server at the same time: N slow servers take about one timeout, not N', async () => {
    const count = 10;
    const timeout = 3000;
    const servers: Record<string, unknown> = {};
    for (let index = 0; index < count; index += 1) servers[`slow${index}`] = { httpUrl: await startSilentServer(), timeout };
    await settings(servers);
    const started = Date.now();
    const result = await list();
    const elapsed = Date.now() - started;
    const disconnected = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('✗ slow') && line.endsWith(' - Disconnected [project]'));
    expect(disconnected).toHaveLength(count);
    expect(result.stdout.match(new RegExp(`Reason: .*within ${timeout} ms`, 'g'))).toHaveLength(count);
    expect(elapsed).toBeGreaterThanOrEqual(timeout);
    // One after the other would take at least count × timeout = 30 s; in parallel it is one
    // timeout plus the start-up of node, which a busy machine can stretch to several seconds.
    expect(elapsed).toBeLessThan(20_000);
  });

  it('uses 5000 ms when the entry has no timeout, and the entry timeout otherwise', async () => {
    await settings({ quick: { httpUrl: await startSilentServer(), timeout: 700 } });
    expect((await list()).stdout).toContain("Reason: MCP server 'quick' did not answer within 700 ms.");
    await settings({ defaulted: { httpUrl: await startSilentServer() } });
    expect((await list()).stdout).toContain("Reason: MCP server 'defaulted' did not answer within 5000 ms.");
  });

  it('connects nothing with --no-connect, and never blocked or disabled servers', async () => {
    const http = await startHttpFixture({ behaviour: 'basic' });
    project.cleanups.push(() => http.close());
    await settings({ remote: { httpUrl: http.url }, off: { httpUrl: http.url } });
    expect((await runToolhost(['mcp', 'disable', 'off'], project.place)).code).toBe(0);
    const configured = await list('--no-connect');
    expect(configured.stdout.split('\n').slice(2, -1)).toEqual([
      `• remote: ${http.url} (http) - Enabled [project]`,
      `○ off: ${http.url} (http) - Disabled [project]`,
    ]);
    expect(http.requests).toHaveLength(0);
    const live = await list();
    expect(live.stdout.split('\n').slice(2, -1)).toEqual([
      `✓ remote: ${http.url} (http) - Connected (MCP 2025-11-25) [project]`,
      `○ off: ${http.url} (http) - Disabled [project]`,
    ]);
    expect(http.requests.filter((request) => request.rpcMethods.includes('initialize'))).toHaveLength(1);
  });
});
