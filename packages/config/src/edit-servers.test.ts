import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addServer } from './add-server.js';
import { ConfigError } from './config-error.js';
import { loadSettings } from './load-settings.js';
import { removeServer } from './remove-server.js';
import { setServerEnabled } from './set-server-enabled.js';
import { writeFileAtomic } from './write-file-atomic.js';

let root: string;
let home: string;
let project: string;
const projectFile = () => join(project, '.toolhost', 'settings.json');
const location = () => ({ homeDir: home, projectDir: project, env: {}, projectTrust: true as const });

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
async function expectCode(promise: Promise<unknown>, code: string): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ConfigError.isInstance(error)).toBe(true);
  expect((error as ConfigError).code).toBe(code);
  return error as ConfigError;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-edit-'));
  home = join(root, 'home');
  project = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('addServer and removeServer', () => {
  it('creates the file (mode 0600), then updates and removes the entry', async () => {
    const added = await addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'npx', args: ['-y', 'srv'] } });
    expect(added).toEqual({ filePath: projectFile(), replaced: false });
    expect(JSON.parse(await readFile(projectFile(), 'utf8'))).toEqual({ mcpServers: { a: { command: 'npx', args: ['-y', 'srv'] } } });
    expect((await stat(projectFile())).mode & 0o777).toBe(0o600);
    expect((await addServer({ ...location(), scope: 'project', name: 'a', config: { url: 'http://x', type: 'sse' } })).replaced).toBe(true);
    expect((await loadSettings(location())).getServer('a')?.transport.transport).toBe('sse');
    await removeServer({ ...location(), scope: 'project', name: 'a' });
    expect(JSON.parse(await readFile(projectFile(), 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('writes the user scope under the home directory', async () => {
    const { filePath } = await addServer({ ...location(), scope: 'user', name: 'u', config: { httpUrl: 'http://h' } });
    expect(filePath).toBe(join(home, '.toolhost', 'settings.json'));
  });

  it('keeps the mode of an existing file, edits through a symbolic link, and leaves no temporary file', async () => {
    const real = join(root, 'dotfiles', 'settings.json');
    await put(real, '{\n  // mine\n  "theme": "x"\n}\n');
    await chmod(real, 0o640);
    await mkdir(join(project, '.toolhost'), { recursive: true });
    await symlink(real, projectFile());
    await addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'x' } });
    expect((await stat(real)).mode & 0o777).toBe(0o640);
    expect(await readFile(real, 'utf8')).toBe(
      '{\n  // mine\n  "theme": "x",\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n',
    );
    expect(await readdir(join(root, 'dotfiles'))).toEqual(['settings.json']);
  });

  it('refuses bad input and leaves the file unchanged', async () => {
    const original = '{\n  // keep\n  "mcpServers": {}\n}\n';
    await put(projectFile(), original);
    await expectCode(addServer({ ...location(), scope: 'project', name: 'a', config: { args: ['x'] } }), 'MISSING_TRANSPORT');
    await expectCode(addServer({ ...location(), scope: 'project', name: 'a', config: { command: '' } }), 'MISSING_TRANSPORT');
    await expectCode(addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'x', timeout: -5 } }), 'INVALID_VALUE');
    await expectCode(
      addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'x', args: 'y' } as never }),
      'INVALID_TYPE',
    );
    await expectCode(addServer({ ...location(), scope: 'project', name: '__proto__', config: { command: 'x' } }), 'INVALID_SERVER_NAME');
    await expectCode(addServer({ ...location(), scope: 'project', name: ' ', config: { command: 'x' } }), 'INVALID_SERVER_NAME');
    await expectCode(removeServer({ ...location(), scope: 'project', name: 'missing' }), 'SERVER_NOT_FOUND');
    expect(await readFile(projectFile(), 'utf8')).toBe(original);
  });

  it('refuses an unusable URL or server name before writing, naming the field', async () => {
    const original = '{\n  // keep\n  "mcpServers": {}\n}\n';
    await put(projectFile(), original);
    const add = (name: string, config: Record<string, unknown>) => addServer({ ...location(), scope: 'project', name, config });
    const noHost = await expectCode(add('web', { httpUrl: 'https://' }), 'INVALID_VALUE');
    expect(noHost).toMatchObject({ jsonPath: 'mcpServers.web.httpUrl', serverName: 'web', filePath: projectFile() });
    await expectCode(add('web', { url: 'file:///etc/passwd', type: 'http' }), 'INVALID_VALUE');
    await expectCode(add('web', { url: 'https://a b' }), 'INVALID_VALUE');
    await expectCode(add('web', { url: 'https:example.com' }), 'INVALID_VALUE');
    for (const name of ['a b', 'a/b', 'a__b', 'a_', 'é']) await expectCode(add(name, { command: 'x' }), 'INVALID_SERVER_NAME');
    expect(await readFile(projectFile(), 'utf8')).toBe(original);
    await add('ok', { url: 'https://${HOST}/mcp', type: 'http' });
    await add('ok2', { httpUrl: 'http://[::1]:3000/mcp' });
  });

  it('refuses to edit a malformed, wrongly typed or unreadable file', async () => {
    await put(projectFile(), '{ "mcpServers": { ');
    const malformed = await expectCode(
      addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'x' } }),
      'FILE_MALFORMED',
    );
    expect(malformed).toMatchObject({ filePath: projectFile(), line: 1 });
    expect(await readFile(projectFile(), 'utf8')).toBe('{ "mcpServers": { ');
    await put(projectFile(), '{ "mcpServers": "none" }');
    await expectCode(addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'x' } }), 'INVALID_TYPE');
    expect(await readFile(projectFile(), 'utf8')).toBe('{ "mcpServers": "none" }');
    await rm(projectFile());
    await mkdir(projectFile());
    await expectCode(addServer({ ...location(), scope: 'project', name: 'a', config: { command: 'x' } }), 'FILE_UNREADABLE');
  });

  it('refuses the project scope in the home directory or without a project', async () => {
    await expectCode(
      addServer({ homeDir: home, projectDir: home, scope: 'project', name: 'a', config: { command: 'x' } }),
      'PROJECT_SCOPE_IN_HOME',
    );
    await expectCode(removeServer({ homeDir: home, scope: 'project', name: 'a' }), 'PROJECT_DIR_MISSING');
    expect(await readdir(home)).toEqual([]);
  });

  it('reports an unwritable folder as FILE_UNWRITABLE', async () => {
    await put(join(root, 'file'), 'not a folder');
    await expectCode(writeFileAtomic(join(root, 'file', 'settings.json'), '{}'), 'FILE_UNWRITABLE');
  });
});

describe('setServerEnabled', () => {
  it('disables and enables a server in the enablement file, by normalized name', async () => {
    await put(projectFile(), '{"mcpServers": {"GitHub": {"command": "x"}}}');
    const enablementFile = join(home, '.toolhost', 'mcp-server-enablement.json');
    expect(await setServerEnabled({ ...location(), name: ' github', enabled: false })).toEqual({
      name: 'GitHub',
      filePath: enablementFile,
      changed: true,
    });
    expect(JSON.parse(await readFile(enablementFile, 'utf8'))).toEqual({ github: { enabled: false } });
    expect((await loadSettings(location())).getServer('GitHub')?.enabled).toBe(false);
    expect((await setServerEnabled({ ...location(), name: 'GITHUB', enabled: true })).changed).toBe(true);
    expect(JSON.parse(await readFile(enablementFile, 'utf8'))).toEqual({});
    expect((await setServerEnabled({ ...location(), name: 'github', enabled: true })).changed).toBe(false);
  });

  it('refuses an unknown server and enabling a blocked one', async () => {
    await put(projectFile(), '{"mcpServers": {"a": {"command": "x"}}, "mcp": {"excluded": ["A"]}}');
    await expectCode(setServerEnabled({ ...location(), name: 'nope', enabled: false }), 'SERVER_NOT_FOUND');
    await expectCode(setServerEnabled({ ...location(), name: 'a', enabled: true }), 'SERVER_BLOCKED');
    expect(await readdir(home)).toEqual([]);
  });
});
