/** How new JSON text is laid out, detected from the file being edited. */
export interface JsonTextStyle {
  /** One level of indentation: a tab or some spaces. */
  readonly indentUnit: string;
  /** Line ending: `\n` or `\r\n`. */
  readonly eol: string;
}

/** Detects the indentation unit and line ending of a JSON text (two spaces and `\n` by default). */
export function detectJsonTextStyle(text: string): JsonTextStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)["/}\]]/m.exec(text);
  const indent = indented?.[1];
  const indentUnit = indent === undefined ? '  ' : indent.startsWith('\t') ? '\t' : indent;
  return { indentUnit, eol };
}

/**
 * Formats a value as JSON text that continues at indentation `indent`: objects one key per
 * line, lists of plain values on one line (`["-y", "server"]`), other lists one item per line.
 */
export function formatJsonValue(value: unknown, style: JsonTextStyle, indent = ''): string {
  const inner = indent + style.indentUnit;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object'))
      return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `[${style.eol}${value.map((item) => inner + formatJsonValue(item, style, inner)).join(`,${style.eol}`)}${style.eol}${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJsonValue(item, style, inner)}`);
    return `{${style.eol}${lines.join(`,${style.eol}`)}${style.eol}${indent}}`;
  }
  return JSON.stringify(value);
}
