/** Longest argument JSON shown whole in a confirmation request. */
export const MAX_ARGUMENT_DESCRIPTION_LENGTH = 500;

/**
 * The arguments of a tool call as the user sees them in a confirmation: the JSON, or, when it
 * is longer than 500 characters, `[Payload omitted due to length with parameters: a, b, ...]`
 * (at most five names).
 */
export function describeToolArguments(args: Readonly<Record<string, unknown>>): string {
  let json: string;
  try {
    json = JSON.stringify(args);
  } catch {
    json = '[unserialisable arguments]';
  }
  if (json.length <= MAX_ARGUMENT_DESCRIPTION_LENGTH) return json;
  const names = Object.keys(args);
  const shown = names.slice(0, 5).join(', ');
  return `[Payload omitted due to length with parameters: ${shown}${names.length > 5 ? ', ...' : ''}]`;
}
