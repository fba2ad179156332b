import type { FunctionTool } from 'openai/resources/responses/responses';
import type { HostToolDefinition } from '@toolhost/contract';
import { buildFunctionParameters, type OpenAIToolOptions } from './build-function-parameters.js';

/**
 * Turn host tools into Responses API `tools` entries (`{ type: 'function', name, parameters, strict }`).
 * Names are declared as given: they must already satisfy `OPENAI_TOOL_NAME_POLICY`.
 */
export function mapToolsToResponseTools(tools: readonly HostToolDefinition[], options: OpenAIToolOptions): FunctionTool[] {
  return tools.map((tool) => {
    const { parameters, strict } = buildFunctionParameters(tool, options.strict);
    return {
      type: 'function',
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters,
      strict,
    };
  });
}
