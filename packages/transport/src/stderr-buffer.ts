/** Default number of stderr lines kept per stdio server. */
export const DEFAULT_STDERR_LINES = 100;

/** Longest line kept, in characters; longer lines are cut (a server may write megabytes without a newline). */
const MAX_LINE_LENGTH = 4096;

/**
 * Keeps the last `maxLines` lines written to a stream, and nothing else.
 * Feed it chunks with `write`; read them with `lines()`.
 */
export class StderrBuffer {
  /** How many lines are kept. */
  readonly maxLines: number;
  readonly #kept: string[] = [];
  #partial = '';
  readonly #listeners = new Set<(line: string) => void>();

  constructor(maxLines: number = DEFAULT_STDERR_LINES) {
    this.maxLines = Math.max(0, Math.floor(maxLines));
  }

  /** Appends a chunk of output; complete lines are stored, the rest waits for its newline. */
  write(chunk: string): void {
    const parts = (this.#partial + chunk).split(/\r?\n/);
    this.#partial = (parts.pop() ?? '').slice(-MAX_LINE_LENGTH);
    for (const part of parts) this.#push(part.slice(0, MAX_LINE_LENGTH));
  }

  /** Stores the unfinished last line, if any (call when the stream ends). */
  flush(): void {
    if (this.#partial) this.#push(this.#partial);
    this.#partial = '';
  }

  /** The kept lines, oldest first. */
  lines(): string[] {
    return [...this.#kept];
  }

  /** Calls `listener` for every later complete line; returns a function that unsubscribes. */
  onLine(listener: (line: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #push(line: string): void {
    if (this.maxLines > 0) {
      this.#kept.push(line);
      if (this.#kept.length > this.maxLines) this.#kept.shift();
    }
    for (const listener of this.#listeners) listener(line);
  }
}
