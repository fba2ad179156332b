/** Default {@link StderrStreamOptions.maxLinesPerSecond}. */
export const DEFAULT_STDERR_LINES_PER_SECOND = 100;

/**
 * One event of a stdio server's stderr stream: a complete line (at most 4096 characters, as the
 * server wrote it: untrusted, escape it before printing), or how many lines were dropped because
 * the server wrote more than the rate allows.
 */
export type StderrEvent =
  | {
      /** A line the server wrote. */
      readonly kind: 'line';
      /** The line without its line break, cut at 4096 characters; raw text from the server. */
      readonly line: string;
    }
  | {
      /** Lines were dropped. */
      readonly kind: 'dropped';
      /** How many lines of the last second were not delivered. */
      readonly count: number;
    };

/** Options of {@link StderrStream}. */
export interface StderrStreamOptions {
  /** Called for every event; a listener that throws is ignored. */
  readonly listener: (event: StderrEvent) => void;
  /**
   * Lines delivered per one-second window at most; the rest of the window is counted and reported
   * once as a `dropped` event when the window ends (or the stream does). @default 100
   */
  readonly maxLinesPerSecond?: number | undefined;
}

const WINDOW_MS = 1000;

/**
 * Rate-bounds a stream of stderr lines for a listener, so a server that floods its stderr cannot
 * flood the host: at most `maxLinesPerSecond` lines per one-second window reach the listener,
 * and the lines over it are reported as one `dropped` count at the end of the window.
 */
export class StderrStream {
  readonly #listener: (event: StderrEvent) => void;
  readonly #maxLines: number;
  #windowStart = Number.NEGATIVE_INFINITY;
  #delivered = 0;
  #dropped = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended = false;

  constructor(options: StderrStreamOptions) {
    this.#listener = options.listener;
    this.#maxLines = Math.max(0, Math.floor(options.maxLinesPerSecond ?? DEFAULT_STDERR_LINES_PER_SECOND));
  }

  /** Offer one complete line. */
  line(line: string): void {
    if (this.#ended) return;
    const now = Date.now();
    if (now - this.#windowStart >= WINDOW_MS) {
      this.#reportDropped();
      this.#windowStart = now;
      this.#delivered = 0;
    }
    if (this.#delivered < this.#maxLines) {
      this.#delivered += 1;
      this.#emit({ kind: 'line', line });
      return;
    }
    this.#dropped += 1;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#reportDropped(), Math.max(0, this.#windowStart + WINDOW_MS - now));
      this.#timer.unref?.();
    }
  }

  /** The stream ended: report what is still counted; later lines are ignored. */
  end(): void {
    if (this.#ended) return;
    this.#reportDropped();
    this.#ended = true;
  }

  #reportDropped(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#dropped === 0) return;
    const count = this.#dropped;
    this.#dropped = 0;
    this.#emit({ kind: 'dropped', count });
  }

  #emit(event: StderrEvent): void {
    try {
      this.#listener(event);
    } catch {
      // A faulty listener must not break the transport.
    }
  }
}
