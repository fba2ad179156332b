/** Options of {@link CoalescedRunner}. */
export interface CoalescedRunnerOptions {
  /** The work to run; errors go to `onError`. */
  task: () => Promise<void>;
  /** Wait this long after the first trigger, so a burst of triggers runs the task once. */
  debounceMs: number;
  /** Receives errors thrown by `task`. */
  onError: (error: unknown) => void;
}

/**
 * Runs a task on demand without ever running two copies at once: triggers during the
 * debounce delay are merged, and triggers while the task runs cause exactly one more run.
 */
export class CoalescedRunner {
  readonly #options: CoalescedRunnerOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #pending = false;
  #stopped = false;

  /** Create an idle runner. */
  constructor(options: CoalescedRunnerOptions) {
    this.#options = options;
  }

  /** Ask for the task to run soon. */
  trigger(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#pending = true;
      return;
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#loop().finally(() => {
        this.#running = undefined;
      });
    }, this.#options.debounceMs);
  }

  /** Resolves once no run is scheduled or in progress. */
  async idle(): Promise<void> {
    while (this.#timer || this.#running) {
      if (this.#running) await this.#running;
      else await new Promise((resolve) => setTimeout(resolve, this.#options.debounceMs));
    }
  }

  /** Cancel a scheduled run and ignore later triggers; a run in progress finishes. */
  stop(): void {
    this.#stopped = true;
    this.#pending = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #loop(): Promise<void> {
    do {
      this.#pending = false;
      try {
        await this.#options.task();
      } catch (error) {
        this.#options.onError(error);
      }
    } while (this.#pending && !this.#stopped);
  }
}
