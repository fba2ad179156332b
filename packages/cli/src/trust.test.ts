import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBinBuilt, put, runToolhost, type RunPlace } from './testing/run-toolhost.js';

// Folder trust through the built binary: a cloned repository's project settings must not start
// anything until the user runs `toolhost trust`. Build first: fixtures and cli.
let root: string;
let place: RunPlace;
let marker: string;
const run = (args: string[], cwd = place.cwd) => runToolhost(args, { ...place, cwd });
const BLOCKED = '(stdio) - Blocked (project folder not trusted: run "toolhost trust") [project]';

/**
 * A stdio server that leaves a marker file the moment it is spawned, then serves the basic fixture.
 * Its start-up bound is 60 s (not the 5 s default of `mcp list`): on a loaded machine a cold Node
 * start can take longer, and this test is about trust, not about the bound.
 */
function markingServer(file: string): { command: string; args: string[]; timeout: number } {
  const code = 'require("fs").writeFileSync(process.argv[1], "spawned"); import(require("url").pathToFileURL(process.argv[2]).href);';
  return { command: process.execPath, args: ['-e', code, file, fixtureBinPath('basic')], timeout: 60_000 };
}

beforeAll(() => assertBinBuilt());
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-cli-trust-')));
  place = { home: join(root, 'home'), cwd: join(root, 'clones', 'repo') };
  marker = join(root, 'spawned.txt');
  await mkdir(place.home, { recursive: true });
  await mkdir(join(place.cwd, 'packages', 'app'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('toolhost trust / untrust and mcp list', () => {
  it("never spawns an untrusted project's stdio server, connects it once trusted, and blocks it again after untrust", async () => {
    await put(join(place.cwd, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers: { cloned: markingServer(marker) } }));
    await put(
      join(place.home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { mine: { command: process.execPath, args: [fixtureBinPath('basic')] } } }),
    );
    const target = `${process.execPath} -e`;

    const untrusted = await run(['mcp', 'list']);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toBe('');
    const lines = untrusted.stdout.split('\n');
    expect(lines).toContain(`✓ mine: ${process.execPath} ${fixtureBinPath('basic')} (stdio) - Connected (MCP 2025-11-25) [user]`);
    const blocked = lines.find((line) => line.startsWith('⛔ cloned: '));
    expect(blocked?.startsWith(`⛔ cloned: ${target}`)).toBe(true);
    expect(blocked?.endsWith(BLOCKED)).toBe(true);
    expect(existsSync(marker)).toBe(false);

    const trusted = await run(['trust']);
    const { command, args } = markingServer(marker);
    expect(trusted).toEqual({
      code: 0,
      stdout:
        `Trusted ${place.cwd}.\nMCP servers of its project settings that may start, exactly as listed:\n` +
        `  cloned: ${[command, ...args].map((part) => JSON.stringify(part)).join(' ')}\n` +
        `A server added to its project settings later, or whose command, arguments, working folder, environment, URL, headers or trust change, is blocked until you run "toolhost trust" in ${place.cwd} again.\n`,
      stderr: '',
    });
    expect(JSON.parse(await readFile(join(place.home, '.toolhost', 'trusted-folders.json'), 'utf8'))).toEqual({
      [place.cwd]: {
        trusted: true,
        pinnedServers: {
          [place.cwd]: { cloned: { digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown, launch: { command, args } } },
        },
      },
    });
    const live = await run(['mcp', 'list']);
    expect(
      live.stdout
        .split('\n')
        .find((line) => line.startsWith('✓ cloned: '))
        ?.endsWith('(stdio) - Connected (MCP 2025-11-25) [project]'),
    ).toBe(true);
    expect(await readFile(marker, 'utf8')).toBe('spawned');
    expect((await run(['trust'])).stdout.split('\n')[0]).toBe(`${place.cwd} is already trusted.`);

    await rm(marker);
    expect(await run(['untrust'])).toEqual({
      code: 0,
      stdout: `${place.cwd} is no longer trusted: MCP servers in its project settings are blocked.\n`,
      stderr: '',
    });
    const again = await run(['mcp', 'list']);
    expect(
      again.stdout
        .split('\n')
        .find((line) => line.startsWith('⛔ cloned: '))
        ?.endsWith(BLOCKED),
    ).toBe(true);
    expect(existsSync(marker)).toBe(false);
    expect((await run(['untrust'])).stdout).toBe(`${place.cwd} is not trusted.\n`);
  });

  it('trusts a subfolder of a trusted folder, given as an argument', async () => {
    const sub = join(place.cwd, 'packages', 'app');
    await put(join(sub, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers: { nested: markingServer(marker) } }));
    expect((await run(['mcp', 'list'], sub)).stdout).toContain(BLOCKED);
    expect(existsSync(marker)).toBe(false);
    expect((await run(['trust', join('..', 'clones')], place.home)).stdout.split('\n')[0]).toBe(`Trusted ${join(root, 'clones')}.`);
    // The parent's trust covers the subfolder, but its servers were never looked at: blocked until trusted there.
    expect((await run(['mcp', 'list'], sub)).stdout).toContain(
      'Blocked (not trusted yet; check it, then run "toolhost trust" again) [project]',
    );
    expect(existsSync(marker)).toBe(false);
    expect((await run(['trust'], sub)).stdout.split('\n')[0]).toBe(
      `${sub} is already trusted (through ${join(root, 'clones')}); its MCP servers are pinned again as they are now.`,
    );
    expect((await run(['mcp', 'list'], sub)).stdout).toMatch(/✓ nested: .* \(stdio\) - Connected \(MCP 2025-11-25\) \[project\]/);
    expect(existsSync(marker)).toBe(true);
  });

  it('mcp add -s project in an untrusted folder writes the entry and says it starts only once trusted', async () => {
    const added = await run(['mcp', 'add', 'tool', 'node', 'server.js']);
    expect(added).toEqual({
      code: 0,
      stdout: `MCP server "tool" added to project settings. (stdio)\nNote: this folder is not trusted, so "tool" starts only once it is: run "toolhost trust" in ${place.cwd}.\n`,
      stderr: '',
    });
    expect(JSON.parse(await readFile(join(place.cwd, '.toolhost', 'settings.json'), 'utf8'))).toEqual({
      mcpServers: { tool: { command: 'node', args: ['server.js'] } },
    });
    expect((await run(['mcp', 'add', '-s', 'user', 'other', 'node'])).stdout).toBe('MCP server "other" added to user settings. (stdio)\n');
    expect((await run(['mcp', 'list', '--no-connect'])).stdout.split('\n').slice(2, -1)).toEqual([
      '• other: node (stdio) - Enabled [user]',
      `⛔ tool: node server.js ${BLOCKED}`,
    ]);
    const enable = await run(['mcp', 'enable', 'tool']);
    expect([enable.code, enable.stderr]).toEqual([1, expect.stringContaining('Error [SERVER_BLOCKED]: ') as unknown]);
    expect(enable.stderr).toContain('run "toolhost trust" in');
  });

  it('keeps trust per --app-dir, and fails clearly for a folder that does not exist', async () => {
    await put(join(place.cwd, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { g: { command: 'gemini-tool' } } }));
    expect((await run(['trust'])).code).toBe(0);
    expect((await run(['--app-dir', '.gemini', 'mcp', 'list', '--no-connect'])).stdout).toContain(
      '⛔ g: gemini-tool (stdio) - Blocked (project folder not trusted: run "toolhost --app-dir .gemini trust") [project]',
    );
    const added = await run(['--app-dir', '.gemini', 'mcp', 'add', 'h', 'x']);
    expect(added.stdout).toContain('run "toolhost --app-dir .gemini trust" in');
    expect((await run(['--app-dir', '.gemini', 'trust'])).code).toBe(0);
    expect((await run(['--app-dir', '.gemini', 'mcp', 'list', '--no-connect'])).stdout).toContain(
      '• g: gemini-tool (stdio) - Enabled [project]',
    );
    const missing = await run(['trust', 'no-such-folder']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^Error \[FOLDER_NOT_FOUND\]: .*no-such-folder is not an existing folder/);
  });

  it('warns that trusting the home folder trusts everything under it', async () => {
    const result = await run(['trust'], place.home);
    expect(result.stdout).toContain(`Note: this trusts every folder under ${place.home}`);
  });
});

describe('trust is pinned to what was trusted', () => {
  const projectFile = () => join(place.cwd, '.toolhost', 'settings.json');
  const basic = () => ({ command: process.execPath, args: [fixtureBinPath('basic')] });
  const line = (stdout: string, name: string) => stdout.split('\n').find((text) => text.includes(` ${name}: `));

  it('blocks a project server whose command changed after "toolhost trust", showing the change, and never runs it until trusted again', async () => {
    await put(projectFile(), JSON.stringify({ mcpServers: { tool: basic() } }));
    expect((await run(['trust'])).code).toBe(0);
    expect(line((await run(['mcp', 'list'])).stdout, 'tool')).toMatch(/^✓ tool: .* - Connected \(MCP 2025-11-25\) \[project\]$/);

    // The same name now runs a shell that would leave a marker file.
    const evil = {
      command: '/bin/sh',
      args: ['-c', 'echo spawned > "$0"; exec "$1" "$2"', marker, process.execPath, fixtureBinPath('basic')],
    };
    await put(projectFile(), JSON.stringify({ mcpServers: { tool: evil } }));
    const listed = await run(['mcp', 'list']);
    expect(listed.code).toBe(0);
    const blocked = line(listed.stdout, 'tool');
    expect(blocked?.startsWith('⛔ tool: /bin/sh -c')).toBe(true);
    expect(blocked).toContain(`(changed since trusted: command: ${JSON.stringify(process.execPath)} → "/bin/sh"; args: `);
    expect(blocked?.endsWith('; check it, then run "toolhost trust" again) [project]')).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const enable = await run(['mcp', 'enable', 'tool']);
    expect([enable.code, enable.stderr]).toEqual([1, expect.stringContaining('Error [SERVER_BLOCKED]: ') as unknown]);
    expect(enable.stderr).toContain(
      `changed since the folder was trusted (command: ${JSON.stringify(process.execPath)} → "/bin/sh"; args: `,
    );
    expect(enable.stderr).toContain(`run "toolhost trust" in ${place.cwd} again`);

    const again = await run(['trust']);
    expect(again.stdout.split('\n').slice(0, 3)).toEqual([
      `${place.cwd} is already trusted; its MCP servers are pinned again as they are now.`,
      'MCP servers of its project settings that may start, exactly as listed:',
      `  tool: ${[evil.command, ...evil.args].map((part) => JSON.stringify(part)).join(' ')}`,
    ]);
    expect(line((await run(['mcp', 'list'])).stdout, 'tool')).toMatch(/^✓ tool: .* - Connected \(MCP 2025-11-25\) \[project\]$/);
    expect(await readFile(marker, 'utf8')).toBe('spawned\n');
  });

  it('does not let "trust": true written after "toolhost trust" skip anything: the entry is blocked', async () => {
    await put(projectFile(), JSON.stringify({ mcpServers: { tool: basic() } }));
    expect((await run(['trust'])).code).toBe(0);
    await put(
      projectFile(),
      JSON.stringify({ mcpServers: { tool: { ...basic(), trust: true }, added: { ...markingServer(marker), trust: true } } }),
    );
    const listed = (await run(['mcp', 'list'])).stdout;
    expect(line(listed, 'tool')).toMatch(
      / - Blocked \(changed since trusted: trust: \(not set\) → true; check it, then run "toolhost trust" again\) \[project\]$/,
    );
    expect(line(listed, 'added')).toMatch(/ - Blocked \(not trusted yet; check it, then run "toolhost trust" again\) \[project\]$/);
    expect(existsSync(marker)).toBe(false);
    const trusted = await run(['trust']);
    expect(trusted.stdout).toContain(
      `  tool: ${[process.execPath, fixtureBinPath('basic')].map((part) => JSON.stringify(part)).join(' ')} (trust: true, tools run without confirmation)\n`,
    );
  });

  it('lists each argument JSON-quoted, so ["a b"] and ["a", "b"] look different', async () => {
    await put(
      projectFile(),
      JSON.stringify({
        mcpServers: {
          one: { command: 'run tool', args: ['a b'] },
          two: { command: 'run', args: ['tool', 'a', 'b'], cwd: 'sub dir', env: { TOKEN: '$TOKEN' } },
          web: { httpUrl: 'https://example.com/mcp?x="1"', headers: { Authorization: 'Bearer $T' } },
        },
      }),
    );
    const result = await run(['trust']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(1, 5)).toEqual([
      'MCP servers of its project settings that may start, exactly as listed:',
      '  one: "run tool" "a b"',
      '  two: "run" "tool" "a" "b" (cwd "sub dir"; env TOKEN)',
      '  web: "https://example.com/mcp?x=\\"1\\"" (http; headers Authorization)',
    ]);
  });

  it('blocks every project server of a folder trusted before servers were pinned, until it is trusted again', async () => {
    await put(projectFile(), JSON.stringify({ mcpServers: { old: markingServer(marker) } }));
    await put(join(place.home, '.toolhost', 'trusted-folders.json'), JSON.stringify({ [place.cwd]: { trusted: true } }));
    const listed = await run(['mcp', 'list']);
    expect(line(listed.stdout, 'old')).toMatch(/ - Blocked \(not trusted yet; check it, then run "toolhost trust" again\) \[project\]$/);
    expect(existsSync(marker)).toBe(false);
    expect((await run(['trust'])).stdout.split('\n')[0]).toBe(
      `${place.cwd} is already trusted; its MCP servers are pinned again as they are now.`,
    );
    expect(line((await run(['mcp', 'list'])).stdout, 'old')).toMatch(/ - Connected \(MCP 2025-11-25\) \[project\]$/);
    expect(existsSync(marker)).toBe(true);
  });
});
