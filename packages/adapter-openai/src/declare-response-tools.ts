import type { FunctionTool, NamespaceTool, ToolSearchTool } from 'openai/resources/responses/responses';
import type { HostToolDefinition, ToolDeclarationCheck, VendorLimitChecks } from '@toolhost/contract';
import { buildFunctionParameters } from './build-function-parameters.js';
import { mapToolsToResponseTools } from './map-tools-to-response-tools.js';
import { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';

/** A tool declaration the Responses adapter returns: a function, a namespace of deferred functions, or the `tool_search` tool. */
export type OpenAIResponsesToolDeclaration = FunctionTool | NamespaceTool | ToolSearchTool;

/** Options of {@link declareResponseTools}. */
export interface DeclareResponseToolsOptions {
  /** The adapter's limit checks. */
  readonly checks: VendorLimitChecks;
  /** Declare with `strict: true` and the `openai-strict` profile. */
  readonly strict: boolean;
}

/** How many tool names a namespace's description lists, and its longest length. */
const NAMESPACE_NAMES_LISTED = 12;
const NAMESPACE_DESCRIPTION_LENGTH = 600;

/**
 * One namespace per server for its deferred tools. OpenAI recommends namespaces for tool search
 * ("Our models have primarily been trained to search those surfaces"): the model sees only the
 * namespace's name and description until it searches (developers.openai.com/api/docs/guides/tools-tool-search).
 * The name is the server's under the tool name policy (with `_tools` after it if a tool has that
 * name); the description names the server and its first tools.
 */
function namespacesOf(deferred: readonly HostToolDefinition[], taken: ReadonlySet<string>, strict: boolean): NamespaceTool[] {
  const byName = new Map<string, { server: string; tools: HostToolDefinition[] }>();
  for (const tool of deferred) {
    const server = OPENAI_TOOL_NAME_POLICY.normalize(tool.serverName).slice(0, OPENAI_TOOL_NAME_POLICY.maxLength);
    const name = taken.has(server) ? `${server.slice(0, OPENAI_TOOL_NAME_POLICY.maxLength - 6)}_tools` : server;
    const group = byName.get(name) ?? { server, tools: [] };
    group.tools.push(tool);
    byName.set(name, group);
  }
  return [...byName].map(([name, group]) => {
    const listed = group.tools.slice(0, NAMESPACE_NAMES_LISTED).map((tool) => tool.name);
    const more = group.tools.length > listed.length ? `, and ${group.tools.length - listed.length} more` : '';
    const description = `Tools of the MCP server '${group.server}' (${group.tools.length}): ${listed.join(', ')}${more}.`;
    return {
      type: 'namespace',
      name,
      description:
        description.length > NAMESPACE_DESCRIPTION_LENGTH ? `${description.slice(0, NAMESPACE_DESCRIPTION_LENGTH - 1)}…` : description,
      tools: group.tools.map((tool) => {
        const { parameters } = buildFunctionParameters(tool, strict);
        return {
          type: 'function',
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          parameters,
          strict,
          defer_loading: true,
        };
      }),
    };
  });
}

/**
 * The `tools` of a Responses API request for the host's tools, within OpenAI's limits. Loaded
 * tools are function tools; tools marked `deferLoading` go, `defer_loading: true`, into one
 * namespace per server, and the hosted `tool_search` tool is added after everything, so the model
 * searches them on OpenAI's side (gpt-5.4 and later models). Without deferred tools the result is
 * what `mapToolsToResponseTools` returns.
 *
 * @throws AdapterError `VENDOR_LIMIT_EXCEEDED` over a limit (see `vendorLimitChecks`); `INVALID_OPTIONS`
 *   for a deferred tool when the adapter has no native tool search.
 */
export function declareResponseTools(
  tools: readonly HostToolDefinition[],
  options: DeclareResponseToolsOptions,
): OpenAIResponsesToolDeclaration[] {
  const { checks, strict } = options;
  const prepared = checks.prepareTools(tools);
  const loaded = prepared.filter((tool) => !tool.deferLoading);
  const deferred = prepared.filter((tool) => tool.deferLoading);
  const functions = mapToolsToResponseTools(loaded, { strict });
  const declared: OpenAIResponsesToolDeclaration[] = [...functions];
  if (deferred.length > 0) {
    declared.push(...namespacesOf(deferred, new Set(prepared.map((tool) => tool.name)), strict), { type: 'tool_search' });
  }
  checks.checkToolCount(declared.length);
  checks.checkDeclarations(
    declared.flatMap((declaration): ToolDeclarationCheck[] => {
      if (declaration.type === 'function') return [{ name: declaration.name, declaration, schema: declaration.parameters }];
      if (declaration.type !== 'namespace') return [{ name: declaration.type, declaration }];
      // A namespace counts once toward the request's size; each of its functions' schemas is checked on its own.
      return [
        { name: declaration.name, declaration },
        ...declaration.tools.map((member) => ({
          name: member.name,
          declaration: undefined,
          schema: 'parameters' in member ? member.parameters : undefined,
        })),
      ];
    }),
  );
  return declared;
}
