import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Options of {@link startExample}. */
export interface StartExampleOptions {
  /** The built entry point (`dist/index.js`). */
  readonly entry: string;
  /** The example's package name, for the "build it first" message. */
  readonly packageName: string;
  /** The environment of the example process. */
  readonly env: NodeJS.ProcessEnv;
  /** Its working directory. */
  readonly cwd: string;
}

/** A running example, driven through its stdin and read through stdout and stderr together. */
export interface RunningExample {
  /** The process. */
  readonly child: ChildProcessWithoutNullStreams;
  /** Wait until `text` appears after what was already consumed, then consume up to it; rejects if the process exits first. */
  waitFor(text: string): Promise<void>;
  /** Type a line. */
  send(line: string): void;
  /** Everything printed so far. */
  output(): string;
}

/** Run a built example as a user would, with Node, and drive it line by line. */
export function startExample(options: StartExampleOptions): RunningExample {
  const { entry } = options;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "pnpm --filter ${options.packageName} build" first`);
  const child = spawn(process.execPath, [entry], { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let read = 0;
  const waiters: (() => void)[] = [];
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    wakeAll();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('exit', wakeAll);
  async function waitFor(text: string): Promise<void> {
    for (;;) {
      const at = output.indexOf(text, read);
      if (at >= 0) {
        read = at + text.length;
        return;
      }
      if (child.exitCode !== null) throw new Error(`example exited before printing "${text}":\n${output}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }
  return { child, waitFor, send: (line) => void child.stdin.write(`${line}\n`), output: () => output };
}

/** This process's environment without `remove` (API keys, base URLs), plus `extra`. */
export function exampleEnv(extra: Record<string, string>, remove: readonly string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of remove) delete env[name];
  return { ...env, ...extra };
}
