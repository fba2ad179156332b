// Windows only (the CI's Windows job): npx and other `.cmd` shims are started without a shell
// reading the arguments. The resolution itself is checked everywhere in resolve-spawn-command.test.ts.
import { statSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { resolveSpawnCommand } from './resolve-spawn-command.js';
import { firstText, newClient } from './test-helpers.js';

const open: ConnectedTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

describe.runIf(process.platform === 'win32')('Windows .cmd shims', () => {
  it('finds npx.cmd of this Node.js and runs it as node.exe with npx-cli.js, no cmd.exe', () => {
    const plan = resolveSpawnCommand({
      command: 'npx',
      args: ['-y', 'pkg'],
      platform: 'win32',
      env: process.env,
      cwd: process.cwd(),
      isFile,
    });
    expect(plan).toMatchObject({ kind: 'spawn', via: 'node', windowsVerbatimArguments: false });
    if (plan.kind === 'spawn') expect(plan.args[0]).toMatch(/node_modules[\\/]npm[\\/]bin[\\/]npx-cli\.js$/i);
  });

  it('starts a .cmd server found in PATH, and its arguments arrive as written', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolhost shim '));
    const record = join(folder, 'argv.json');
    writeFileSync(
      join(folder, 'serve.mjs'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.ARGV_FILE, JSON.stringify(process.argv.slice(2)));\nawait import(process.env.FIXTURE_URL);\n`,
    );
    // The shape of npm's cmd-shim: run node with the script and pass the arguments on with %*.
    writeFileSync(join(folder, 'my-server.cmd'), `@ECHO off\r\n"${process.execPath}" "%~dp0\\serve.mjs" %*\r\n`);
    const args = [
      'with space',
      'say "hi"',
      'a&b',
      'x|y',
      '%PATH%',
      '^caret^',
      '!VAR!',
      '<in>out',
      'back\\slash\\',
      'a"&echo injected&"b',
      '',
    ];
    const client = newClient();
    const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const pathKey = Object.keys(inherited).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
    const connection = await connectTransport({
      serverName: 'shim',
      config: { command: 'my-server', args, env: { ARGV_FILE: record, FIXTURE_URL: pathToFileURL(fixtureBinPath('basic')).href } },
      client,
      env: { ...inherited, [pathKey]: `${folder};${inherited[pathKey] ?? ''}` },
      closeGraceMs: 500,
    });
    open.push(connection);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'ok' } }))).toBe('ok');
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual(args);
  });
});
