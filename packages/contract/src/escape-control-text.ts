/** Options of {@link escapeControlText}. */
export interface EscapeControlTextOptions {
  /**
   * Longest result in characters (before escaping); longer text is cut and ends with `…`.
   * @default unlimited
   */
  readonly maxLength?: number | undefined;
  /**
   * True to keep line feeds and tabs (text shown as a block, like server instructions or a tool
   * description sent to the model); by default every control character is escaped, so the text
   * stays on one line and cannot forge a log line. @default false
   */
  readonly multiline?: boolean | undefined;
}

// C0 controls, DEL, C1 controls, LRM/RLM, zero-width space/non-joiner/joiner, BiDi embeddings and
// overrides, word joiner, BiDi isolates, the byte-order mark.
// eslint-disable-next-line no-control-regex -- the control characters are what is being escaped
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

// Unicode tag characters (U+E0000–U+E007F), invisible on screen.
const TAG = /[\u{e0000}-\u{e007f}]/gu;

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The first `length` UTF-16 units of `text`, without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * Text a server controls (an error description, a tool name or description, an elicitation
 * message...) made safe to embed in an error message or print to a terminal: C0 and C1 control
 * characters (ESC, BEL, CR, LF...), DEL, BiDi overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069, U+200E/U+200F) and zero-width characters (U+200B–U+200D, U+2060, U+FEFF) are
 * written as visible `\uXXXX` escapes, so the text cannot clear the screen, set the window title,
 * reorder what is shown or forge log lines. Unicode tag characters (U+E0000–U+E007F) are written
 * as `\u{e00XX}`. With `multiline`, line feeds and tabs are kept.
 *
 * @example
 * ```ts
 * escapeControlText('bad\u001b[2J\nINFO forged', { maxLength: 300 }); // 'bad\\u001b[2J\\u000aINFO forged'
 * ```
 */
export function escapeControlText(text: string, options: EscapeControlTextOptions = {}): string {
  const { maxLength, multiline = false } = options;
  const bounded = maxLength !== undefined && text.length > maxLength ? `${cut(text, maxLength)}…` : text;
  return bounded
    .replace(UNSAFE, (char) => (multiline && (char === '\n' || char === '\t') ? char : escapeChar(char)))
    .replace(TAG, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`);
}

/**
 * Removes Unicode tag characters (U+E0000–U+E007F), which render as nothing but are read by
 * language models ("ASCII smuggling" of hidden instructions in a tool description).
 */
export function stripTagCharacters(text: string): string {
  return text.replace(TAG, '');
}
