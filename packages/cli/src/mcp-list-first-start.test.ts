import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureBinPath, writeFakePackageRunner } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { closedPort, put, putProjectSettings, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost mcp list` (the built binary) on a first start through npx, and on servers that fail
// to start: real processes and HTTP servers on loopback. Build first: fixtures, then the CLI.
const project = useTrustedProject('toolhost-cli-first-start-');
const settings = (servers: Record<string, unknown>) => putProjectSettings(project.place, JSON.stringify({ mcpServers: servers }));
const list = (...extra: string[]) => runToolhost(['mcp', 'list', ...extra], project.place);

async function answering(status: number): Promise<string> {
  const server: Server = createServer((_request, response) => response.writeHead(status).end('nope'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

/** The `Reason:` line below the row of `name`. */
function reasonOf(stdout: string, name: string): string | undefined {
  const lines = stdout.split('\n');
  const row = lines.findIndex((line) => line.startsWith(`✗ ${name}: `));
  return row < 0 ? undefined : lines[row + 1];
}

// The fake runner is an executable script named `npx` (a `#!` file): POSIX.
describe.runIf(process.platform !== 'win32')('toolhost mcp list: a first start through npx', () => {
  it('connects a server whose npx install takes longer than 5 s when its entry sets no timeout', async () => {
    const runner = await writeFakePackageRunner({ folder: join(project.root, 'runner'), steps: 13, stepMs: 500 });
    await settings({ memory: { command: runner.command, args: ['-y', fixtureBinPath('basic')] } });
    const result = await list();
    expect(result.stdout).toContain(
      `✓ memory: ${runner.command} -y ${fixtureBinPath('basic')} (stdio) - Connected (MCP 2025-11-25) [project]`,
    );
  }, 90_000);

  it('never leaves a broken install behind when the probe times out: the next run connects', async () => {
    const runner = await writeFakePackageRunner({ folder: join(project.root, 'runner'), steps: 8, stepMs: 300 });
    await settings({ memory: { command: runner.command, args: ['-y', fixtureBinPath('basic')], timeout: 1000 } });
    const first = await list();
    expect(reasonOf(first.stdout, 'memory')).toBe(
      `    Reason: MCP server 'memory' did not answer within 1000 ms. It starts through npx, which may still be downloading the package on a first start: give it longer with "timeout" in its settings entry (for example 120000), or run the command once in a terminal.`,
    );
    expect(existsSync(runner.partial)).toBe(false);
    expect(existsSync(runner.installed)).toBe(true);
    // The next run (with room for a loaded machine) finds the install whole; a half-written one would exit at once.
    await settings({ memory: { command: runner.command, args: ['-y', fixtureBinPath('basic')], timeout: 30_000 } });
    const second = await list();
    expect(second.stdout).toContain(`✓ memory: ${runner.command} -y ${fixtureBinPath('basic')} (stdio) - Connected`);
  }, 90_000);
});

describe("toolhost mcp list: start-up failures in the user's words", () => {
  it('says what happened to each server and what to do, with the technical detail only under --debug', async () => {
    const exits = join(project.place.cwd, 'exits.cjs');
    await put(exits, `process.stderr.write('Error: DATABASE_URL is not set\\n'); process.exit(3);`);
    const port = await closedPort();
    const notFound = await answering(404);
    const failing = await answering(500);
    await settings({
      db: { command: process.execPath, args: [exits] },
      missing: { command: 'toolhost-no-such-command-xyz' },
      refused: { httpUrl: `http://127.0.0.1:${port}/mcp` },
      lost: { httpUrl: notFound },
      down: { httpUrl: failing },
    });
    const result = await list();
    expect(result.code).toBe(0);
    expect(reasonOf(result.stdout, 'db')).toBe(
      `    Reason: MCP server 'db' exited with code 3 before it answered: Error: DATABASE_URL is not set. Check its "command", "args" and "env", or run the command in a terminal to see all it prints.`,
    );
    expect(reasonOf(result.stdout, 'missing')).toBe(
      `    Reason: MCP server 'missing': could not start 'toolhost-no-such-command-xyz': the command was not found on PATH. Install it, or set "command" to its full path.`,
    );
    expect(reasonOf(result.stdout, 'refused')).toBe(
      `    Reason: MCP server 'refused' (http://127.0.0.1:${port}/mcp) could not be reached: connection refused at 127.0.0.1:${port}. Nothing listens there: start the server, or fix the host and port of its URL.`,
    );
    expect(reasonOf(result.stdout, 'lost')).toContain(`answered HTTP 404 (not found): check the path of its URL`);
    expect(reasonOf(result.stdout, 'down')).toContain(
      `answered HTTP 500 (a server error): the server failed; try again later, or check its logs.`,
    );
    expect(result.stdout).not.toMatch(/sibling|Version negotiation|fetch failed|ENOENT|ECONNREFUSED|Detail:/);

    const debug = await list('--debug');
    expect(debug.stdout).toContain(
      '    Detail: SdkError [ERA_NEGOTIATION_FAILED]: Version negotiation failed: the connection closed during the server/discover probe',
    );
    expect(debug.stdout).toContain('    Detail: Error [ENOENT]: spawn toolhost-no-such-command-xyz ENOENT');
    expect(debug.stdout).toMatch(
      new RegExp(`Detail: .*TypeError: fetch failed ← Error \\[ECONNREFUSED\\]: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`),
    );
    expect(debug.stderr).toContain('[DEBUG] [MCP STDERR (db)]: Error: DATABASE_URL is not set');
  }, 60_000);
});
