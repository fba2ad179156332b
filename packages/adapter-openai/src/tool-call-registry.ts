import type { HostToolDefinition, JsonSchemaObject } from '@toolhost/host';
import { stripStrictNulls } from './strip-strict-nulls.js';

/**
 * Remembers the original input schema of each tool handed to the model, so arguments that
 * come back from a strict-mode call can be cleaned of the `null`s strict mode forces.
 */
export class ToolCallRegistry {
  private readonly schemas = new Map<string, JsonSchemaObject>();

  constructor(private readonly strict: boolean) {}

  /** Record the tools just declared to the model (a later declaration of a name wins). */
  remember(tools: readonly HostToolDefinition[]): void {
    for (const tool of tools) this.schemas.set(tool.name, tool.inputSchema);
  }

  /** Arguments as the MCP server expects them. */
  clean(toolName: string, args: Record<string, unknown>): Record<string, unknown> {
    const schema = this.schemas.get(toolName);
    return this.strict && schema ? stripStrictNulls(args, schema) : args;
  }
}
