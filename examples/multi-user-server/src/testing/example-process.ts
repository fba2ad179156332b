// Test helpers: run the built example as a process, and talk to its API.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built example. */
export const ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** A running example process. */
export interface ExampleProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** Every process started here, for `stopAll`. */
const started = new Set<ExampleProcess>();

/**
 * Spawn the built example with `args` (on port 0), without the variables it reads unless `env`
 * sets them, collecting stdout and stderr together.
 */
function spawnExample(args: readonly string[], env: Record<string, string | undefined>): { child: ChildProcess; output: () => string } {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, TOOLHOST_TOKEN_KEYS: undefined, TOOLHOST_STORE: undefined, ...env };
  for (const [name, value] of Object.entries(fullEnv)) if (value === undefined) delete fullEnv[name];
  const child = spawn(process.execPath, [ENTRY, '--port', '0', ...args], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { child, output: () => output };
}

/** Start the built example with `args` and wait for its URL. */
export async function startExample(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<ExampleProcess> {
  const { child, output } = spawnExample(args, env);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await waitForOutput(child, output, /multi-user-server listening on (\S+)\n/).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const running: ExampleProcess = {
    child,
    url,
    output,
    stop: async () => {
      started.delete(running);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  started.add(running);
  return running;
}

/**
 * Waits until `output()` matches `pattern`, checking on every chunk the child prints, and returns
 * the first group; rejects when the child ends first, or after a minute (a hang, not a slow machine).
 */
export function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(output());
      if (match) finish(() => resolve(match[1] ?? match[0]));
    };
    const ended = (code: number | null) => finish(() => reject(new Error(`the example exited (${code}):\n${output()}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`the example printed no ${pattern} within 60 s:\n${output()}`))), 60_000);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('close', ended);
      settle();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('close', ended);
    check();
  });
}

/** Run the built example to its end (for start-up errors): exit code and output. */
export async function runExampleToEnd(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnExample(args, env);
  // Only for a hang: a start-up error ends the example at once.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  // 'close': after the last of its output was read.
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output: output() };
}

/** Stop every example process still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((running) => running.stop()));
}

/** One API answer: HTTP status, headers and the JSON body. */
export interface ApiAnswer {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
  readonly body: any;
}

/** One request to the API as the user of `apiKey`. */
export async function api(url: string, apiKey: string | undefined, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (GET /status?format=text): the text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The text of a completed call's content. */
export function textOf(answer: ApiAnswer): string {
  const content = (answer.body as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? '').join('');
}
