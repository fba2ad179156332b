import type { HostToolDefinition, JsonSchemaObject, ModelToolCall } from '@toolhost/host';
import { createToolNameMap, type ToolNameMap, type ToolNameMapOptions } from '@toolhost/schema-sanitizer';
import { stripStrictNulls } from './strip-strict-nulls.js';

/** OpenAI function names: `^[a-zA-Z0-9_-]{1,64}$` (no dots, unlike the host's names). */
const NAME_OPTIONS: ToolNameMapOptions = { normalize: (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_'), maxLength: 64 };

/**
 * What an OpenAI adapter remembers between declaring tools and reading calls: the name each
 * tool was declared under, and its original input schema, so arguments from a strict-mode
 * call can be cleaned of the `null`s strict mode forces.
 */
export class ToolCallRegistry {
  private schemas = new Map<string, JsonSchemaObject>();
  private names: ToolNameMap = createToolNameMap([], NAME_OPTIONS);

  constructor(private readonly strict: boolean) {}

  /** Record the tools about to be declared; returns them under the names OpenAI accepts. */
  declare(tools: readonly HostToolDefinition[]): HostToolDefinition[] {
    this.names = createToolNameMap(tools.map((tool) => tool.name), NAME_OPTIONS);
    // Only the tools of the latest declaration: a tool that went away leaves no stale schema behind.
    this.schemas = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
    return tools.map((tool, index) => ({ ...tool, name: this.names.vendorNames[index] ?? tool.name }));
  }

  /** A call as the host expects it: the registered tool name, and arguments as the MCP server expects them. */
  resolve(call: ModelToolCall): ModelToolCall {
    const name = this.names.toHost(call.name);
    const schema = this.schemas.get(name);
    const args = this.strict && schema ? stripStrictNulls(call.arguments, schema) : call.arguments;
    return { ...call, name, arguments: args };
  }
}
