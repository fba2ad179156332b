// Test support (not part of the package's API): runs the BUILT `toolhost` binary as a user would.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustFolder } from '@toolhost/config/trust';
import { afterEach, beforeAll, beforeEach } from 'vitest';

/** The executable as npm links it (`bin/toolhost.js`, which runs the built `dist/bin.js`). */
export const TOOLHOST_BIN = fileURLToPath(new URL('../../bin/toolhost.js', import.meta.url));
const BUILT_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** Throws a clear error when the binary has not been built. */
export function assertBinBuilt(): void {
  if (!existsSync(BUILT_BIN)) throw new Error(`${BUILT_BIN} is missing: run "pnpm --filter @toolhost/cli build" first.`);
}

/** Exit code and output of one run. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where and with what environment the binary runs. */
export interface RunPlace {
  /** Working folder (the project). */
  cwd: string;
  /** Home folder (`HOME`, `USERPROFILE`). */
  home: string;
  /** More environment variables. */
  env?: Record<string, string>;
}

function environment(place: RunPlace): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: place.home,
    USERPROFILE: place.home,
    // Never the machine's own system files (/etc/toolhost, /etc/gemini-cli, /etc/qwen-code).
    TOOLHOST_SYSTEM_SETTINGS_PATH: `${place.home}/no-system-settings.json`,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: `${place.home}/no-gemini-system-settings.json`,
    QWEN_CODE_SYSTEM_SETTINGS_PATH: `${place.home}/no-qwen-system-settings.json`,
    ...place.env,
  };
}

/** Runs `toolhost <args>` to completion. */
export function runToolhost(args: string[], place: RunPlace): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TOOLHOST_BIN, ...args], { cwd: place.cwd, env: environment(place) }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Starts `toolhost <args>` and returns the child (for commands that wait, like `mcp auth --no-browser`). */
export function spawnToolhost(args: string[], place: RunPlace): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [TOOLHOST_BIN, ...args], { cwd: place.cwd, env: environment(place) });
}

/** Writes a file, creating its folder. */
export async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/**
 * Writes the project settings file (`<cwd>/.toolhost/settings.json`) and trusts the project folder
 * again, as a user would after reviewing it: trusting pins the project's servers as written, and
 * a server changed or added after that is blocked (`CHANGED_SINCE_TRUSTED`).
 */
export async function putProjectSettings(place: RunPlace, text: string): Promise<void> {
  await put(join(place.cwd, '.toolhost', 'settings.json'), text);
  await trustFolder({ homeDir: place.home, folder: place.cwd });
}

/** A loopback port nothing listens on (it was just opened and closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fresh home with a trusted project folder in it, made before each test and removed after it. */
export interface TrustedProject {
  /** The temporary folder holding everything of the current test. */
  readonly root: string;
  /** Home (`<root>/home`) and project (`<root>/home/project`) of the current test. */
  readonly place: RunPlace;
  /** Run after the current test, before the folders are removed (servers to close...). */
  readonly cleanups: Array<() => Promise<void>>;
}

/**
 * Registers the hooks that give every test of the file its own {@link TrustedProject}. The
 * project is trusted because servers in project settings start only in a trusted folder.
 */
export function useTrustedProject(prefix: string): TrustedProject {
  const project = { root: '', place: { home: '', cwd: '' } as RunPlace, cleanups: [] as Array<() => Promise<void>> };
  beforeAll(() => assertBinBuilt());
  beforeEach(async () => {
    project.root = await mkdtemp(join(tmpdir(), prefix));
    project.place = { home: join(project.root, 'home'), cwd: join(project.root, 'home', 'project') };
    await mkdir(project.place.cwd, { recursive: true });
    await trustFolder({ homeDir: project.place.home, folder: project.place.cwd });
  });
  afterEach(async () => {
    await Promise.all(project.cleanups.splice(0).map((cleanup) => cleanup()));
    await rm(project.root, { recursive: true, force: true });
  });
  return project;
}
