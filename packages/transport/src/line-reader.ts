/**
 * Splits a byte stream into lines in linear time: chunks are kept in a list, only the bytes of
 * each new chunk are scanned for a newline, and a line is joined once, when it ends. A line
 * longer than `maxLineBytes` is reported (once) and then skipped up to its end.
 */
export class LineReader {
  readonly #maxLineBytes: number;
  #chunks: Buffer[] = [];
  #length = 0;
  #skipping = false;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Adds a chunk; calls `onLine` for each complete line (without `\n` or a trailing `\r`), and
   * `onTooLong` when the line in progress goes over the cap (its bytes are then dropped).
   */
  push(chunk: Buffer, onLine: (line: string) => void, onTooLong: () => void): void {
    let start = 0;
    for (;;) {
      const index = chunk.indexOf(10, start);
      if (index === -1) break;
      const piece = chunk.subarray(start, index);
      start = index + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      if (this.#length + piece.length > this.#maxLineBytes) {
        this.clear();
        onTooLong();
        continue;
      }
      const line = this.#chunks.length === 0 ? piece : Buffer.concat([...this.#chunks, piece], this.#length + piece.length);
      this.clear();
      const text = line.toString('utf8');
      onLine(text.endsWith('\r') ? text.slice(0, -1) : text);
    }
    if (start >= chunk.length || this.#skipping) return;
    const rest = chunk.subarray(start);
    if (this.#length + rest.length > this.#maxLineBytes) {
      this.clear();
      this.#skipping = true;
      onTooLong();
      return;
    }
    this.#chunks.push(rest);
    this.#length += rest.length;
  }

  /** Drops what is buffered. */
  clear(): void {
    this.#chunks = [];
    this.#length = 0;
  }
}
