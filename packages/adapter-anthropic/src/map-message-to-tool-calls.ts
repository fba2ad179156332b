import type { ContentBlock, Message } from '@anthropic-ai/sdk/resources/messages';
import { AdapterError, type ModelToolCall } from '@toolhost/contract';

/**
 * Find the `tool_use` blocks of an Anthropic message (or of its `content` array), in order,
 * with each block's `id` as the call id and its `input` as the arguments. Names are returned
 * as the model sent them.
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` (with `toolName` and `callId`) when a block's `input` is not an object.
 */
export function mapMessageToToolCalls(message: Message | readonly ContentBlock[]): ModelToolCall[] {
  const content: readonly ContentBlock[] = Array.isArray(message) ? message : (message as Message).content;
  const calls: ModelToolCall[] = [];
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    const input: unknown = block.input ?? {};
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new AdapterError({
        code: 'INVALID_TOOL_ARGUMENTS',
        message: `The input the model produced for tool '${block.name}' is not a JSON object; retry the turn.`,
        provider: 'anthropic',
        toolName: block.name,
        callId: block.id,
      });
    }
    calls.push({ id: block.id, name: block.name, arguments: { ...(input as Record<string, unknown>) } });
  }
  return calls;
}
