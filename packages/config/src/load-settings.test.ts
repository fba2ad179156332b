import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';

let root: string;
let home: string;
let project: string;
let system: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
const userFile = () => join(home, '.toolhost', 'settings.json');
const projectFile = () => join(project, '.toolhost', 'settings.json');
// These tests are about merging, so the project is trusted; folder-trust.test.ts covers trust.
const load = (extra: object = {}) =>
  loadSettings({ homeDir: home, projectDir: project, systemSettingsPath: system, env: {}, projectTrust: true, ...extra });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-load-'));
  home = join(root, 'home');
  project = join(root, 'project');
  system = join(root, 'etc', 'settings.json');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadSettings', () => {
  it('returns nothing, and no error, when no file exists', async () => {
    const settings = await load();
    expect(settings.servers).toEqual([]);
    expect(settings.errors).toEqual([]);
    expect(settings.files.map((file) => [file.scope, file.exists])).toEqual([
      ['user', false],
      ['project', false],
      ['system', false],
    ]);
  });

  it('merges scopes: a higher scope replaces the whole entry, and the order is first appearance user → project → system', async () => {
    await put(
      userFile(),
      '{"mcpServers": {"u1": {"command": "u1"}, "shared": {"command": "from-user", "trust": true}, "u2": {"command": "u2"}}}',
    );
    await put(projectFile(), '// project\n{"mcpServers": {"p1": {"command": "p1"}, "shared": {"url": "http://project"}}}');
    await put(system, '{"mcpServers": {"s1": {"httpUrl": "http://s1"}, "u2": {"command": "system-u2"}}}');
    const settings = await load();
    expect(settings.servers.map((server) => [server.name, server.scope])).toEqual([
      ['u1', 'user'],
      ['shared', 'project'],
      ['u2', 'system'],
      ['p1', 'project'],
      ['s1', 'system'],
    ]);
    expect(settings.getServer('shared')?.config).toEqual({ url: 'http://project' });
    expect(settings.getServer('shared')?.filePath).toBe(projectFile());
    expect(settings.getServer('s1')?.transport).toEqual({ transport: 'http', target: 'http://s1', detected: false });
  });

  it('reads .gemini files unchanged when appDir is .gemini', async () => {
    await put(join(home, '.gemini', 'settings.json'), '{"mcpServers": {"g": {"command": "gemini-server"}}, "mcp": {"excluded": ["g"]}}');
    const settings = await load({ appDir: '.gemini' });
    expect(settings.servers.map((server) => server.name)).toEqual(['g']);
    expect(settings.getServerBlockReason('g')?.code).toBe('EXCLUDED');
    expect(settings.enablementFilePath).toBe(join(home, '.gemini', 'mcp-server-enablement.json'));
    expect((await load()).servers).toEqual([]);
  });

  it('does not let one bad entry or one bad file stop the others', async () => {
    await put(userFile(), '{"mcpServers": {"ok": {"command": "x"}, "bad": {"args": []}}}');
    await put(projectFile(), '{"mcpServers": {,}}');
    const settings = await load();
    expect(settings.servers.map((server) => server.name)).toEqual(['ok']);
    expect(settings.errors.map((error) => [error.code, error.filePath])).toEqual([
      ['MISSING_TRANSPORT', userFile()],
      ['FILE_MALFORMED', projectFile()],
    ]);
  });

  it('does not fall back to a lower scope when the higher entry is invalid', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "good"}}}');
    await put(projectFile(), '{"mcpServers": {"a": {"command": 42}}}');
    const settings = await load();
    expect(settings.servers).toEqual([]);
    expect(settings.errors[0]).toMatchObject({ code: 'INVALID_TYPE', jsonPath: 'mcpServers.a.command', serverName: 'a' });
  });

  it('reports an unreadable file with FILE_UNREADABLE', async () => {
    await mkdir(projectFile(), { recursive: true });
    await put(userFile(), '{"mcpServers": {"a": {"command": "x"}}}');
    const settings = await load();
    expect(settings.servers.map((server) => server.name)).toEqual(['a']);
    expect(settings.errors).toHaveLength(1);
    expect(settings.errors[0]).toMatchObject({ code: 'FILE_UNREADABLE', filePath: projectFile() });
  });

  it('skips the project scope when the project is the home directory', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "x"}}}');
    const settings = await load({ projectDir: home });
    expect(settings.servers.map((server) => [server.name, server.scope])).toEqual([['a', 'user']]);
    expect(settings.files.map((file) => file.scope)).toEqual(['user', 'system']);
  });

  it('expands variables from the env option, and keeps the written form for display', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "x", "args": ["--token", "$SECRET"], "env": {"TOKEN": "$SECRET"}}}}');
    const server = (await load({ env: { SECRET: 's3' } })).getServer('a');
    expect(server?.config).toEqual({ command: 'x', args: ['--token', 's3'], env: { TOKEN: 's3' } });
    expect(server?.configAsWritten.args).toEqual(['--token', '$SECRET']);
    expect(server?.transport).toEqual({ transport: 'stdio', target: 'x --token $SECRET', detected: false });
  });

  it('intersects allow-lists across scopes, unions exclude-lists, and compares names case-insensitively', async () => {
    await put(
      userFile(),
      '{"mcpServers": {"A": {"command": "a"}, "b": {"command": "b"}, "c": {"command": "c"}, "d": {"command": "d"}}, "mcp": {"allowed": ["a", "B", "c"], "excluded": ["C"]}}',
    );
    await put(projectFile(), '{"mcp": {"allowed": ["A", "b", "d"], "excluded": []}}');
    const settings = await load();
    expect(settings.allowed).toEqual(['a', 'B']);
    expect(settings.excluded).toEqual(['C']);
    expect(settings.servers.map((server) => [server.name, server.blockReason?.code])).toEqual([
      ['A', undefined],
      ['b', undefined],
      ['c', 'EXCLUDED'],
      ['d', 'NOT_ALLOWED'],
    ]);
    expect(settings.isServerAllowed('a')).toBe(true);
  });

  it('blocks every server when the allow-lists have nothing in common, or one is empty', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "a"}}, "mcp": {"allowed": ["a"]}}');
    await put(projectFile(), '{"mcp": {"allowed": []}}');
    const settings = await load();
    expect(settings.allowed).toEqual([]);
    expect(settings.getServerBlockReason('a')?.code).toBe('NOT_ALLOWED');
  });

  it('blocks every server when a list is malformed', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "a"}}, "mcp": {"excluded": "b"}}');
    const settings = await load();
    expect(settings.getServer('a')?.blockReason?.code).toBe('INVALID_LIST');
    expect(settings.errors[0]).toMatchObject({ code: 'INVALID_TYPE', jsonPath: 'mcp.excluded' });
  });

  it('reads the enablement file, with normalized names', async () => {
    await put(userFile(), '{"mcpServers": {"GitHub": {"command": "a"}, "other": {"command": "b"}}}');
    await put(join(home, '.toolhost', 'mcp-server-enablement.json'), '{"github": {"enabled": false}, "other": {"enabled": true}}');
    const settings = await load();
    expect(settings.servers.map((server) => [server.name, server.enabled])).toEqual([
      ['GitHub', false],
      ['other', true],
    ]);
    expect(settings.isServerEnabled(' GITHUB ')).toBe(false);
  });

  it('reports a malformed enablement file and treats every server as enabled', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "a"}}}');
    await put(join(home, '.toolhost', 'mcp-server-enablement.json'), '{"a": {"enabled": false}');
    const settings = await load();
    expect(settings.getServer('a')?.enabled).toBe(true);
    expect(settings.errors[0]?.code).toBe('FILE_MALFORMED');
  });

  it('warns when two servers differ only in letter case', async () => {
    await put(userFile(), '{"mcpServers": {"github": {"command": "a"}}}');
    await put(projectFile(), '{"mcpServers": {"GitHub": {"command": "b"}}}');
    const settings = await load();
    expect(settings.servers).toHaveLength(2);
    expect(settings.warnings.map((warning) => warning.code)).toEqual(['SERVER_NAME_CASE_COLLISION']);
    expect(settings.getServer('GitHub')?.scope).toBe('project');
  });
});
