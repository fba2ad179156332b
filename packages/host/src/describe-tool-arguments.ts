import { formatArgumentsPreview } from '@toolhost/confirmation';

/**
 * The arguments of a tool call as the user sees them in a confirmation: the JSON, or, when it
 * is longer than 500 characters, `[Payload omitted due to length with parameters: a, b, ...]`
 * (at most five names). The same preview as `formatArgumentsPreview` of `@toolhost/confirmation`.
 */
export function describeToolArguments(args: Readonly<Record<string, unknown>>): string {
  return formatArgumentsPreview(args);
}
