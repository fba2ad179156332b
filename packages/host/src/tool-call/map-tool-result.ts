import type { CallToolResult } from '@toolhost/connection';
import { mapCallToolResult, type MapCallToolResultOptions } from '@toolhost/content-mapper';
import type { ContentPart, HostToolDefinition } from '@toolhost/contract';
import { checkStructuredContent, type StructuredContentStatus } from '../client-features/structured-content.js';

/** How tool results are mapped for the model (the options of `mapCallToolResult` of `@toolhost/content-mapper`, except the tool name). */
export type ResultMappingOptions = Omit<MapCallToolResultOptions, 'toolName'>;

/** The lenient `outputSchema` check of one result: reported, never fatal. */
export interface StructuredContentReport {
  /**
   * `valid`, `recovered-from-text` (JSON only in text, used as the structured content), `invalid`
   * (does not match the schema; passed on anyway), `missing`, `unchecked` (schema not compilable)
   * or `error-result`.
   */
  readonly status: Exclude<StructuredContentStatus, 'none'>;
  /** Why validation failed, for `invalid` and `unchecked`. */
  readonly errorMessage?: string;
}

/** A tool result mapped for the model and the user. */
export interface MappedResult {
  /** Parts for the model. */
  readonly parts: readonly ContentPart[];
  /** Short user-facing summary. */
  readonly display: string;
  /** Whether the tool reported an error. */
  readonly isError: boolean;
  /** The server's `structuredContent`, or the JSON object its text held when the tool has an `outputSchema`. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** How the structured content relates to the tool's `outputSchema` (absent when neither exists). */
  readonly structuredContentCheck?: StructuredContentReport;
}

/**
 * Map a `CallToolResult` with `@toolhost/content-mapper`, and check its structured content
 * leniently against the tool's `outputSchema`: JSON that only came back as text becomes the
 * structured content; a mismatch is reported, never fatal.
 */
export function mapToolResult(result: CallToolResult, tool: HostToolDefinition, options: ResultMappingOptions): MappedResult {
  const mapped = mapCallToolResult(result, { ...options, toolName: tool.originalName });
  if (!tool.outputSchema && mapped.structuredContent === undefined) {
    return { parts: mapped.llmParts, display: mapped.display, isError: mapped.isError };
  }
  const check = checkStructuredContent({ result, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}) });
  const structuredContent =
    mapped.structuredContent ?? (check.status === 'recovered-from-text' ? asObject(check.structuredContent) : undefined);
  return {
    parts: mapped.llmParts,
    display: mapped.display,
    isError: mapped.isError,
    ...(structuredContent ? { structuredContent } : {}),
    ...(check.status !== 'none'
      ? {
          structuredContentCheck: {
            status: check.status,
            ...(check.errorMessage !== undefined ? { errorMessage: check.errorMessage } : {}),
          },
        }
      : {}),
  };
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
