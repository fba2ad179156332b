import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { getFolderTrust } from './get-folder-trust.js';
import { loadSettings } from './load-settings.js';
import { trustFolder, untrustFolder } from './set-folder-trust.js';
import { setServerEnabled } from './set-server-enabled.js';

let root: string;
let home: string;
let work: string;
let project: string;
const storeFile = () => join(home, '.toolhost', 'trusted-folders.json');
const location = () => ({ homeDir: home });
const load = (extra: object = {}) => loadSettings({ homeDir: home, projectDir: project, env: {}, ...extra });

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

beforeEach(async () => {
  // realpath: on macOS the temporary folder is itself behind a symbolic link.
  root = await mkdtemp(join(tmpdir(), 'toolhost-trust-'));
  home = join(root, 'home');
  work = join(root, 'work');
  project = join(work, 'repo');
  await mkdir(home, { recursive: true });
  await mkdir(join(project, 'sub', 'deeper'), { recursive: true });
  await put(
    join(home, '.toolhost', 'settings.json'),
    '{"mcpServers": {"mine": {"command": "user-tool"}, "shared": {"command": "user-shared"}}}',
  );
  await put(
    join(project, '.toolhost', 'settings.json'),
    '{"mcpServers": {"cloned": {"command": "./evil.sh"}, "shared": {"command": "project-shared"}}, "mcp": {"excluded": ["mine"]}}',
  );
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadSettings and folder trust', () => {
  it('blocks every project server of an untrusted folder, the ones replacing user entries too, and ignores its lists', async () => {
    const settings = await load();
    expect(settings.projectTrusted).toBe(false);
    expect(settings.trustedFoldersFilePath).toBe(storeFile());
    expect(settings.servers.map((server) => [server.name, server.scope, server.blockReason?.code])).toEqual([
      ['mine', 'user', undefined],
      ['shared', 'project', 'UNTRUSTED_PROJECT'],
      ['cloned', 'project', 'UNTRUSTED_PROJECT'],
    ]);
    const reason = settings.getServer('cloned')?.blockReason?.message ?? '';
    expect(reason).toContain(settings.projectFolder as string);
    expect(settings.getServer('cloned')?.blockReason?.projectFolder).toBe(settings.projectFolder);
    expect(reason).toContain('run "toolhost trust" in');
    expect(settings.isServerAllowed('cloned')).toBe(false);
    expect(settings.getServerBlockReason('shared')?.code).toBe('UNTRUSTED_PROJECT');
    expect(settings.isServerAllowed('mine')).toBe(true);
    expect(settings.errors).toEqual([]);
  });

  it('runs project servers once the folder is trusted, and applies the project lists', async () => {
    const result = await trustFolder({ ...location(), folder: project });
    expect(result).toMatchObject({ trusted: true, changed: true, filePath: storeFile() });
    const settings = await load();
    expect(settings.projectTrusted).toBe(true);
    expect(settings.servers.map((server) => [server.name, server.blockReason?.code])).toEqual([
      ['mine', 'EXCLUDED'],
      ['shared', undefined],
      ['cloned', undefined],
    ]);
  });

  it('lets a host decide with projectTrust true or false, and uses its own trust command in messages', async () => {
    expect((await load({ projectTrust: true })).getServer('cloned')?.blockReason).toBeUndefined();
    await trustFolder({ ...location(), folder: project });
    const refused = await load({ projectTrust: false, trustCommand: 'myapp trust' });
    expect(refused.projectTrusted).toBe(false);
    expect(refused.getServer('cloned')?.blockReason?.message).toContain('run "myapp trust" in');
  });

  it('has no project trust without a project, or when the project is the home folder', async () => {
    expect((await loadSettings({ homeDir: home, env: {} })).projectTrusted).toBeUndefined();
    const inHome = await loadSettings({ homeDir: home, projectDir: home, env: {} });
    expect(inHome.projectTrusted).toBeUndefined();
    expect(inHome.servers.every((server) => server.blockReason === undefined)).toBe(true);
  });

  it('treats a project folder that is a symbolic link to the home folder as the home folder', async () => {
    const link = join(root, 'home-link');
    await symlink(home, link, 'dir');
    const settings = await loadSettings({ homeDir: home, projectDir: link, env: {} });
    expect(settings.projectTrusted).toBeUndefined();
    expect(settings.files.map((file) => file.scope)).toEqual(['user']);
    expect(settings.servers.map((server) => [server.name, server.scope, server.blockReason?.code])).toEqual([
      ['mine', 'user', undefined],
      ['shared', 'user', undefined],
    ]);
  });

  it('refuses to enable a server of an untrusted project with the trust hint', async () => {
    const error = await setServerEnabled({ homeDir: home, projectDir: project, env: {}, name: 'cloned', enabled: true }).catch(
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(error) && error.code).toBe('SERVER_BLOCKED');
    expect((error as Error).message).toContain('toolhost trust');
  });
});

describe('the trusted-folders store', () => {
  it('trusts subfolders of a trusted folder, and a subfolder can be untrusted on its own', async () => {
    await trustFolder({ ...location(), folder: work });
    const sub = join(project, 'sub');
    expect(await getFolderTrust({ ...location(), folder: join(sub, 'deeper') })).toMatchObject({ trusted: true });
    expect((await load()).projectTrusted).toBe(true);
    // Already covered by the parent: nothing to write.
    expect(await trustFolder({ ...location(), folder: project })).toMatchObject({ changed: false });

    const untrusted = await untrustFolder({ ...location(), folder: sub });
    expect(untrusted).toMatchObject({ trusted: false, changed: true });
    expect((await getFolderTrust({ ...location(), folder: join(sub, 'deeper') })).trusted).toBe(false);
    expect((await getFolderTrust({ ...location(), folder: project })).trusted).toBe(true);
    expect(await trustFolder({ ...location(), folder: sub })).toMatchObject({ trusted: true, changed: true });
    expect((await getFolderTrust({ ...location(), folder: sub })).trusted).toBe(true);
    expect(Object.keys(JSON.parse(await readFile(storeFile(), 'utf8')))).toHaveLength(1);
  });

  it('does not trust a sibling whose name starts with the trusted name', async () => {
    await mkdir(`${project}-evil`);
    await trustFolder({ ...location(), folder: project });
    expect((await getFolderTrust({ ...location(), folder: `${project}-evil` })).trusted).toBe(false);
    expect((await getFolderTrust({ ...location(), folder: work })).trusted).toBe(false);
  });

  it('untrusts again, and a new store file is private (mode 0600)', async () => {
    await trustFolder({ ...location(), folder: project });
    if (process.platform !== 'win32') expect((await stat(storeFile())).mode & 0o777).toBe(0o600);
    expect(await untrustFolder({ ...location(), folder: project })).toMatchObject({ changed: true, trusted: false });
    expect(await untrustFolder({ ...location(), folder: project })).toMatchObject({ changed: false });
    expect((await load()).projectTrusted).toBe(false);
    expect(JSON.parse(await readFile(storeFile(), 'utf8'))).toEqual({});
  });

  it('resolves symbolic links: a link inside a trusted folder does not lend its trust, a link to a trusted folder is trusted', async () => {
    const trusted = join(root, 'trusted');
    await mkdir(trusted);
    await trustFolder({ ...location(), folder: trusted });
    await symlink(project, join(trusted, 'link-to-repo'), 'dir');
    expect((await getFolderTrust({ ...location(), folder: join(trusted, 'link-to-repo') })).trusted).toBe(false);
    expect(
      (await loadSettings({ homeDir: home, projectDir: join(trusted, 'link-to-repo'), env: {} })).getServer('cloned')?.blockReason?.code,
    ).toBe('UNTRUSTED_PROJECT');

    await symlink(trusted, join(root, 'alias'), 'dir');
    expect((await getFolderTrust({ ...location(), folder: join(root, 'alias') })).trusted).toBe(true);
    // Trusting through a link records the real folder.
    await trustFolder({ ...location(), folder: join(trusted, 'link-to-repo') });
    expect(Object.keys(JSON.parse(await readFile(storeFile(), 'utf8')))).toContain(
      (await getFolderTrust({ ...location(), folder: project })).folder,
    );
    expect((await getFolderTrust({ ...location(), folder: project })).trusted).toBe(true);
  });

  it('trusts nothing when the store is malformed or hand-edited wrongly, and reports it', async () => {
    await put(storeFile(), `{ "${project.replace(/\\/g, '\\\\')}": { "trusted": true }, `);
    const broken = await load();
    expect(broken.projectTrusted).toBe(false);
    expect(broken.errors.map((error) => [error.code, error.filePath])).toEqual([['FILE_MALFORMED', storeFile()]]);
    await put(storeFile(), JSON.stringify({ relative: { trusted: true }, [project]: { trusted: 'yes' } }));
    const wrong = await load();
    expect(wrong.projectTrusted).toBe(false);
    expect(wrong.warnings.filter((warning) => warning.code === 'INVALID_TRUST_ENTRY')).toHaveLength(2);
    const error = await trustFolder({ ...location(), folder: join(root, 'missing') }).catch((caught: unknown) => caught);
    expect(ConfigError.isInstance(error) && error.code).toBe('FOLDER_NOT_FOUND');
  });

  it('keeps comments and other entries when it edits the store', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    await put(storeFile(), `// my trusted folders\n${JSON.stringify({ [other]: { trusted: true } }, null, 2)}\n`);
    await trustFolder({ ...location(), folder: project });
    await untrustFolder({ ...location(), folder: project });
    const text = await readFile(storeFile(), 'utf8');
    expect(text.startsWith('// my trusted folders\n')).toBe(true);
    expect((await getFolderTrust({ ...location(), folder: other })).trusted).toBe(true);
  });
});
