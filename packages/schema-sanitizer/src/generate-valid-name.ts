/** Longest name a model accepts for a function declaration. */
export const MAX_TOOL_NAME_LENGTH = 63;

/**
 * Turn any MCP tool name into one that model APIs accept: every character outside
 * `a-z A-Z 0-9 _ . -` becomes `_`, and a name longer than 63 characters keeps its
 * first 28 and last 32 characters around `___`.
 *
 * @example
 * generateValidName('my tool/v2'); // 'my_tool_v2'
 */
export function generateValidName(name: string): string {
  const valid = name.replace(/[^a-zA-Z0-9_.-]/g, '_');
  if (valid.length <= MAX_TOOL_NAME_LENGTH) return valid;
  return `${valid.slice(0, 28)}___${valid.slice(-32)}`;
}
