import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import type { ModelToolCall } from '@toolhost/contract';
import { parseToolArguments } from './parse-tool-arguments.js';

/**
 * Find the function tool calls in a Chat Completion (first choice) or in an assistant message,
 * keeping each call's `id` and parsing its `arguments` JSON. Names are returned as the model
 * sent them; strict-mode `null`s are kept (remove them with `stripStrictNulls`).
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` when a call's `arguments` is not a JSON object.
 */
export function mapChatCompletionToToolCalls(response: ChatCompletion | ChatCompletionMessage): ModelToolCall[] {
  const message = 'choices' in response ? response.choices[0]?.message : response;
  const calls: ModelToolCall[] = [];
  for (const toolCall of message?.tool_calls ?? []) {
    if (toolCall.type !== 'function') continue;
    const { name, arguments: raw } = toolCall.function;
    calls.push({ id: toolCall.id, name, arguments: parseToolArguments({ raw, toolName: name, callId: toolCall.id }) });
  }
  return calls;
}
