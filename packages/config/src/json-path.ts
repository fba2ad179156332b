/** A path into a JSON document: object keys and array indices. */
export type JsonPathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * Formats a path the way people read it: `mcpServers.github.args[0]`,
 * with `["my.server"]` for keys that are not plain identifiers.
 *
 * @example formatJsonPath(['mcpServers', 'github', 'command']) // 'mcpServers.github.command'
 */
export function formatJsonPath(segments: readonly JsonPathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** A 1-based line and column in a text. */
export interface TextPosition {
  /** 1-based line. */
  line: number;
  /** 1-based column, counted in UTF-16 code units. */
  column: number;
}

/** Converts a 0-based character offset into a 1-based line and column. */
export function offsetToPosition(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
