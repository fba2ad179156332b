import { createInterface, type Interface } from 'node:readline/promises';

/** The chat's one readline: questions for the user, and lines printed between them. */
export interface Terminal {
  /** Ask and wait for a line; `undefined` when input ended (Ctrl-D, Ctrl-C, closed pipe) or `signal` aborted. */
  ask(question: string, options?: { signal?: AbortSignal }): Promise<string | undefined>;
  /** Print a line. */
  print(text: string): void;
  /** Stop reading input. */
  close(): void;
}

/** Create the terminal on stdin/stdout. Ctrl-C ends the chat instead of killing the process. */
export function createTerminal(): Terminal {
  const readline: Interface = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  let closed = false;
  readline.on('close', () => {
    closed = true;
  });
  readline.on('SIGINT', () => readline.close());
  return {
    async ask(question, options = {}) {
      if (closed) return undefined;
      try {
        return await readline.question(question, options.signal ? { signal: options.signal } : {});
      } catch {
        return undefined;
      }
    },
    print(text) {
      console.log(text);
    },
    close() {
      readline.close();
    },
  };
}
