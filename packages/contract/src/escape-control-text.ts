/** Options of {@link escapeControlText}. */
export interface EscapeControlTextOptions {
  /**
   * Longest result in characters (before escaping); longer text is cut and ends with `…`.
   * @default unlimited
   */
  readonly maxLength?: number | undefined;
  /**
   * True to keep line feeds and tabs (text shown as a block, like server instructions or a tool
   * description sent to the model), a CR LF pair becoming a line feed; by default every control
   * character is escaped, so the text stays on one line and cannot forge a log line. @default false
   */
  readonly multiline?: boolean | undefined;
}

// What is escaped, by Unicode property, so that new characters of the same kind are caught too:
// - Cc: C0 controls (ESC, BEL, CR, LF...), DEL and C1 controls (CSI U+009B...): terminal control;
// - Cf: format characters: BiDi embeddings, overrides, isolates and marks (U+202A–U+202E,
//   U+2066–U+2069, U+200E/U+200F, U+061C), zero-width characters (U+200B–U+200D, U+2060, U+FEFF),
//   the soft hyphen, interlinear annotations (U+FFF9–U+FFFB), tag characters: they reorder or
//   hide what is shown;
// - Zl, Zp: U+2028, U+2029, which some terminals, editors and log viewers take as line breaks;
// - Default_Ignorable_Code_Point: what renders as nothing (Hangul fillers, variation selectors,
//   the unassigned rest of the tag block U+E0000–U+E0FFF...), so two names could differ unseen;
// - Cs: a lone surrogate half, which an encoder turns into U+FFFD or refuses.
// Kept, so emoji stay readable: a variation selector 15/16 (U+FE0E/U+FE0F) right after an emoji
// (`⚠️`), and a zero-width joiner between two emoji (`👩‍💻`, `❤️‍🔥`). Both only change which emoji
// picture is drawn; they cannot hide text or reorder it.
const EMOJI_JOINER = String.raw`(?<=\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]?)\u200D(?=\p{Extended_Pictographic})`;
const EMOJI_PRESENTATION = String.raw`(?<=\p{Emoji})[\uFE0E\uFE0F]`;
const UNSAFE = new RegExp(
  String.raw`(?!${EMOJI_JOINER}|${EMOJI_PRESENTATION})[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}]`,
  'gu',
);

// Unicode tag characters (U+E0000–U+E007F), invisible on screen.
const TAG = /[\u{e0000}-\u{e007f}]/gu;

/** `\uXXXX` for a character of the Basic Multilingual Plane (or a lone surrogate), `\u{XXXXX}` above it. */
function escapeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The first `length` UTF-16 units of `text`, without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * Text a server, a settings file or a network peer controls (an error description, a tool name,
 * description or schema, a server name, a command line, an elicitation message...) made safe to
 * embed in a message, print to a terminal or write to a log. The one escaping function of
 * toolhost: everything a package shows goes through it.
 *
 * Written as visible escapes (`\u001b`, `\u202e`, `\u{e0041}`), so the text cannot clear the
 * screen, set the window title, reorder what is shown, hide words or forge log lines:
 * - control characters: C0 (ESC, BEL, CR, LF, TAB...), DEL, C1 (U+0080–U+009F);
 * - line and paragraph separators U+2028, U+2029;
 * - format characters: BiDi embeddings, overrides, isolates and marks (U+202A–U+202E,
 *   U+2066–U+2069, U+200E, U+200F, U+061C), zero-width characters (U+200B–U+200D, U+2060,
 *   U+FEFF), the soft hyphen, interlinear annotation marks;
 * - Unicode tag characters (U+E0000–U+E007F) and every other default-ignorable code point
 *   (characters that render as nothing: Hangul fillers, variation selectors...);
 * - lone surrogate halves.
 *
 * Kept: letters, marks and symbols of every script, and emoji sequences (a variation selector
 * U+FE0E/U+FE0F after an emoji, a zero-width joiner between two emoji). A subdivision flag,
 * written with tag characters, shows them escaped. With `multiline`, line feeds and tabs are kept
 * and CR LF becomes LF (a lone CR, which can overwrite a line, is still escaped). Escaping twice
 * changes nothing more: the escapes are plain ASCII.
 *
 * @example
 * ```ts
 * escapeControlText('bad\u001b[2J\nINFO forged', { maxLength: 300 }); // 'bad\\u001b[2J\\u000aINFO forged'
 * escapeControlText('invoice\u202Efdp.exe'); // 'invoice\\u202efdp.exe'
 * ```
 */
export function escapeControlText(text: string, options: EscapeControlTextOptions = {}): string {
  const { maxLength, multiline = false } = options;
  const bounded = maxLength !== undefined && text.length > maxLength ? `${cut(text, maxLength)}…` : text;
  const lines = multiline ? bounded.replace(/\r\n/g, '\n') : bounded;
  return lines.replace(UNSAFE, (char) => (multiline && (char === '\n' || char === '\t') ? char : escapeChar(char)));
}

/**
 * Removes Unicode tag characters (U+E0000–U+E007F), which render as nothing but are read by
 * language models ("ASCII smuggling" of hidden instructions in a tool description).
 */
export function stripTagCharacters(text: string): string {
  return text.replace(TAG, '');
}
