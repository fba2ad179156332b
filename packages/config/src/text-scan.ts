import { createScanner } from 'jsonc-parser';

// jsonc-parser's SyntaxKind is a const enum, which `verbatimModuleSyntax` cannot import:
// LineCommentTrivia 12, BlockCommentTrivia 13, LineBreakTrivia 14, Trivia 15.
const TRIVIA: ReadonlySet<number> = new Set([12, 13, 14, 15]);

/** The first real token (not whitespace or a comment) at or after `offset`: its offset and whether it is a comma. */
export function nextToken(text: string, offset: number): { isComma: boolean; offset: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let kind: number = scanner.scan();
  while (TRIVIA.has(kind)) kind = scanner.scan();
  const start = scanner.getTokenOffset();
  return { isComma: text[start] === ',', offset: start };
}

/** Offset where the line containing `offset` starts. */
export function lineStart(text: string, offset: number): number {
  const index = text.lastIndexOf('\n', offset - 1);
  return index + 1;
}

/** The spaces and tabs that begin the line containing `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  let end = start;
  while (text[end] === ' ' || text[end] === '\t') end++;
  return text.slice(start, end);
}

/** True when only spaces and tabs precede `offset` on its line. */
export function isFirstOnLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === '';
}

/** True when only spaces, tabs and a carriage return follow `offset` up to the end of its line. */
export function isRestOfLineBlank(text: string, offset: number): boolean {
  const end = text.indexOf('\n', offset);
  return text.slice(offset, end === -1 ? text.length : end).trim() === '';
}

/** Offset just after the last character before `offset` that is not a space, tab or line break. */
export function skipWhitespaceBackward(text: string, offset: number): number {
  let index = offset;
  while (index > 0 && /[ \t\r\n]/.test(text[index - 1] as string)) index--;
  return index;
}
