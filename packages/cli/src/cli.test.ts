import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { trustFolder } from '@toolhost/config';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBinBuilt, put, runToolhost, type RunResult } from './testing/run-toolhost.js';

// These tests drive the built executable, as a user would: build first (`pnpm --filter @toolhost/cli build`).
let root: string;
let home: string;
let project: string;
const projectFile = () => join(project, '.toolhost', 'settings.json');
const userFile = () => join(home, '.toolhost', 'settings.json');

function run(args: string[], cwd = project, extraEnv: Record<string, string> = {}): Promise<RunResult> {
  return runToolhost(args, { cwd, home, env: { TOOLHOST_SYSTEM_SETTINGS_PATH: join(root, 'system.json'), ...extraEnv } });
}

/** Every file under `root` with its bytes, to prove that a failed command changed nothing. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        out[`${relative(root, path)}/`] = '';
        await walk(path);
      } else {
        out[relative(root, path)] = await readFile(path, 'latin1');
      }
    }
  };
  await walk(root);
  return out;
}

async function expectFailure(args: string[], code: string, cwd = project): Promise<RunResult> {
  const [result] = await expectFailures([[args, code]], cwd);
  return result!;
}

/**
 * Runs every command at once (one after the other, a dozen Node start-ups take most of a minute
 * on a busy machine); each fails with its code, and none changed anything on disk.
 */
async function expectFailures(cases: ReadonlyArray<readonly [string[], string]>, cwd = project): Promise<RunResult[]> {
  const before = await snapshot();
  const results = await Promise.all(cases.map(([args]) => run(args, cwd)));
  for (const [index, [args, code]] of cases.entries()) {
    const result = results[index]!;
    const what = args.join(' ');
    expect(result.code, what).toBe(1);
    expect(result.stdout, what).toBe('');
    expect(result.stderr.trimEnd().split('\n'), what).toHaveLength(1);
    expect(result.stderr, what).toMatch(new RegExp(`^Error \\[${code}\\]: `));
  }
  expect(await snapshot()).toEqual(before);
  return results;
}

const COMMENTED = `// Project settings for the team.
{
  /* Editor theme */
  "theme": "GitHub", // keep this

  "mcpServers": {
    // The first server.
    "first": {
      "command": "node", // runs the fixture
      "args": ["server.js"]
    }, // after first
    /* Second server, on one line */
    "second": { "httpUrl": "http://127.0.0.1:1/mcp" }
    // "old": { "command": "disabled-by-comment" }
  },

  // Trailing settings.
  "telemetry": false
}
`;

beforeAll(() => assertBinBuilt());
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-cli-'));
  home = join(root, 'home');
  project = join(home, 'work', 'project');
  await mkdir(project, { recursive: true });
  // These tests are about the settings, so the project folder is trusted (trust.test.ts covers trust).
  await trustProject();
});

/** What `mcp add` says about a project server added after the folder was trusted. */
const pinnedNote = (name: string): string =>
  `Note: the folder's trust covers the servers it had when it was trusted, so "${name}" starts once you run "toolhost trust" in ${project} again.\n`;

/** Trusts the project folder as it is now: trust is pinned to the project servers it saw. */
async function trustProject(): Promise<void> {
  await trustFolder({ homeDir: home, folder: project });
}
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('toolhost mcp add → list → remove', () => {
  it('round-trips a settings file full of comments byte for byte', async () => {
    await put(projectFile(), COMMENTED);
    const added = await run(['mcp', 'add', 'fs', 'npx', '-e', 'TOKEN=a=b', '--', '-y', '@scope/server', '--root', '.']);
    expect(added).toEqual({ code: 0, stdout: `MCP server "fs" added to project settings. (stdio)\n${pinnedNote('fs')}`, stderr: '' });
    const remote = await run([
      'mcp',
      'add',
      '-t',
      'http',
      'remote',
      'https://example.test/mcp',
      '-H',
      'Authorization: Bearer x:y',
      '--timeout',
      '5000',
      '--trust',
      '--description',
      'Remote',
      '--include-tools',
      'a, b',
      '--exclude-tools',
      'c',
    ]);
    expect(remote.stdout).toBe(`MCP server "remote" added to project settings. (http)\n${pinnedNote('remote')}`);

    const edited = await readFile(projectFile(), 'utf8');
    expect(
      edited.startsWith(
        COMMENTED.slice(0, COMMENTED.indexOf('// "old"')).replace('"http://127.0.0.1:1/mcp" }', '"http://127.0.0.1:1/mcp" },'),
      ),
    ).toBe(true);
    expect(edited).toContain('  },\n\n  // Trailing settings.\n  "telemetry": false\n}\n');
    expect(edited).toContain('"args": ["-y", "@scope/server", "--root", "."]');
    expect(edited).toContain('"TOKEN": "a=b"');
    expect(edited).toContain('"Authorization": "Bearer x:y"');
    expect(edited).toContain('"includeTools": ["a", "b"]');

    await trustProject();
    const list = await run(['mcp', 'list', '--no-connect']);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    expect(list.stdout).toBe(
      [
        'Configured MCP servers:',
        '',
        '• first: node server.js (stdio) - Enabled [project]',
        '• second: http://127.0.0.1:1/mcp (http) - Enabled [project]',
        '• fs: npx -y @scope/server --root . (stdio) - Enabled [project]',
        '• remote: https://example.test/mcp (http) - Enabled [project]',
        '',
      ].join('\n'),
    );

    expect(await run(['mcp', 'remove', 'fs'])).toEqual({ code: 0, stdout: 'Server "fs" removed from project settings.\n', stderr: '' });
    expect((await run(['mcp', 'remove', 'remote', '-s', 'project'])).code).toBe(0);
    expect(await readFile(projectFile(), 'utf8')).toBe(COMMENTED);
  });

  it('round-trips the user scope and keeps the file mode', async () => {
    await put(userFile(), COMMENTED);
    const { mode } = await stat(userFile());
    expect((await run(['mcp', 'add', '--scope', 'user', '--transport', 'sse', 'events', 'http://127.0.0.1:1/sse'])).stdout).toBe(
      'MCP server "events" added to user settings. (sse)\n',
    );
    expect((await stat(userFile())).mode).toBe(mode);
    expect((await run(['mcp', 'list', '--no-connect'])).stdout).toContain('• events: http://127.0.0.1:1/sse (sse) - Enabled [user]');
    expect((await run(['mcp', 'remove', '-s', 'user', 'events'])).code).toBe(0);
    expect(await readFile(userFile(), 'utf8')).toBe(COMMENTED);
    expect(existsSync(projectFile())).toBe(false);
  });

  it('says so when it updates an existing server', async () => {
    await run(['mcp', 'add', 'a', 'old']);
    const again = await run(['mcp', 'add', '--type', 'sse', 'a', 'http://127.0.0.1:1/sse']);
    expect(again.stdout).toBe(
      `MCP server "a" is already configured within project settings.\nMCP server "a" updated in project settings.\n${pinnedNote('a')}`,
    );
    expect(JSON.parse(await readFile(projectFile(), 'utf8'))).toEqual({
      mcpServers: { a: { url: 'http://127.0.0.1:1/sse', type: 'sse' } },
    });
  });

  it('passes unknown options on to the server', async () => {
    await run(['mcp', 'add', 'py', 'python', 'server.py', '--port', '8080']);
    expect(JSON.parse(await readFile(projectFile(), 'utf8')).mcpServers.py).toEqual({
      command: 'python',
      args: ['server.py', '--port', '8080'],
    });
    await run(['mcp', 'add', 'sep', 'cmd', '-e', 'A=1', '--', '--trust', '-e', '--', 'x']);
    expect(JSON.parse(await readFile(projectFile(), 'utf8')).mcpServers.sep).toEqual({
      command: 'cmd',
      args: ['--trust', '-e', '--', 'x'],
      env: { A: '1' },
    });
  });

  it('writes an empty tool list for --include-tools "" and --include-tools=, so no tool is enabled', async () => {
    const empty = await run(['mcp', 'add', 'none', 'node', 'srv.js', '--include-tools', '']);
    expect(empty).toEqual({
      code: 0,
      stdout:
        'MCP server "none" added to project settings. (stdio)\n' +
        'Note: --include-tools is empty, so no tool of "none" is registered; list the tools to include.\n' +
        pinnedNote('none'),
      stderr: '',
    });
    expect((await run(['mcp', 'add', 'none2', 'node', '--include-tools=', '--exclude-tools='])).code).toBe(0);
    expect((await run(['mcp', 'add', 'some', 'node', '--include-tools', ' a, ,b', '--exclude-tools', ''])).code).toBe(0);
    expect((await run(['mcp', 'add', 'all', 'node'])).code).toBe(0);
    expect(JSON.parse(await readFile(projectFile(), 'utf8')).mcpServers).toEqual({
      none: { command: 'node', args: ['srv.js'], includeTools: [] },
      none2: { command: 'node', includeTools: [], excludeTools: [] },
      some: { command: 'node', includeTools: ['a', 'b'], excludeTools: [] },
      all: { command: 'node' },
    });
  });

  it('takes the command after -- when no command comes before it', async () => {
    await run(['mcp', 'add', 'fs', '-e', 'A=1', '--', 'npx', '-y', '@scope/server', '--root', '.']);
    expect(JSON.parse(await readFile(projectFile(), 'utf8')).mcpServers.fs).toEqual({
      command: 'npx',
      args: ['-y', '@scope/server', '--root', '.'],
      env: { A: '1' },
    });
    await expectFailure(['mcp', 'add', 'nothing'], 'USAGE');
    await expectFailure(['mcp', 'add', 'nothing', '--'], 'USAGE');
  });

  it('writes the user scope from the home directory', async () => {
    expect((await run(['mcp', 'add', '-s', 'user', 'a', 'x'], home)).code).toBe(0);
    expect(existsSync(userFile())).toBe(true);
  });
});

describe('toolhost mcp list', () => {
  it('says when nothing is configured', async () => {
    expect(await run(['mcp', 'list'])).toEqual({ code: 0, stdout: 'No MCP servers configured.\n', stderr: '' });
  });

  it('shows scope, blocked and disabled servers, merged across scopes', async () => {
    await put(
      userFile(),
      '{"mcpServers": {"u": {"command": "u"}, "shared": {"command": "user"}, "Bad": {"command": "b"}}, "mcp": {"excluded": ["bad"]}}',
    );
    await put(projectFile(), '{"mcpServers": {"shared": {"url": "http://127.0.0.1:1/mcp"}, "p": {"command": "p"}}}');
    await trustProject();
    expect(await run(['mcp', 'disable', 'P'])).toEqual({ code: 0, stdout: 'MCP server "p" disabled.\n', stderr: '' });
    const list = await run(['mcp', 'list', '--no-connect']);
    expect(list.stdout.split('\n').slice(2, -1)).toEqual([
      '• u: u (stdio) - Enabled [user]',
      '• shared: http://127.0.0.1:1/mcp (http) - Enabled [project]',
      '⛔ Bad: b (stdio) - Blocked (in mcp.excluded) [user]',
      '○ p: p (stdio) - Disabled [project]',
    ]);
    expect((await run(['mcp', 'enable', 'p'])).stdout).toBe('MCP server "p" enabled.\n');
    expect((await run(['mcp', 'list', '--no-connect'])).stdout).toContain('• p: p (stdio) - Enabled [project]');
  });

  it('lists the good servers and exits 1 when an entry is bad', async () => {
    await put(projectFile(), '{"mcpServers": {"good": {"command": "x"}, "typo": {"command": "x", "args": "-y"}, "none": {"cwd": "."}}}');
    await trustProject();
    const list = await run(['mcp', 'list', '--no-connect']);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain('• good: x (stdio) - Enabled [project]');
    expect(list.stdout).not.toContain('typo');
    expect(
      list.stderr
        .trimEnd()
        .split('\n')
        .map((line) => line.slice(0, line.indexOf(':'))),
    ).toEqual(['Error [INVALID_TYPE]', 'Error [MISSING_TRANSPORT]']);
    expect(list.stderr).toContain('mcpServers.typo.args');
  });

  it('reads the files of another program with --app-dir', async () => {
    await put(join(project, '.gemini', 'settings.json'), '{"mcpServers": {"g": {"command": "gemini-tool"}}}');
    await trustFolder({ homeDir: home, appDir: '.gemini', folder: project });
    expect((await run(['--app-dir', '.gemini', 'mcp', 'list', '--no-connect'])).stdout).toContain(
      '• g: gemini-tool (stdio) - Enabled [project]',
    );
  });

  it('shows commands as written, without expanding secrets', async () => {
    await put(projectFile(), '{"mcpServers": {"gh": {"command": "npx", "args": ["srv", "--token", "$GH_TOKEN"]}}}');
    await trustProject();
    const list = await run(['mcp', 'list', '--no-connect'], project, { GH_TOKEN: 'secret-value' });
    expect(list.stdout).toContain('• gh: npx srv --token $GH_TOKEN (stdio) - Enabled [project]');
    expect(list.stdout + list.stderr).not.toContain('secret-value');
  });

  it('prints unknown fields as warnings', async () => {
    await put(projectFile(), '{"mcpServers": {"a": {"command": "x", "comand": "y"}}}');
    const list = await run(['mcp', 'list', '--no-connect']);
    expect(list.code).toBe(0);
    expect(list.stderr).toMatch(/^Warning \[UNKNOWN_FIELD\]: .*mcpServers\.a\.comand/);
  });
});

describe('bad input fails with a code, exit code 1 and no change on disk', () => {
  beforeEach(async () => {
    await put(projectFile(), COMMENTED);
  });

  it('a malformed file', async () => {
    await put(projectFile(), '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": 1\n}\n');
    const result = await expectFailure(['mcp', 'add', 'c', 'node'], 'FILE_MALFORMED');
    expect(result.stderr).toContain(`${projectFile()}:4:5`);
    await expectFailure(['mcp', 'remove', 'a'], 'FILE_MALFORMED');
    const list = await run(['mcp', 'list']);
    expect([list.code, list.stderr.slice(0, 22)]).toEqual([1, 'Error [FILE_MALFORMED]']);
  });

  it('a wrong type', async () => {
    await put(projectFile(), '{ "mcpServers": ["not", "an", "object"] }');
    const result = await expectFailure(['mcp', 'add', 'c', 'node'], 'INVALID_TYPE');
    expect(result.stderr).toContain('mcpServers');
  });

  it('an entry with none of command, url, httpUrl', async () => {
    await expectFailure(['mcp', 'add', 'c', ''], 'MISSING_TRANSPORT');
  });

  it('an unreadable file', async () => {
    await rm(projectFile());
    await mkdir(projectFile());
    await expectFailure(['mcp', 'add', 'c', 'node'], 'FILE_UNREADABLE');
    const list = await run(['mcp', 'list']);
    expect([list.code, list.stderr.slice(0, 23)]).toEqual([1, 'Error [FILE_UNREADABLE]']);
  });

  it('project scope in the home directory', async () => {
    const [result] = await expectFailures(
      [
        [['mcp', 'add', 'c', 'node'], 'PROJECT_SCOPE_IN_HOME'],
        [['mcp', 'add', '--scope=project', 'c', 'node'], 'PROJECT_SCOPE_IN_HOME'],
        [['mcp', 'remove', 'c'], 'PROJECT_SCOPE_IN_HOME'],
      ],
      home,
    );
    expect(result!.stderr).toBe('Error [PROJECT_SCOPE_IN_HOME]: Please use --scope user to edit settings in the home directory.\n');
  });

  it('malformed flags', async () => {
    await expectFailures([
      [['mcp', 'add', 'c', 'node', '-e', 'NOVALUE'], 'USAGE'],
      [['mcp', 'add', 'c', 'node', '-e', '=x'], 'USAGE'],
      [['mcp', 'add', '-t', 'http', 'c', 'http://x', '-H', 'NoColon'], 'USAGE'],
      [['mcp', 'add', '-t', 'http', 'c', 'http://x', '-H', 'Empty:'], 'USAGE'],
      [['mcp', 'add', 'c', 'node', '-H', 'A: b'], 'USAGE'],
      [['mcp', 'add', '-t', 'sse', 'c', 'http://x', 'extra'], 'USAGE'],
      [['mcp', 'add', '-t', 'sse', 'c', 'http://x', '-e', 'A=b'], 'USAGE'],
    ]);
  });

  it('bad timeouts and command-line usage', async () => {
    await expectFailures([
      ...['abc', '-5', '0', '1.5'].map((timeout): [string[], string] => [['mcp', 'add', 'c', 'node', `--timeout=${timeout}`], 'USAGE']),
      [['mcp', 'add', '-t', 'ws', 'c', 'node'], 'USAGE'],
      [['mcp', 'add', '-s', 'system', 'c', 'node'], 'USAGE'],
      [['mcp', 'add', 'only-a-name'], 'USAGE'],
      [['mcp', 'list', '--bogus'], 'USAGE'],
      [['mcp', 'add', '__proto__', 'node'], 'INVALID_SERVER_NAME'],
    ]);
  });

  it('unknown and blocked servers', async () => {
    const [remove, enable] = await expectFailures([
      [['mcp', 'remove', 'missing'], 'SERVER_NOT_FOUND'],
      [['mcp', 'enable', 'missing'], 'SERVER_NOT_FOUND'],
      [['mcp', 'disable', 'missing'], 'SERVER_NOT_FOUND'],
    ]);
    expect(remove!.stderr).toContain('Server "missing" not found in project settings.');
    expect(enable!.stderr).toBe(
      "Error [SERVER_NOT_FOUND]: Server 'missing' not found. Use 'toolhost mcp list' to see available servers.\n",
    );
    await put(userFile(), '{ "mcp": { "allowed": ["second"] } }');
    const blocked = await expectFailure(['mcp', 'enable', 'first'], 'SERVER_BLOCKED');
    expect(blocked.stderr).toContain('mcp.allowed');
  });
});

describe('help', () => {
  it('is available on every command and exits 0', async () => {
    const commands = [
      ['--help'],
      ['mcp', '--help'],
      ['mcp', 'add', '--help'],
      ['mcp', 'list', '--help'],
      ['mcp', 'remove', '--help'],
      ['mcp', 'enable', '--help'],
      ['mcp', 'disable', '--help'],
      ['mcp', 'auth', '--help'],
      ['trust', '--help'],
      ['untrust', '--help'],
    ];
    // All at once: one after the other, ten Node start-ups take most of a minute on a busy machine.
    const results = await Promise.all(commands.map((args) => run(args)));
    for (const [index, args] of commands.entries()) {
      expect(results[index]!.code, args.join(' ')).toBe(0);
      expect(results[index]!.stdout, args.join(' ')).toMatch(/^Usage: toolhost/);
    }
    const [add, list, auth] = [results[2]!, results[3]!, results[7]!];
    for (const flag of [
      '--scope',
      '--transport',
      '--env',
      '--header',
      '--timeout',
      '--trust',
      '--description',
      '--include-tools',
      '--exclude-tools',
    ])
      expect(add.stdout).toContain(flag);
    expect(list.stdout).toContain('--no-connect');
    for (const flag of ['[name]', '--no-browser', '--no-connect']) expect(auth.stdout).toContain(flag);
    expect(auth.stdout).not.toContain('TOOLHOST_TEST_BROWSER');
  });

  it('shows the subcommands and exits 1 when none is given', async () => {
    const result = await run(['mcp']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Usage: toolhost mcp');
  });
});
