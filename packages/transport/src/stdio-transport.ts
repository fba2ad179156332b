import type { ChildProcess } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/client';
import { escapeControlText } from '@toolhost/contract';
import { deliverMessage } from './deliver-message.js';
import { parseMessageLine } from './parse-message.js';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import { LineReader } from './line-reader.js';
import { DEFAULT_MAX_MESSAGE_BYTES, errorAnswers, messageTooLarge } from './message-limits.js';
import { DEFAULT_INSTALL_GRACE_MS, packageRunnerOf } from './package-runner.js';
import { resolveSpawnCommand, type SpawnPlan } from './resolve-spawn-command.js';
import { StderrBuffer } from './stderr-buffer.js';
import { StderrStream, type StderrEvent } from './stderr-stream.js';
import { TransportError } from './transport-error.js';

/** Default wait after closing stdin, and again after SIGTERM, before the next step. */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

/** How a stdio server process ended: its exit code, or the signal that ended it. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended the process. */
  readonly code: number | null;
  /** The signal that ended the process (`SIGKILL`...), or `null` when it exited by itself. */
  readonly signal: NodeJS.Signals | null;
}

/** Options of {@link StdioTransport}. */
export interface StdioTransportOptions {
  /** Name of the server entry, used in errors. */
  serverName: string;
  /** Executable to run (no shell is involved). */
  command: string;
  /** Arguments. @default [] */
  args?: readonly string[];
  /** Working directory; checked before spawning. @default the host's working directory */
  cwd?: string;
  /** The complete environment of the child (nothing else is inherited). */
  env: Record<string, string>;
  /** Lines of stderr kept. @default 100 */
  stderrLines?: number;
  /**
   * Called with every line the child writes to stderr, as it comes, at most
   * `stderrLinesPerSecond` lines a second (the excess is reported as a `dropped` count). The
   * lines are raw server text: escape them before printing.
   */
  onStderr?: (event: StderrEvent) => void;
  /** Rate bound of `onStderr`. @default 100 */
  stderrLinesPerSecond?: number;
  /** Wait after closing stdin, and after SIGTERM, before escalating. @default 2000 */
  closeGraceMs?: number;
  /**
   * Wait after closing stdin, and again after SIGTERM, for a server started through a package
   * runner (`npx`, `uvx`, `pnpm dlx`..., see `packageRunnerOf`) that has not written anything to
   * stdout yet: the runner may still be downloading and installing the package, and stopping it
   * in the middle leaves a broken install in its cache (npm's npx cache), which then fails every
   * later start. Given this time, the runner finishes the install and the server, started with
   * stdin already closed, exits (or npm rolls the install back on SIGTERM). Never shorter than
   * `closeGraceMs`. @default 60000
   */
  installGraceMs?: number;
  /**
   * Cap of one message (one line of stdout), in bytes. A longer line fails the requests in
   * flight with `MESSAGE_TOO_LARGE` naming the server and the limit, and closes the transport.
   * @default 33554432 (32 MiB)
   */
  maxMessageBytes?: number;
}

/** Whether stdio servers get their own process group (every platform but Windows). */
const USE_PROCESS_GROUPS = process.platform !== 'win32';

/**
 * An MCP client transport over a child process's stdin/stdout. stderr is always piped into
 * `stderr` (never printed), and streamed to `onStderr` when it is given. On POSIX the child is started in its own process group (and
 * session), so that `close()` reaches whatever it started too (`npx`, shell wrappers...).
 * `close()` ends stdin, then sends SIGTERM, then SIGKILL, to the whole group, waiting
 * `closeGraceMs` between steps for the group to empty, and resolves once it has, or after
 * the SIGKILL step (at most about `3 × closeGraceMs`). A package runner (`npx`, `uvx`...) that
 * has not written to stdout yet may be installing: it gets `installGraceMs` instead for the first
 * two steps, so the install is finished or rolled back, never cut. On Windows there are no process
 * groups: the signals go to the child only, and a grandchild it started may outlive it.
 */
export class StdioTransport implements Transport {
  /** See `Transport.onclose`. */
  onclose?: () => void;
  /** See `Transport.onerror`. */
  onerror?: (error: Error) => void;
  /** See `Transport.onmessage`. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** The last stderr lines of the child. */
  readonly stderr: StderrBuffer;
  readonly #options: StdioTransportOptions;
  readonly #lines: LineReader;
  readonly #stderrStream: StderrStream | undefined;
  /** Ids of the requests sent and not answered yet. */
  readonly #outstanding = new Set<string | number>();
  #child: ChildProcess | undefined;
  #closing: Promise<void> | undefined;
  #closed = false;
  #exited: Promise<void> = Promise.resolve();
  #exitStatus: ExitStatus | undefined;
  /** Whether the child wrote anything to stdout (a package runner does not while it installs). */
  #answered = false;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.stderr = new StderrBuffer(options.stderrLines);
    if (options.onStderr) {
      const stream = new StderrStream({ listener: options.onStderr, maxLinesPerSecond: options.stderrLinesPerSecond });
      this.stderr.onLine((line) => stream.line(line));
      this.#stderrStream = stream;
    }
    this.#lines = new LineReader(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  /** Process id of the child once started, else `undefined`. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has (`undefined` while it runs or before it started). */
  get exitStatus(): ExitStatus | undefined {
    return this.#exitStatus;
  }

  /**
   * Checks `cwd`, finds the command (on Windows, see `resolveSpawnCommand`: an `npx.cmd` shim is
   * run as `node npx-cli.js`, another `.cmd` through `cmd.exe` with escaped arguments), spawns the
   * child without a shell and resolves once it is running.
   */
  async start(): Promise<void> {
    if (this.#child || this.#closed) throw this.#error('SERVER_NOT_CONNECTED', 'the transport was already started');
    const { serverName, command, cwd } = this.#options;
    if (cwd !== undefined) await assertDirectory(serverName, cwd);
    const plan = await this.#plan();
    // close() may have run while the checks above were awaited: spawn nothing then.
    if (this.#closed) throw this.#error('SERVER_NOT_CONNECTED', 'the transport was closed while it was starting');
    const { spawn } = await import('node:child_process');
    const child = spawn(plan.file, [...plan.args], {
      cwd,
      env: this.#options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: plan.windowsVerbatimArguments,
      // Own process group (setsid), so close() can signal everything the server started.
      detached: USE_PROCESS_GROUPS,
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('exit', (code, signal) => {
      this.#exitStatus = { code, signal };
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => this.stderr.write(chunk));
    child.stderr?.on('end', () => this.stderr.flush());
    child.stderr?.once('close', () => this.#stderrStream?.end());
    child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.once('close', () => this.#finish());
    // A grandchild can keep the pipes open after the child died; do not wait for it.
    child.once('exit', () => setTimeout(() => this.#finish(), 500).unref());
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (cause) => {
        this.#finish();
        reject(this.#error('SPAWN_FAILED', describeSpawnFailure(command, cause), cause));
      });
    });
    child.on('error', (error) => this.onerror?.(error));
  }

  /** The program and arguments to spawn; refuses a Windows command that is not found or cannot be passed safely. */
  async #plan(): Promise<Extract<SpawnPlan, { kind: 'spawn' }>> {
    const { command, cwd, env } = this.#options;
    const args = this.#options.args ?? [];
    const platform = process.platform;
    // Windows only reads the disk: there the command is looked up before spawning.
    const { statSync } = platform === 'win32' ? await import('node:fs') : { statSync: undefined };
    const plan = resolveSpawnCommand({
      command,
      args,
      platform,
      env,
      cwd: cwd ?? process.cwd(),
      isFile: (path) => statSync?.(path, { throwIfNoEntry: false })?.isFile() === true,
    });
    if (plan.kind === 'spawn') return plan;
    if (plan.kind === 'not-found') {
      const cause = Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
      throw this.#error('SPAWN_FAILED', describeSpawnFailure(command, cause), cause);
    }
    throw new TransportError({
      code: 'INVALID_CONFIG',
      message: `MCP server '${this.#options.serverName}': "args[${plan.index}]" has a line break, which cannot be passed to the batch file '${escapeControlText(command, { maxLength: 200 })}' (cmd.exe ends the command there). Remove the line break from "args".`,
      serverName: this.#options.serverName,
      command,
    });
  }

  /** Writes one message as a line of JSON. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing || this.#closed) throw this.#error('SERVER_NOT_CONNECTED', 'the server process is not running');
    const json = serializeMessage(message);
    if ('method' in message && 'id' in message) this.#outstanding.add(message.id);
    if (!stdin.write(json)) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Ends stdin, then SIGTERM, then SIGKILL (to the process group on POSIX); resolves when all is gone or after the SIGKILL step. */
  close(): Promise<void> {
    const child = this.#child;
    if (!child) {
      this.#finish();
      return Promise.resolve();
    }
    this.#closing ??= this.#shutdown(child);
    return this.#closing;
  }

  async #shutdown(child: ChildProcess): Promise<void> {
    const closeGrace = this.#options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    // A package runner that has not answered may be installing: killing it then breaks its cache.
    const installing = !this.#answered && packageRunnerOf(this.#options.command, this.#options.args) !== undefined;
    const grace = installing ? Math.max(closeGrace, this.#options.installGraceMs ?? DEFAULT_INSTALL_GRACE_MS) : closeGrace;
    const pid = child.pid;
    const group = USE_PROCESS_GROUPS && pid !== undefined ? pid : undefined;
    const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;
    // Done when the child has exited and (POSIX) nothing is left running in its process group.
    const isDone = async (): Promise<boolean> => hasExited() && (group === undefined || !(await groupHasLiveMembers(group)));
    const waitDone = async (ms: number): Promise<boolean> => {
      const deadline = Date.now() + ms;
      for (;;) {
        if (await isDone()) return true;
        const left = deadline - Date.now();
        if (left <= 0) return false;
        await Promise.race([this.#exited, new Promise<void>((resolve) => setTimeout(resolve, Math.min(left, 50)).unref())]);
      }
    };
    const signal = (name: NodeJS.Signals): void => {
      if (group === undefined) {
        child.kill(name);
        return;
      }
      try {
        process.kill(-group, name);
      } catch {
        // The group is already empty.
      }
    };
    try {
      child.stdin?.end();
    } catch {
      // stdin may already be destroyed; the signals below still apply.
    }
    if (!(await waitDone(grace))) {
      signal('SIGTERM');
      if (!(await waitDone(grace))) {
        signal('SIGKILL');
        await waitDone(closeGrace);
      }
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
    this.#finish();
  }

  #read(chunk: Buffer): void {
    this.#answered = true;
    this.#lines.push(
      chunk,
      (line) => this.#deliver(line),
      () => this.#tooLarge(),
    );
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = parseMessageLine(line);
    } catch (error) {
      // A line that is not JSON (stray output) is skipped, as the SDK does; report the others.
      if (!(error instanceof SyntaxError)) this.onerror?.(error as Error);
      return;
    }
    const { serverName } = this.#options;
    if ('method' in message) {
      deliverMessage(this, message, serverName);
      return;
    }
    if ('id' in message && message.id !== undefined) this.#outstanding.delete(message.id);
    // The SDK runs notification handlers one microtask later but settles a response at once:
    // deliver responses after the handlers of the notifications read before them, so the last
    // progress notifications of a call are not dropped as "unknown token".
    queueMicrotask(() => deliverMessage(this, message, serverName));
  }

  /** A line over the cap: the requests in flight fail with the limit error, then the transport closes. */
  #tooLarge(): void {
    if (this.#closing || this.#closed) return;
    const { serverName, command } = this.#options;
    const limit = this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const error = messageTooLarge({ serverName, what: 'a message (one line of stdout)', limit, command });
    const ids = [...this.#outstanding];
    this.#outstanding.clear();
    for (const answer of errorAnswers(ids, error)) deliverMessage(this, answer, serverName);
    this.onerror?.(error);
    void this.close();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#lines.clear();
    this.onclose?.();
  }

  #error(code: 'SERVER_NOT_CONNECTED' | 'SPAWN_FAILED', detail: string, cause?: unknown): TransportError {
    return new TransportError({
      code,
      message: `MCP server '${this.#options.serverName}': ${detail}`,
      serverName: this.#options.serverName,
      command: this.#options.command,
      stderr: this.stderr.lines(),
      cause,
    });
  }
}

/**
 * Why the command could not be started, in the user's words: not found on PATH (or no such
 * file), not executable, or Node's own message for anything else.
 */
function describeSpawnFailure(command: string, cause: Error): string {
  const shown = `'${escapeControlText(command, { maxLength: 300 })}'`;
  const code = (cause as NodeJS.ErrnoException).code;
  const isPath = /[\\/]/.test(command);
  if (code === 'ENOENT') {
    return isPath
      ? `could not start ${shown}: there is no such file (or the interpreter on its #! line is missing). Fix "command" in its settings entry.`
      : `could not start ${shown}: the command was not found on PATH. Install it, or set "command" to its full path.`;
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return `could not start ${shown}: permission denied (it is not executable, or a folder on the way cannot be entered). Make it executable (chmod +x) or run it through its interpreter.`;
  }
  return `could not start ${shown}: ${escapeControlText(cause.message, { maxLength: 300 })}. Check "command" in its settings entry.`;
}

async function assertDirectory(serverName: string, cwd: string): Promise<void> {
  const { stat } = await import('node:fs/promises');
  const isDirectory = await stat(cwd).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isDirectory) {
    throw new TransportError({
      code: 'CWD_NOT_FOUND',
      message: `MCP server '${serverName}': working directory '${cwd}' does not exist or is not a folder. Fix "cwd" in its settings entry or create the folder.`,
      serverName,
      cwd,
    });
  }
}

/**
 * Whether process group `group` still has a member that is not a zombie. `kill(-group, 0)`
 * answers for zombies too (an init that does not reap orphans leaves them), so on Linux the
 * members are looked up in /proc; elsewhere `kill` is trusted.
 */
async function groupHasLiveMembers(group: number): Promise<boolean> {
  try {
    process.kill(-group, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  const { readdir, readFile } = await import('node:fs/promises');
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after "(comm)": state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === group && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}
