import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, type CallToolRequest, type CompatibilityCallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * An SDK `Client` whose `callTool` never rejects a result because of the tool's `outputSchema`.
 * The SDK's `callTool` throws -32600 when a tool with an output schema returns no
 * `structuredContent`, and -32602 when it does not match, losing a result the model could use
 * (gemini-cli#21053). Here the result is returned as the server sent it; check it leniently with
 * `checkStructuredContent`.
 */
export class LenientClient extends Client {
  override async callTool(
    params: CallToolRequest['params'],
    resultSchema: typeof CallToolResultSchema | typeof CompatibilityCallToolResultSchema = CallToolResultSchema,
    options?: RequestOptions,
  ): ReturnType<Client['callTool']> {
    return this.request({ method: 'tools/call', params }, resultSchema, options);
  }
}
