// C0/C1 controls except tab and newline (ANSI escapes), bidirectional overrides and isolates, zero-width characters and BOM.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * Remove characters that can deceive a user or a terminal from text shown to the user:
 * control characters (ANSI escape sequences lose their ESC), BiDi overrides and isolates,
 * zero-width spaces and marks. Tabs and newlines are kept.
 */
export function sanitizeDisplayText(text: string): string {
  return text.replace(UNSAFE, '');
}
