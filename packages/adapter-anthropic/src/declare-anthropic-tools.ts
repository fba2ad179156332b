import type { Tool, ToolSearchToolBm25_20251119, ToolSearchToolRegex20251119 } from '@anthropic-ai/sdk/resources/messages';
import { AdapterError, type HostToolDefinition, type VendorLimitChecks } from '@toolhost/contract';
import { mapToolsToAnthropicTools } from './map-tools-to-anthropic-tools.js';

/** A tool declaration the Anthropic adapter returns: a host tool, or Anthropic's tool search tool. */
export type AnthropicToolDeclaration = Tool | ToolSearchToolBm25_20251119 | ToolSearchToolRegex20251119;

/** Which of Anthropic's tool search tools declares deferred tools: natural-language (BM25) or regular-expression queries. */
export type AnthropicToolSearchVariant = 'bm25' | 'regex';

/** Options of {@link declareAnthropicTools}. */
export interface DeclareAnthropicToolsOptions {
  /** The adapter's limit checks. */
  readonly checks: VendorLimitChecks;
  /** The tool search tool added when some tools are deferred. */
  readonly toolSearchVariant: AnthropicToolSearchVariant;
}

/**
 * Anthropic's tool search tools, by variant. Their `type` is versioned and their `name` fixed by
 * the API (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool; typed in
 * `@anthropic-ai/sdk` ≥ 1.12 as `ToolSearchToolBm25_20251119` and `ToolSearchToolRegex20251119`).
 * Generally available since 17 February 2026, so no beta header is needed.
 */
const TOOL_SEARCH_TOOLS = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
} as const satisfies Record<AnthropicToolSearchVariant, ToolSearchToolBm25_20251119 | ToolSearchToolRegex20251119>;

/**
 * The `tools` of a Messages request for the host's tools, within Anthropic's limits. Tools marked
 * `deferLoading` are declared with `defer_loading: true` and Anthropic's tool search tool is added
 * after the others; the search tool itself is never deferred, which keeps the rule that at least
 * one tool of a request must be loaded. Without deferred tools no search tool is added.
 *
 * @throws AdapterError `VENDOR_LIMIT_EXCEEDED` over a limit (see `vendorLimitChecks`), or when a host
 *   tool takes the search tool's name; `INVALID_OPTIONS` for a deferred tool without native tool search.
 */
export function declareAnthropicTools(
  tools: readonly HostToolDefinition[],
  options: DeclareAnthropicToolsOptions,
): AnthropicToolDeclaration[] {
  const { checks } = options;
  const prepared = checks.prepareTools(tools);
  const declared: AnthropicToolDeclaration[] = mapToolsToAnthropicTools(prepared).map((declaration, index) =>
    prepared[index]?.deferLoading ? { ...declaration, defer_loading: true } : declaration,
  );
  if (prepared.some((tool) => tool.deferLoading)) {
    const searchTool = TOOL_SEARCH_TOOLS[options.toolSearchVariant];
    if (prepared.some((tool) => tool.name === searchTool.name)) {
      throw new AdapterError({
        code: 'VENDOR_LIMIT_EXCEEDED',
        message:
          `Tool '${searchTool.name}' has the name of Anthropic's tool search tool, which the adapter adds for deferred tools; Anthropic rejects two tools of one name, so nothing was sent. ` +
          "Leave the tool out (a listTools filter) or use the other search tool (toolSearchTool: 'bm25' or 'regex').",
        provider: 'anthropic',
        toolName: searchTool.name,
        limit: 'toolNames',
      });
    }
    declared.push({ ...searchTool });
  }
  checks.checkToolCount(declared.length);
  checks.checkDeclarations(
    declared.map((declaration) => ({
      name: declaration.name,
      declaration,
      schema: 'input_schema' in declaration ? declaration.input_schema : undefined,
    })),
  );
  return declared;
}
