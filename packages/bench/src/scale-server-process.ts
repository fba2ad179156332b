import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WireRevision } from './wires.js';

/** A running server process of `pnpm bench:scale`. */
export interface ScaleServers {
  /** The Streamable HTTP endpoints, one listener (own port) each, in start order. */
  readonly urls: readonly string[];
  /** The server process's id (to profile or sample it). */
  readonly pid: number | undefined;
  /** End the server process. */
  close(): Promise<void>;
}

function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'src', 'scale-servers.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the @toolhost-internal/bench package root');
    dir = parent;
  }
  return dir;
}

/** Absolute path of the built server script `dist/scale-servers.js`; throws when the bench package has not been built. */
export function scaleServersPath(): string {
  const path = resolve(packageRoot(), 'dist', 'scale-servers.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run "pnpm --filter @toolhost-internal/bench build"`);
  return path;
}

/**
 * Start `count` Streamable HTTP MCP servers speaking only `revision`, each with one `echo` tool,
 * on 127.0.0.1 in ONE child process (so the measuring process holds only clients and its memory
 * is the clients' alone). Resolves once every server listens.
 */
export async function startScaleServers(count: number, revision: WireRevision): Promise<ScaleServers> {
  const child = spawn(process.execPath, [scaleServersPath(), `--count=${count}`, `--revision=${revision}`], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const urls = await new Promise<string[]>((resolveUrls, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', (line) => {
        lines.close();
        try {
          const parsed = JSON.parse(line) as { urls?: unknown };
          if (!Array.isArray(parsed.urls) || parsed.urls.length !== count) throw new Error(`expected ${count} urls`);
          resolveUrls(parsed.urls as string[]);
        } catch (error) {
          reject(new Error(`the scale server process printed '${line.slice(0, 200)}': ${String(error)}`));
        }
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`the scale server process exited with code ${code} before listening: ${stderr.trim()}`)),
      );
    });
    return { urls, pid: child.pid, close };
  } catch (error) {
    await close();
    throw error;
  }
}
