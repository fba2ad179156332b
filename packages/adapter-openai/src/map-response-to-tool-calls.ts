import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { ModelToolCall } from '@toolhost/contract';
import { parseToolArguments } from './parse-tool-arguments.js';

/**
 * Find the `function_call` items of a Responses API response (or of its `output` array),
 * using each item's `call_id` as the call id and parsing its `arguments` JSON. Names are
 * returned as the model sent them; strict-mode `null`s are kept (remove them with
 * `stripStrictNulls`).
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` when a call's `arguments` is not a JSON object.
 */
export function mapResponseToToolCalls(response: Response | readonly ResponseOutputItem[]): ModelToolCall[] {
  const output: readonly ResponseOutputItem[] = Array.isArray(response) ? response : (response as Response).output;
  const calls: ModelToolCall[] = [];
  for (const item of output) {
    if (item.type !== 'function_call') continue;
    calls.push({
      id: item.call_id,
      name: item.name,
      arguments: parseToolArguments({ raw: item.arguments, toolName: item.name, callId: item.call_id }),
    });
  }
  return calls;
}
