import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { HostToolDefinition } from '@toolhost/contract';
import { buildFunctionParameters, type OpenAIToolOptions } from './build-function-parameters.js';

/**
 * Turn host tools into Chat Completions `tools` entries (`{ type: 'function', function }`).
 * Names are declared as given: they must already satisfy `OPENAI_TOOL_NAME_POLICY`.
 */
export function mapToolsToChatTools(tools: readonly HostToolDefinition[], options: OpenAIToolOptions): ChatCompletionFunctionTool[] {
  return tools.map((tool) => {
    const { parameters, strict } = buildFunctionParameters(tool, options.strict);
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters,
        strict,
      },
    };
  });
}
