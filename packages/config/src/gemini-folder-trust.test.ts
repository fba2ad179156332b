import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, type LoadSettingsOptions } from './index.js';
import { getFolderTrust, trustFolder, untrustFolder } from './trust.js';

// Folder trust with Gemini CLI's and Qwen Code's own store, through the package's public API.
let root: string;
let home: string;
let work: string;
let project: string;
const geminiFile = () => join(home, '.gemini', 'trustedFolders.json');
const pinsFile = () => join(home, '.gemini', 'toolhost-pinned-servers.json');

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
const rules = (value: Record<string, string>) => put(geminiFile(), JSON.stringify(value, null, 2));
const load = (extra: Partial<LoadSettingsOptions> = {}) =>
  loadSettings({ appDir: '.gemini', homeDir: home, projectDir: project, env: {}, ...extra });
const codes = async (extra: Partial<LoadSettingsOptions> = {}) =>
  (await load(extra)).servers.map((server) => [server.name, server.blockReason?.code]);

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-gemini-trust-')));
  home = join(root, 'home');
  work = join(root, 'work');
  project = join(work, 'repo');
  await mkdir(join(project, 'sub'), { recursive: true });
  await put(join(home, '.gemini', 'settings.json'), '{"mcpServers": {"mine": {"command": "user-tool"}}}');
  await put(join(project, '.gemini', 'settings.json'), '{"mcpServers": {"cloned": {"command": "./run.sh"}}}');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("Gemini CLI's trustedFolders.json decides", () => {
  it('no rule, DO_NOT_TRUST, or a DO_NOT_TRUST below a trusted parent: the project servers are untrusted', async () => {
    expect(await codes()).toEqual([
      ['mine', undefined],
      ['cloned', 'UNTRUSTED_PROJECT'],
    ]);
    expect((await load()).trustedFoldersFilePath).toBe(geminiFile());
    expect((await load()).getServer('cloned')?.blockReason?.message).toContain('run "toolhost --app-dir .gemini trust" in');
    await rules({ [project]: 'DO_NOT_TRUST' });
    expect((await load()).projectTrusted).toBe(false);
    await rules({ [work]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' });
    expect((await load()).projectTrusted).toBe(false);
    // Two rules on the same folder: DO_NOT_TRUST wins over the TRUST_PARENT of a child.
    await rules({ [project]: 'DO_NOT_TRUST', [join(project, 'sub')]: 'TRUST_PARENT' });
    expect((await load()).projectTrusted).toBe(false);
    // A sibling with a longer name is not inside the trusted folder.
    await rules({ [`${project}-other`]: 'TRUST_FOLDER' });
    expect((await load()).projectTrusted).toBe(false);
  });

  it('TRUST_FOLDER and TRUST_PARENT trust the folder; servers toolhost never pinned run as in Gemini CLI, with a warning', async () => {
    for (const value of [{ [project]: 'TRUST_FOLDER' }, { [join(project, 'sub')]: 'TRUST_PARENT' }, { [work]: 'TRUST_FOLDER' }]) {
      await rules(value);
      const settings = await load();
      expect(settings.projectTrusted).toBe(true);
      expect(settings.servers.map((server) => [server.name, server.blockReason?.code])).toEqual([
        ['mine', undefined],
        ['cloned', undefined],
      ]);
      const warning = settings.warnings.find((w) => w.code === 'TRUST_NOT_PINNED');
      expect(warning?.message).toContain('run "toolhost --app-dir .gemini trust" in');
      expect(warning?.filePath).toBe(geminiFile());
    }
    expect(await getFolderTrust({ appDir: '.gemini', homeDir: home, folder: join(project, 'sub'), env: {} })).toMatchObject({
      trusted: true,
      decidedBy: work,
      format: 'gemini',
      filePath: geminiFile(),
      pinsFilePath: pinsFile(),
    });
  });

  it('a file toolhost does not recognise trusts nothing and is never rewritten', async () => {
    const text = `{\n  // mine\n  "${project}": "TRUST_EVERYTHING"\n}\n`;
    await put(geminiFile(), text);
    const settings = await load();
    expect(settings.projectTrusted).toBe(false);
    expect(settings.errors.map((error) => [error.code, error.filePath])).toEqual([['INVALID_VALUE', geminiFile()]]);
    const error = await trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INVALID_VALUE', filePath: geminiFile() });
    expect((error as Error).message).toContain('"TRUST_EVERYTHING"');
    expect(await readFile(geminiFile(), 'utf8')).toBe(text);
    await put(geminiFile(), '["not", "an", "object"]');
    await expect(untrustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).rejects.toMatchObject({
      code: 'INVALID_TYPE',
    });
    await expect(trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).rejects.toMatchObject({
      code: 'INVALID_TYPE',
    });
    expect(await readFile(geminiFile(), 'utf8')).toBe('["not", "an", "object"]');
  });
});

describe('trustFolder with appDir .gemini', () => {
  it("writes only trust levels to Gemini CLI's file and the pins next to it", async () => {
    await put(geminiFile(), `{\n  // kept\n  "${work}/other": "TRUST_FOLDER"\n}\n`);
    const result = await trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} });
    expect(result).toMatchObject({ changed: true, pinsChanged: true, format: 'gemini', filePath: geminiFile(), pinsFilePath: pinsFile() });
    expect(await readFile(geminiFile(), 'utf8')).toBe(
      `{\n  // kept\n  "${work}/other": "TRUST_FOLDER",\n  "${project}": "TRUST_FOLDER"\n}\n`,
    );
    expect(JSON.parse(await readFile(pinsFile(), 'utf8'))).toEqual({
      [project]: { cloned: { digest: expect.stringMatching(/^sha256:/) as unknown, launch: { command: './run.sh' } } },
    });
    expect(existsSync(join(home, '.gemini', 'trusted-folders.json'))).toBe(false);
    expect(await codes()).toEqual([
      ['mine', undefined],
      ['cloned', undefined],
    ]);

    // A changed server is blocked until the folder is trusted again; the Gemini file stays as it is.
    await put(join(project, '.gemini', 'settings.json'), '{"mcpServers": {"cloned": {"command": "./evil.sh"}}}');
    expect((await load()).getServer('cloned')?.blockReason).toMatchObject({
      code: 'CHANGED_SINCE_TRUSTED',
      changes: ['command: "./run.sh" → "./evil.sh"'],
    });
    const before = await readFile(geminiFile(), 'utf8');
    expect(await trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).toMatchObject({
      changed: false,
      pinsChanged: true,
    });
    expect(await readFile(geminiFile(), 'utf8')).toBe(before);
    expect((await load()).getServer('cloned')?.blockReason).toBeUndefined();

    // Untrusting records "Don't trust" as Gemini CLI does and drops the pins of the folder.
    expect(await untrustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).toMatchObject({ changed: true });
    expect(JSON.parse((await readFile(geminiFile(), 'utf8')).replace('// kept', ''))).toEqual({
      [`${work}/other`]: 'TRUST_FOLDER',
      [project]: 'DO_NOT_TRUST',
    });
    expect(JSON.parse(await readFile(pinsFile(), 'utf8'))).toEqual({});
    expect((await load()).projectTrusted).toBe(false);
  });

  it('untrusting a folder under a trusted parent records DO_NOT_TRUST for it; its own TRUST_PARENT entry is replaced and reported', async () => {
    await rules({ [work]: 'TRUST_FOLDER' });
    expect(await untrustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).toMatchObject({ changed: true });
    expect(JSON.parse(await readFile(geminiFile(), 'utf8'))).toEqual({ [work]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' });
    expect((await getFolderTrust({ appDir: '.gemini', homeDir: home, folder: work, env: {} })).trusted).toBe(true);
    await rules({ [project]: 'TRUST_PARENT' });
    expect(await untrustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).toMatchObject({
      changed: true,
      replacedLevel: 'TRUST_PARENT',
    });
    expect(JSON.parse(await readFile(geminiFile(), 'utf8'))).toEqual({ [project]: 'DO_NOT_TRUST' });
  });

  it('follows GEMINI_CLI_TRUSTED_FOLDERS_PATH for both files; .qwen uses ~/.qwen/trustedFolders.json', async () => {
    const moved = join(root, 'elsewhere', 'trust.json');
    await trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: moved } });
    expect(JSON.parse(await readFile(moved, 'utf8'))).toEqual({ [project]: 'TRUST_FOLDER' });
    expect(existsSync(join(root, 'elsewhere', 'toolhost-pinned-servers.json'))).toBe(true);
    expect(existsSync(geminiFile())).toBe(false);
    expect((await load({ env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: moved } })).projectTrusted).toBe(true);
    expect((await load()).projectTrusted).toBe(false);

    await trustFolder({ appDir: '.qwen', homeDir: home, folder: project, env: {} });
    expect(JSON.parse(await readFile(join(home, '.qwen', 'trustedFolders.json'), 'utf8'))).toEqual({ [project]: 'TRUST_FOLDER' });
  });
});

describe('folder trust turned off', () => {
  it('security.folderTrust.enabled false in the user or system settings trusts every folder and pins nothing; a project cannot turn it off', async () => {
    await put(
      join(project, '.gemini', 'settings.json'),
      '{"security": {"folderTrust": {"enabled": false}}, "mcpServers": {"cloned": {"command": "./run.sh"}}}',
    );
    expect((await load()).projectTrusted).toBe(false);
    await put(join(home, '.gemini', 'settings.json'), '{"security": {"folderTrust": {"enabled": false}}, "mcpServers": {}}');
    const settings = await load();
    expect([settings.projectTrusted, settings.getServer('cloned')?.blockReason]).toEqual([true, undefined]);
    expect((await getFolderTrust({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).overriddenBy).toBe(
      `"security.folderTrust.enabled": false in ${join(home, '.gemini', 'settings.json')}`,
    );
    // The administrator's system file wins over the user's.
    const system = join(root, 'system.json');
    await put(system, '{"security": {"folderTrust": {"enabled": true}}}');
    expect((await load({ systemSettingsPath: system })).projectTrusted).toBe(false);
  });

  it('GEMINI_CLI_TRUST_WORKSPACE=true trusts, =false distrusts, for .gemini only', async () => {
    expect(await codes({ env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } })).toEqual([
      ['mine', undefined],
      ['cloned', undefined],
    ]);
    await rules({ [project]: 'TRUST_FOLDER' });
    expect((await load({ env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } })).projectTrusted).toBe(false);
    await put(join(project, '.qwen', 'settings.json'), '{"mcpServers": {"q": {"command": "q"}}}');
    expect((await load({ appDir: '.qwen', env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } })).projectTrusted).toBe(false);
  });
});
