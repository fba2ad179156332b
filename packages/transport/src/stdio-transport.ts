import type { ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/client';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import { StderrBuffer } from './stderr-buffer.js';
import { TransportError } from './transport-error.js';

/** Default wait after closing stdin, and again after SIGTERM, before the next step. */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

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
  /** Wait after closing stdin, and after SIGTERM, before escalating. @default 2000 */
  closeGraceMs?: number;
}

/**
 * An MCP client transport over a child process's stdin/stdout. stderr is always piped into
 * `stderr` (never printed). `close()` ends stdin, then sends SIGTERM, then SIGKILL, waiting
 * `closeGraceMs` between steps, and resolves once the process has exited.
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
  readonly #readBuffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  #closing: Promise<void> | undefined;
  #closed = false;
  #exited: Promise<void> = Promise.resolve();

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.stderr = new StderrBuffer(options.stderrLines);
  }

  /** Process id of the child once started, else `undefined`. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Checks `cwd`, spawns the child and resolves once it is running. */
  async start(): Promise<void> {
    if (this.#child || this.#closed) throw this.#error('SERVER_NOT_CONNECTED', 'the transport was already started');
    const { serverName, command, cwd } = this.#options;
    if (cwd !== undefined) await assertDirectory(serverName, cwd);
    const spawn = (await import('cross-spawn')).default;
    // close() may have run while the checks above were awaited: spawn nothing then.
    if (this.#closed) throw this.#error('SERVER_NOT_CONNECTED', 'the transport was closed while it was starting');
    const child = spawn(command, [...(this.#options.args ?? [])], {
      cwd,
      env: this.#options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => this.stderr.write(chunk));
    child.stderr?.on('end', () => this.stderr.flush());
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
        reject(this.#error('SPAWN_FAILED', `could not start '${command}': ${cause.message}. Check "command" and PATH.`, cause));
      });
    });
    child.on('error', (error) => this.onerror?.(error));
  }

  /** Writes one message as a line of JSON. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing || this.#closed) throw this.#error('SERVER_NOT_CONNECTED', 'the server process is not running');
    const json = serializeMessage(message);
    if (!stdin.write(json)) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Ends stdin, then SIGTERM, then SIGKILL; resolves when the process is gone. */
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
    const grace = this.#options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;
    const waitExit = (ms: number): Promise<boolean> =>
      hasExited()
        ? Promise.resolve(true)
        : Promise.race([
            this.#exited.then(() => true),
            new Promise<boolean>((resolve) => setTimeout(() => resolve(hasExited()), ms).unref()),
          ]);
    try {
      child.stdin?.end();
    } catch {
      // stdin may already be destroyed; the signals below still apply.
    }
    if (!(await waitExit(grace))) {
      child.kill('SIGTERM');
      if (!(await waitExit(grace))) {
        child.kill('SIGKILL');
        await waitExit(grace);
      }
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
    this.#finish();
  }

  #read(chunk: Buffer): void {
    try {
      this.#readBuffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.#readBuffer.readMessage();
        if (message === null) break;
        this.onmessage?.(message);
      } catch (error) {
        // The bad line is consumed; report it and keep reading the next ones.
        this.onerror?.(error as Error);
      }
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#readBuffer.clear();
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
