import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';

/** A fresh SDK client for tests. */
export function newClient(): Client {
  return new Client({ name: 'toolhost-transport-test', version: '1.0.0' });
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Text of the first content block of a tool result. */
export function firstText(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;
}

/** What a client saw while its server crashed in the middle of a call. */
export interface CrashedCall {
  /** What the call rejected with (undefined if it resolved). */
  readonly error: unknown;
  /** How long the call took to settle, in milliseconds. */
  readonly elapsedMs: number;
  /** Whether the client was closed by the time the call settled. */
  readonly closed: boolean;
  /** Everything passed to the client's `onerror` so far. */
  readonly errors: readonly unknown[];
}

/** Call the fixture's `crash` tool (the server exits mid-call) and record how the client took it. */
export async function callCrashTool(client: Client): Promise<CrashedCall> {
  const errors: unknown[] = [];
  let closed = false;
  client.onerror = (error) => errors.push(error);
  client.onclose = () => {
    closed = true;
  };
  const started = Date.now();
  const error = await client.callTool({ name: 'crash', arguments: {} }, { timeout: 60_000 }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, elapsedMs: Date.now() - started, closed, errors };
}

/**
 * True while a process with this pid runs: like {@link isAlive}, but a zombie (exited, not yet
 * reaped, which an init that does not reap orphans leaves behind) counts as gone on Linux.
 */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until `check()` is true or `ms` passed; returns the last answer. */
export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return check();
}
