// FolderTrustStore through the package's public API: the file store writes exactly what
// trustFolder / untrustFolder write (toolhost's format and Gemini CLI's with the pins file next
// to it), the memory store decides as the files do, and loadSettings({ trustStore }) reads trust
// and pins from the store instead of the files.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './index.js';
import {
  FileFolderTrustStore,
  MemoryFolderTrustStore,
  getFolderTrust,
  setStoredFolderTrust,
  trustFolder,
  untrustFolder,
  type FolderTrustStore,
} from './trust.js';

let root: string;
let homeA: string;
let homeB: string;
let work: string;
let project: string;
let sub: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
/** The text of a file, or `undefined` when it does not exist. */
const text = (path: string) => readFile(path, 'utf8').catch(() => undefined);

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-trust-store-')));
  homeA = join(root, 'home-a');
  homeB = join(root, 'home-b');
  work = join(root, 'work');
  project = join(work, 'repo');
  sub = join(project, 'sub');
  await mkdir(sub, { recursive: true });
  await mkdir(homeA, { recursive: true });
  await mkdir(homeB, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('FileFolderTrustStore', () => {
  for (const appDir of ['.toolhost', '.gemini'] as const) {
    it(`writes byte for byte what trustFolder and untrustFolder write (${appDir})`, async () => {
      const files = (home: string) =>
        appDir === '.toolhost'
          ? [join(home, appDir, 'trusted-folders.json')]
          : [join(home, appDir, 'trustedFolders.json'), join(home, appDir, 'toolhost-pinned-servers.json')];
      const store = new FileFolderTrustStore({ appDir, homeDir: homeB, env: {} });
      const steps: Array<[string, boolean]> = [
        [project, true],
        [sub, true],
        [project, true],
        [sub, false],
        [sub, true],
        [project, false],
        [project, true],
      ];
      let version = 0;
      for (const [folder, trusted] of steps) {
        // The project files change between steps, so each trust pins something new.
        version += 1;
        await put(
          join(project, appDir, 'settings.json'),
          JSON.stringify({ mcpServers: { tool: { command: 'node', args: [`v${version}`] } } }),
        );
        await put(
          join(sub, appDir, 'settings.json'),
          JSON.stringify({ mcpServers: { inner: { command: 'deno', env: { KEY: `${version}` } } } }),
        );
        const byFunction = await (trusted ? trustFolder : untrustFolder)({ appDir, homeDir: homeA, folder, env: {} });
        const byStore = await setStoredFolderTrust(store, { appDir, homeDir: homeB, folder, trusted, env: {} });
        expect(byStore.pinned).toEqual(byFunction.pinned);
        expect([byStore.changed, byStore.pinsChanged, byStore.decidedBy]).toEqual([
          byFunction.changed,
          byFunction.pinsChanged,
          byFunction.decidedBy,
        ]);
        for (const [index, path] of files(homeA).entries()) expect(await text(files(homeB)[index] as string), path).toBe(await text(path));
        for (const checked of [project, sub]) {
          const expected = await getFolderTrust({ appDir, homeDir: homeA, folder: checked, env: {} });
          const found = await store.getFolderTrust(checked);
          expect([found.trusted, found.decidedBy, found.pinnedServers]).toEqual([
            expected.trusted,
            expected.decidedBy,
            expected.pinnedServers,
          ]);
        }
      }
      // The steps did pin something (the files are not merely both empty).
      expect(await text(files(homeB).at(-1) as string)).toContain('"digest"');
    });
  }

  it('trusts without pins when none are given, and leaves the pins of a trusted folder as they are', async () => {
    const store = new FileFolderTrustStore({ homeDir: homeA });
    const filePath = join(homeA, '.toolhost', 'trusted-folders.json');
    expect(await store.setFolderTrust(project, true)).toMatchObject({ changed: true, pinsChanged: false, filePath });
    expect(JSON.parse((await text(filePath)) ?? '')).toEqual({ [project]: { trusted: true } });
    expect(await store.getFolderTrust(project)).toMatchObject({ trusted: true, pinnedServers: undefined });
    await put(join(project, '.toolhost', 'settings.json'), '{"mcpServers": {"tool": {"command": "node"}}}');
    await setStoredFolderTrust(store, { homeDir: homeA, folder: project, trusted: true });
    const before = await text(filePath);
    expect(await store.setFolderTrust(project, true)).toMatchObject({ changed: false, pinsChanged: false });
    expect(await text(filePath)).toBe(before);
    await expect(store.setFolderTrust(join(root, 'missing'), true)).rejects.toMatchObject({ code: 'FOLDER_NOT_FOUND' });
  });
});

describe('MemoryFolderTrustStore', () => {
  it('decides as the trusted-folders file does: nearest record, covered subfolders, symbolic links, pins per folder', async () => {
    await symlink(project, join(root, 'link'));
    await put(join(project, '.toolhost', 'settings.json'), '{"mcpServers": {"tool": {"command": "node"}}}');
    await put(join(sub, '.toolhost', 'settings.json'), '{"mcpServers": {"inner": {"command": "deno"}}}');
    const memory = new MemoryFolderTrustStore();
    const files = new FileFolderTrustStore({ homeDir: homeA });
    const steps: Array<[string, boolean]> = [
      [project, true],
      [sub, true],
      [sub, false],
      [join(root, 'link', 'sub'), true],
      [project, false],
      [work, true],
      [project, false],
    ];
    for (const [folder, trusted] of steps) {
      const inMemory = await setStoredFolderTrust(memory, { homeDir: homeA, folder, trusted });
      const inFiles = await setStoredFolderTrust(files, { homeDir: homeA, folder, trusted });
      expect([inMemory.folder, inMemory.changed, inMemory.decidedBy], `${folder} ${trusted}`).toEqual([
        inFiles.folder,
        inFiles.changed,
        inFiles.decidedBy,
      ]);
      for (const checked of [work, project, sub, join(root, 'link')]) {
        const expected = await files.getFolderTrust(checked);
        expect(await memory.getFolderTrust(checked), `${checked} after ${folder} ${trusted}`).toEqual({
          folder: expected.folder,
          trusted: expected.trusted,
          decidedBy: expected.decidedBy,
          pinnedServers: expected.pinnedServers,
        });
      }
    }
  });
});

describe('loadSettings with a trustStore', () => {
  let trust: MemoryFolderTrustStore;
  const load = (extra: object = {}) => loadSettings({ homeDir: homeA, projectDir: project, env: {}, trustStore: trust, ...extra });
  const codes = async (extra: object = {}) => (await load(extra)).servers.map((server) => [server.name, server.blockReason?.code]);

  beforeEach(async () => {
    trust = new MemoryFolderTrustStore();
    await put(join(homeA, '.toolhost', 'settings.json'), '{"mcpServers": {"mine": {"command": "user-tool"}}}');
    await put(join(project, '.toolhost', 'settings.json'), '{"mcpServers": {"cloned": {"command": "./run.sh"}}}');
  });

  it('reads trust and pins from the store, never from the trusted-folders file', async () => {
    // The file trusts the folder; the store does not: the store decides.
    await trustFolder({ homeDir: homeA, folder: project });
    const untrusted = await load();
    expect(untrusted.projectTrusted).toBe(false);
    expect(untrusted.trustedFoldersFilePath).toBeUndefined();
    expect(untrusted.getServer('cloned')?.blockReason).toMatchObject({ code: 'UNTRUSTED_PROJECT', projectFolder: project });

    await untrustFolder({ homeDir: homeA, folder: project });
    const fileBefore = await text(join(homeA, '.toolhost', 'trusted-folders.json'));
    expect((await setStoredFolderTrust(trust, { homeDir: homeA, folder: project, trusted: true })).pinned.map((s) => s.name)).toEqual([
      'cloned',
    ]);
    expect(await codes()).toEqual([
      ['mine', undefined],
      ['cloned', undefined],
    ]);

    await put(join(project, '.toolhost', 'settings.json'), '{"mcpServers": {"cloned": {"command": "./evil.sh", "trust": true}}}');
    const changed = (await load()).getServer('cloned')?.blockReason;
    expect(changed).toMatchObject({ code: 'CHANGED_SINCE_TRUSTED', projectFolder: project });
    expect(changed?.changes).toEqual(['command: "./run.sh" → "./evil.sh"', 'trust: (not set) → true']);
    // The host's own decision still bypasses the store.
    expect(await codes({ projectTrust: true })).toEqual([
      ['mine', undefined],
      ['cloned', undefined],
    ]);
    expect(await text(join(homeA, '.toolhost', 'trusted-folders.json'))).toBe(fileBefore);
  });

  it('blocks every server of a folder trusted in the store without pins, and rejects when the store fails', async () => {
    await trust.setFolderTrust(work, true);
    const reason = (await load()).getServer('cloned')?.blockReason;
    expect(reason?.code).toBe('CHANGED_SINCE_TRUSTED');
    expect(reason?.message).toContain('was trusted without recording its servers');
    const broken: FolderTrustStore = {
      getFolderTrust: () => Promise.reject(new Error('store unreachable')),
      setFolderTrust: () => Promise.reject(new Error('store unreachable')),
    };
    await expect(loadSettings({ homeDir: homeA, projectDir: project, env: {}, trustStore: broken })).rejects.toThrow('store unreachable');
    // Without a project nothing is asked of the store.
    expect((await loadSettings({ homeDir: homeA, env: {}, trustStore: broken })).servers.map((s) => s.name)).toEqual(['mine']);
    expect(existsSync(join(homeA, '.toolhost', 'trusted-folders.json'))).toBe(false);
  });
});
