// How a stdio command is started on each platform. These run everywhere, with Windows inputs:
// a file system is described by the set of files that exist.
import { describe, expect, it } from 'vitest';
import { resolveSpawnCommand, type ResolveSpawnCommandInput, type SpawnPlan } from './resolve-spawn-command.js';

const NODEJS = 'C:\\Program Files\\nodejs';
const NPM_GLOBAL = 'C:\\Users\\ann\\AppData\\Roaming\\npm';
const CARGO = 'C:\\Users\\ann\\.local\\bin';
/** Node.js's installer layout, a global npm folder with a cmd-shim, and uv's executables. */
const FILES = new Set(
  [
    `${NODEJS}\\node.exe`,
    `${NODEJS}\\npx.cmd`,
    `${NODEJS}\\npm.cmd`,
    `${NODEJS}\\npx`,
    `${NODEJS}\\node_modules\\npm\\bin\\npx-cli.js`,
    `${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js`,
    `${NPM_GLOBAL}\\pnpm.cmd`,
    `${NPM_GLOBAL}\\pnpm`,
    `${CARGO}\\uvx.exe`,
    'C:\\work\\project\\npx.cmd',
    'C:\\work\\project\\tools\\serve.bat',
  ].map((path) => path.toLowerCase()),
);

function windows(command: string, args: readonly string[], overrides: Partial<ResolveSpawnCommandInput> = {}): SpawnPlan {
  return resolveSpawnCommand({
    command,
    args,
    platform: 'win32',
    env: { Path: `${NODEJS};"${NPM_GLOBAL}";${CARGO}`, PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.JS', ComSpec: 'C:\\Windows\\system32\\cmd.exe' },
    cwd: 'C:\\work\\project',
    // Windows file names are compared without regard to case.
    isFile: (path) => FILES.has(path.toLowerCase()),
    ...overrides,
  });
}

/** Arguments a server must receive exactly as written. */
const HOSTILE_ARGS = [
  'with space',
  'say "hi"',
  'a&b',
  'x|y',
  '%PATH%',
  '%%',
  '^caret^',
  '!VAR!',
  '<in>out',
  '(paren)',
  ';,=',
  'back\\slash\\',
  'C:\\dir with space\\',
  '\\"quoted\\"',
  '"',
  '',
  'a"&calc&"b',
];

/**
 * What a program started through `cmd.exe /d /s /c "<line>"` running a batch file that passes its
 * arguments on with `%*` receives, by cmd.exe's documented rules: its line is read once by
 * cmd.exe (carets escape the next character outside quotes; a quote not escaped toggles quoting,
 * inside which carets are kept) and once more as the batch file's line, then split into
 * arguments by the C runtime's rules.
 */
function receivedThroughBatch(line: string, batchPath: string): string[] {
  const readOnce = (text: string): string => {
    let out = '';
    let quoted = false;
    for (let index = 0; index < text.length; index++) {
      const char = text[index] ?? '';
      if (char === '"') quoted = !quoted;
      if (char === '^' && !quoted) {
        out += text[++index] ?? '';
        continue;
      }
      out += char;
    }
    return out;
  };
  expect(line.startsWith('"') && line.endsWith('"')).toBe(true);
  const first = readOnce(line.slice(1, -1));
  expect(first.startsWith(`${batchPath} `) || first === batchPath).toBe(true);
  return splitLikeRuntime(readOnce(first.slice(batchPath.length + 1)));
}

/** CommandLineToArgvW: backslashes before a quote are halved, an odd one escapes the quote. */
function splitLikeRuntime(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? '';
    if (char === '\\') {
      let count = 0;
      while (text[index] === '\\') {
        count++;
        index++;
      }
      if (text[index] === '"') {
        current += '\\'.repeat(Math.floor(count / 2));
        if (count % 2 === 1) current += '"';
        else {
          quoted = !quoted;
        }
      } else {
        current += '\\'.repeat(count);
        index--;
      }
      started = true;
      continue;
    }
    if (char === '"') {
      quoted = !quoted;
      started = true;
      continue;
    }
    if ((char === ' ' || char === '\t') && !quoted) {
      if (started) args.push(current);
      current = '';
      started = false;
      continue;
    }
    current += char;
    started = true;
  }
  if (started) args.push(current);
  return args;
}

describe('resolveSpawnCommand', () => {
  it('starts the command as given on POSIX, without looking at the disk', () => {
    const plan = resolveSpawnCommand({
      command: 'npx',
      args: ['-y', 'a&b'],
      platform: 'linux',
      env: { PATH: '/usr/bin' },
      cwd: '/work',
      isFile: () => {
        throw new Error('not used on POSIX');
      },
    });
    expect(plan).toEqual({ kind: 'spawn', file: 'npx', args: ['-y', 'a&b'], windowsVerbatimArguments: false, via: 'direct' });
  });

  it('runs npx.cmd as node.exe with npx-cli.js next to it, passing the arguments untouched (no cmd.exe)', () => {
    const plan = windows('npx', ['-y', '@modelcontextprotocol/server-memory', ...HOSTILE_ARGS]);
    expect(plan).toEqual({
      kind: 'spawn',
      via: 'node',
      file: `${NODEJS}\\node.exe`,
      args: [`${NODEJS}\\node_modules\\npm\\bin\\npx-cli.js`, '-y', '@modelcontextprotocol/server-memory', ...HOSTILE_ARGS],
      windowsVerbatimArguments: false,
      resolvedPath: `${NODEJS}\\npx.cmd`,
    });
  });

  it('does the same for npm (npm exec) and for npx.cmd named with its extension or another case', () => {
    expect(windows('npm', ['exec', 'pkg'])).toMatchObject({
      via: 'node',
      args: [`${NODEJS}\\node_modules\\npm\\bin\\npm-cli.js`, 'exec', 'pkg'],
    });
    expect(windows('NPX.CMD', ['pkg'])).toMatchObject({ via: 'node', file: `${NODEJS}\\node.exe` });
    expect(windows(`${NODEJS}\\npx.cmd`, ['pkg'])).toMatchObject({ via: 'node', file: `${NODEJS}\\node.exe` });
  });

  it('finds node.exe in PATH when it is not next to the npx shim', () => {
    const elsewhere = 'C:\\tools\\npm';
    const files = new Set(
      [`${elsewhere}\\npx.cmd`, `${elsewhere}\\node_modules\\npm\\bin\\npx-cli.js`, `${NODEJS}\\node.exe`].map((path) =>
        path.toLowerCase(),
      ),
    );
    const plan = windows('npx', ['pkg'], { env: { PATH: `${elsewhere};${NODEJS}` }, isFile: (path) => files.has(path.toLowerCase()) });
    expect(plan).toMatchObject({
      via: 'node',
      file: `${NODEJS}\\node.exe`,
      args: [`${elsewhere}\\node_modules\\npm\\bin\\npx-cli.js`, 'pkg'],
    });
  });

  it('starts an .exe directly (uvx), found with PATHEXT', () => {
    expect(windows('uvx', ['mcp-server-fetch', 'a&b'])).toEqual({
      kind: 'spawn',
      via: 'direct',
      file: `${CARGO}\\uvx.exe`,
      args: ['mcp-server-fetch', 'a&b'],
      windowsVerbatimArguments: false,
      resolvedPath: `${CARGO}\\uvx.exe`,
    });
  });

  it('runs another .cmd shim through cmd.exe with every argument arriving literally', () => {
    const plan = windows('pnpm', ['dlx', '@scope/server', ...HOSTILE_ARGS]);
    if (plan.kind !== 'spawn') throw new Error(`unexpected ${plan.kind}`);
    expect(plan).toMatchObject({
      via: 'cmd',
      file: 'C:\\Windows\\system32\\cmd.exe',
      windowsVerbatimArguments: true,
      resolvedPath: `${NPM_GLOBAL}\\pnpm.cmd`,
    });
    expect(plan.args.slice(0, 4)).toEqual(['/d', '/s', '/v:off', '/c']);
    expect(plan.args).toHaveLength(5);
    expect(receivedThroughBatch(plan.args[4] ?? '', `${NPM_GLOBAL}\\pnpm.cmd`)).toEqual(['dlx', '@scope/server', ...HOSTILE_ARGS]);
    // No metacharacter is left for cmd.exe to act on: each comes after a caret.
    expect(plan.args[4]?.slice(1, -1)).not.toMatch(/(?<!\^)[&|<>]/);
  });

  it('escapes the spaces of the batch file path once, and resolves a relative path against the working folder', () => {
    const plan = windows('.\\tools\\serve.bat', ['x']);
    expect(plan).toMatchObject({ via: 'cmd', resolvedPath: 'C:\\work\\project\\tools\\serve.bat' });
    const nodejs = windows('npx', ['x'], { isFile: (path) => path.toLowerCase() === `${NODEJS}\\npx.cmd`.toLowerCase() });
    if (nodejs.kind !== 'spawn') throw new Error(`unexpected ${nodejs.kind}`);
    // npx.cmd without npm's files next to it: through cmd.exe, its folder's space escaped.
    expect(nodejs.args[4]).toBe(`"C:\\Program^ Files\\nodejs\\npx.cmd ^^^"x^^^""`);
  });

  it('refuses an argument with a line break for a batch file, naming it', () => {
    expect(windows('pnpm', ['ok', 'two\nlines'])).toEqual({ kind: 'unsafe-argument', index: 1 });
    // node.exe reads its arguments itself: a line break is passed as it is.
    expect(windows('npx', ['two\nlines'])).toMatchObject({ kind: 'spawn', via: 'node' });
  });

  it('looks a bare name up in PATH only, never in the working folder', () => {
    // C:\work\project\npx.cmd exists, but PATH has its own npx.
    expect(windows('npx', ['x'])).toMatchObject({ resolvedPath: `${NODEJS}\\npx.cmd` });
    expect(windows('npx', ['x'], { env: { PATH: 'C:\\empty' } })).toEqual({ kind: 'not-found' });
  });

  it('says not-found for a command with no file in PATH, and uses the default PATHEXT when none is set', () => {
    expect(windows('toolhost-no-such-command', [])).toEqual({ kind: 'not-found' });
    expect(windows('uvx', [], { env: { PATH: CARGO } })).toMatchObject({ via: 'direct', file: `${CARGO}\\uvx.exe` });
    expect(windows('npx', ['pkg'], { env: { PATH: NODEJS } })).toMatchObject({ via: 'node' });
  });

  it('runs cmd.exe by name when COMSPEC is not set', () => {
    expect(windows('pnpm', ['x'], { env: { PATH: NPM_GLOBAL } })).toMatchObject({ via: 'cmd', file: 'cmd.exe' });
  });
});
