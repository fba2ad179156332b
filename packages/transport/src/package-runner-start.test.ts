// A first start through a package runner (`npx -y …`) that is stopped while it installs must not
// leave a broken install behind: the fake runner behaves as npm does (see writeFakePackageRunner).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath, writeFakePackageRunner } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { TransportError } from './transport-error.js';
import { firstText, isRunning, newClient } from './test-helpers.js';

const open: ConnectedTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

// The runner is an executable script named `npx` (a `#!` file): POSIX.
describe.runIf(process.platform !== 'win32')('a server started through a package runner', () => {
  it('that times out while npx installs is let finish the install as it is closed, and starts at once the next time', async () => {
    const runner = await writeFakePackageRunner({ folder: mkdtempSync(join(tmpdir(), 'toolhost-npx-')), steps: 8, stepMs: 250 });
    const config = { command: runner.command, args: ['-y', fixtureBinPath('basic')] };
    const error = await connectTransport({ serverName: 'memory', config, client: newClient(), timeout: 300, closeGraceMs: 300 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(TransportError.isInstance(error)).toBe(true);
    expect((error as TransportError).message).toContain(
      `MCP server 'memory' did not answer initialize within 300 ms. It starts through npx, which may still be downloading`,
    );
    expect((error as TransportError).message).toContain('"timeout"');
    // Closing waited for the install instead of killing it half-way.
    expect(existsSync(runner.partial)).toBe(false);
    expect(existsSync(runner.installed)).toBe(true);
    const client = newClient();
    const connection = await connectTransport({ serverName: 'memory', config, client, timeout: 20_000, closeGraceMs: 300 });
    open.push(connection);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'installed' } }))).toBe('installed');
  });

  it('that answered is closed without the install grace, even when it ignores the end of stdin', async () => {
    const runner = await writeFakePackageRunner({ folder: mkdtempSync(join(tmpdir(), 'toolhost-npx-')), steps: 1, stepMs: 10 });
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'memory',
      config: { command: runner.command, args: ['-y', fixtureBinPath('basic'), '--ignore-stdin-close'] },
      client,
      closeGraceMs: 300,
    });
    const { pid } = JSON.parse(firstText(await client.callTool({ name: 'cwd', arguments: {} }))) as { pid: number };
    const started = Date.now();
    await connection.close();
    // stdin grace + SIGTERM: about 300 ms; the 60 s install grace would show far above this bound.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(isRunning(pid)).toBe(false);
  });
});
