import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { HostToolDefinition } from '@toolhost/contract';
import { sanitizeSchema } from '@toolhost/schema-sanitizer';

/**
 * Turn host tools into Anthropic Messages `tools` (`{ name, description, input_schema }`, profile `anthropic`).
 * Names are declared as given: they must already satisfy `ANTHROPIC_TOOL_NAME_POLICY`.
 */
export function mapToolsToAnthropicTools(tools: readonly HostToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: sanitizeSchema(tool.inputSchema, { profile: 'anthropic' }) as Tool.InputSchema,
  }));
}
