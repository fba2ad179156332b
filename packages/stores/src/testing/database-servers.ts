// vitest globalSetup of @toolhost/stores: a real redis-server and a real PostgreSQL on 127.0.0.1,
// on free ports, with their data in temporary folders, started before the tests and stopped after.
// The binaries come from the Debian packages redis-server and postgresql; a missing one fails the
// run with the package to install (never a silent skip).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the test redis-server. */
    redisUrl: string;
    /** `postgresql://toolhost@127.0.0.1:<port>/postgres` of the test PostgreSQL. */
    postgresUrl: string;
  }
}

/** A free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('could not find a free port');
  return address.port;
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`; rejects after `timeoutMs`. */
async function waitForPort(port: number, what: string, timeoutMs: number, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    const why = exited();
    if (why !== undefined) throw new Error(`${what} exited before accepting connections: ${why}`);
    if (Date.now() > deadline) throw new Error(`${what} did not accept connections on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function onPath(command: string): string | undefined {
  for (const folder of (process.env['PATH'] ?? '').split(':')) {
    if (folder !== '' && existsSync(join(folder, command))) return join(folder, command);
  }
  return undefined;
}

/** The folder of initdb and pg_ctl: TOOLHOST_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin, else PATH. */
function postgresBinFolder(): string {
  const configured = process.env['TOOLHOST_PG_BIN'];
  if (configured !== undefined && existsSync(join(configured, 'pg_ctl'))) return configured;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  const initdb = onPath('initdb');
  if (initdb !== undefined && onPath('pg_ctl') !== undefined) return join(initdb, '..');
  throw new Error(
    'The @toolhost/stores tests need PostgreSQL (initdb, pg_ctl), found neither under /usr/lib/postgresql/*/bin nor on PATH. Install the Debian package: apt-get install postgresql (or set TOOLHOST_PG_BIN to the folder of initdb and pg_ctl).',
  );
}

/** How to run a PostgreSQL command: as the `postgres` user when we are root (initdb refuses root). */
function asPostgresUser(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) {
    throw new Error(
      'Running as root, the PostgreSQL of the @toolhost/stores tests must run as the user "postgres", which does not exist. Install the Debian package postgresql (it creates that user).',
    );
  }
  const runuser = onPath('runuser') ?? '/usr/sbin/runuser';
  if (!existsSync(runuser))
    throw new Error(
      'Running as root, the @toolhost/stores tests need runuser (Debian package util-linux) to start PostgreSQL as "postgres".',
    );
  return { prefix: [runuser, '-u', 'postgres', '--'], uid, gid };
}

function run(command: string[], what: string): void {
  const [file, ...args] = command as [string, ...string[]];
  const result = spawnSync(file, args, { encoding: 'utf8', cwd: '/' });
  if (result.status !== 0)
    throw new Error(`${what} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout || String(result.error)}`);
}

async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const binary = process.env['TOOLHOST_REDIS_SERVER'] ?? onPath('redis-server');
  if (binary === undefined) {
    throw new Error(
      'The @toolhost/stores tests need redis-server, which is not on PATH. Install the Debian package: apt-get install redis-server (or set TOOLHOST_REDIS_SERVER to the binary).',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-stores-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = `exit ${code ?? signal}; ${stderr.trim()}`));
  await waitForPort(port, `redis-server (${binary})`, 60_000, () => exit);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (exit === undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const bin = postgresBinFolder();
  const user = asPostgresUser();
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-stores-pg-'));
  const data = join(dir, 'data');
  if (user.uid !== undefined && user.gid !== undefined) await chown(dir, user.uid, user.gid);
  await chmod(dir, 0o700);
  const port = await freePort();
  run([...user.prefix, join(bin, 'initdb'), '-D', data, '-U', 'toolhost', '--auth=trust', '-E', 'UTF8', '--no-sync'], 'initdb');
  const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run(
    [...user.prefix, join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start'],
    'pg_ctl start',
  );
  await waitForPort(port, 'PostgreSQL', 60_000, () => undefined);
  return {
    url: `postgresql://toolhost@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run([...user.prefix, join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop'], 'pg_ctl stop');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Starts both servers and gives their URLs to the tests (`inject('redisUrl')`); returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedis();
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  try {
    postgres = await startPostgres();
  } catch (error) {
    await redis.stop();
    throw error;
  }
  project.provide('redisUrl', redis.url);
  project.provide('postgresUrl', postgres.url);
  return async () => {
    await Promise.allSettled([redis.stop(), postgres.stop()]);
  };
}
