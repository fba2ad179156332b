import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mapCallToolResult, type MapCallToolResultOptions } from '@toolhost/content-mapper';
import { checkStructuredContent } from './client-features/index.js';
import type { HostToolDefinition, ToolResultPart } from './model-adapter.js';
import type { MappedResult } from './run-tool-call.js';

/** How tool results are mapped for the model (the options of `mapCallToolResult` except the tool name). */
export type ResultMappingOptions = Omit<MapCallToolResultOptions, 'toolName'>;

/**
 * Map a `CallToolResult` with `@toolhost/content-mapper` into the host's parts, and check its
 * structured content leniently against the tool's `outputSchema` (`checkStructuredContent`):
 * JSON that only came back as text becomes the structured content; a mismatch is reported in
 * `structuredContentCheck`, never fatal.
 */
export function mapToolResult(result: CallToolResult, tool: HostToolDefinition, options: ResultMappingOptions = {}): MappedResult {
  const mapped = mapCallToolResult(result, { ...options, toolName: tool.originalName });
  const check = checkStructuredContent({ result, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}) });
  const structuredContent = mapped.structuredContent ?? (check.status === 'recovered-from-text' ? check.structuredContent : undefined);
  const parts: ToolResultPart[] = mapped.llmParts.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'inlineData', mimeType: part.mimeType, data: part.data },
  );
  return {
    parts,
    display: mapped.display,
    isError: mapped.isError,
    ...(structuredContent ? { structuredContent } : {}),
    ...(check.status !== 'none'
      ? { structuredContentCheck: { status: check.status, ...(check.errorMessage !== undefined ? { errorMessage: check.errorMessage } : {}) } }
      : {}),
  };
}
