import { mkdir, readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { put, putProjectSettings, runToolhost, useTrustedProject, type RunResult } from './testing/run-toolhost.js';

// Several `toolhost` processes editing one file at the same time, through the built binary: every
// edit must survive (a lock serializes read-modify-write) and the file must stay valid JSON.
const project = useTrustedProject('toolhost-cli-concurrent-');
const WRITERS = 6;
const ENTRIES = 50;
const settingsFile = () => join(project.place.cwd, '.toolhost', 'settings.json');
const serverNames = (count: number): string[] => Array.from({ length: count }, (_, index) => `server-${String(index).padStart(2, '0')}`);
const names = serverNames(ENTRIES);
// 50 runs of the binary, 6 at a time: about a minute and a half on a busy 2-core machine.
const BUDGET = 300_000;

/** Runs `argsOf(item)` for every item, `WRITERS` processes at a time, each worker taking its share in order. */
async function inParallel(items: readonly string[], argsOf: (item: string) => string[], cwd = project.place.cwd): Promise<RunResult[]> {
  const shares = Array.from({ length: WRITERS }, (_, worker) => items.filter((_, index) => index % WRITERS === worker));
  const results = await Promise.all(
    shares.map(async (share) => {
      const out: RunResult[] = [];
      for (const item of share) out.push(await runToolhost(argsOf(item), { ...project.place, cwd }));
      return out;
    }),
  );
  return results.flat();
}

function expectAllSucceeded(results: readonly RunResult[], count = ENTRIES): void {
  expect(results.filter((result) => result.code !== 0 || result.stderr !== '')).toEqual([]);
  expect(results).toHaveLength(count);
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

describe('concurrent edits of one settings file', () => {
  it(`keeps all ${ENTRIES} entries added by ${WRITERS} parallel "toolhost mcp add" processes`, { timeout: BUDGET }, async () => {
    const results = await inParallel(names, (name) => ['mcp', 'add', name, 'node', `${name}.js`]);
    expectAllSucceeded(results);
    const settings = await readJson(settingsFile());
    expect(Object.keys(settings['mcpServers'] as object).sort()).toEqual(names);
  });

  it(`keeps every change of ${WRITERS} parallel "mcp disable", "mcp enable" and "mcp remove" processes`, { timeout: BUDGET }, async () => {
    // Fewer entries than above (each of these commands loads every settings file), still 4 per writer.
    const few = serverNames(4 * WRITERS);
    const servers = Object.fromEntries(few.map((name) => [name, { command: 'node', args: [`${name}.js`] }]));
    await putProjectSettings(project.place, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
    const enablementFile = join(project.place.home, '.toolhost', 'mcp-server-enablement.json');

    expectAllSucceeded(await inParallel(few, (name) => ['mcp', 'disable', name]), few.length);
    expect(Object.keys(await readJson(enablementFile)).sort()).toEqual(few);

    const enabled = few.filter((_, index) => index % 2 === 0);
    expectAllSucceeded(await inParallel(enabled, (name) => ['mcp', 'enable', name]), enabled.length);
    expect(Object.keys(await readJson(enablementFile)).sort()).toEqual(few.filter((name) => !enabled.includes(name)));

    expectAllSucceeded(await inParallel(few, (name) => ['mcp', 'remove', name]), few.length);
    expect(await readJson(settingsFile())).toEqual({ mcpServers: {} });
  });

  it(`keeps all ${ENTRIES} folders trusted by ${WRITERS} parallel "toolhost trust" processes`, { timeout: BUDGET }, async () => {
    const folders = names.map((name) => join(project.root, 'clones', name));
    await Promise.all(folders.map((folder) => mkdir(folder, { recursive: true })));
    expectAllSucceeded(await inParallel(folders, (folder) => ['trust', folder]));
    const trusted = await readJson(join(project.place.home, '.toolhost', 'trusted-folders.json'));
    for (const folder of folders) expect(trusted).toHaveProperty([folder, 'trusted'], true);
  });

  it('gives up with a clear error naming the file when another process holds the lock too long', async () => {
    const original = `${JSON.stringify({ mcpServers: {} })}\n`;
    await put(settingsFile(), original);
    // Another process's live lock: a folder next to the file whose time keeps being refreshed.
    const lock = `${settingsFile()}.lock`;
    await mkdir(lock);
    const refresh = setInterval(() => void utimes(lock, new Date(), new Date()).catch(() => undefined), 1000);
    project.cleanups.push(async () => clearInterval(refresh));
    const started = Date.now();
    const result = await runToolhost(['mcp', 'add', 'late', 'node', 'late.js'], project.place);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error [FILE_UNWRITABLE]: ${settingsFile()}: the settings file is locked by another process (lock ${lock}), still after 10 s. Try again when that process has finished; the file was not changed.\n`,
    );
    expect(await readFile(settingsFile(), 'utf8')).toBe(original);
  });

  it('takes over the lock a crashed process left behind', async () => {
    const lock = `${settingsFile()}.lock`;
    await mkdir(lock, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lock, longAgo, longAgo);
    const result = await runToolhost(['mcp', 'add', 'next', 'node', 'next.js'], project.place);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(await readJson(settingsFile())).toEqual({ mcpServers: { next: { command: 'node', args: ['next.js'] } } });
  });
});
