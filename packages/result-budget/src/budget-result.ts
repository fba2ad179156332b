import type { ContentPart, InlineDataPart } from '@toolhost/contract';
import { serializeJson } from './json-value.js';

/**
 * A tool result as a host holds it for the model: the shape of `ToolCallOutcome` (and of what
 * `mapCallToolResult` of `@toolhost/content-mapper` returns): all text in one part first, then one
 * inline-data part per image, audio clip or blob, and the server's `structuredContent`.
 */
export interface BudgetResult {
  /** Parts for the model. */
  readonly parts: readonly ContentPart[];
  /** The server's `structuredContent`, when it sent one. */
  readonly structuredContent?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The full text of a result, the text a stored result is paged through: the text of its text
 * parts joined by a line feed; when it has no text part, the compact JSON of its `structuredContent`
 * (as `mapCallToolResult` sends it when the server sent no text; written without recursion, so a
 * hostile depth is fine); else the empty string.
 *
 * @example
 * ```ts
 * resultText({ parts: [{ type: 'text', text: '{"a":1}' }] }); // '{"a":1}'
 * ```
 */
export function resultText(result: BudgetResult): string {
  const texts: string[] = [];
  for (const part of result.parts) if (part.type === 'text') texts.push(part.text);
  if (texts.length > 0) return texts.join('\n');
  return result.structuredContent === undefined ? '' : serializeJson(result.structuredContent);
}

/** The inline-data parts of a result, in order. */
export function resultMedia(result: BudgetResult): InlineDataPart[] {
  return result.parts.filter((part): part is InlineDataPart => part.type === 'inlineData');
}
