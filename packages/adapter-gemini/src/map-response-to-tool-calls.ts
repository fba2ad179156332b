import type { Content, GenerateContentResponse, Part } from '@google/genai';
import { AdapterError, type ModelToolCall } from '@toolhost/contract';

/**
 * Find the tool calls in a Gemini response: every `functionCall` part of the first candidate,
 * in order, keeping the call `id` when the API sent one. Also accepts a `Content` (a turn
 * taken from the chat history). Names are returned exactly as the model sent them.
 *
 * @throws AdapterError `INVALID_TOOL_CALL` for a `functionCall` part without a name.
 */
export function mapResponseToToolCalls(response: GenerateContentResponse | Content): ModelToolCall[] {
  const parts: Part[] = 'candidates' in response ? (response.candidates?.[0]?.content?.parts ?? []) : ((response as Content).parts ?? []);
  const calls: ModelToolCall[] = [];
  for (const part of parts) {
    const functionCall = part.functionCall;
    if (!functionCall) continue;
    if (!functionCall.name) {
      throw new AdapterError({
        code: 'INVALID_TOOL_CALL',
        message: 'The Gemini response has a functionCall part without a name, so no tool can be called for it.',
        provider: 'gemini',
        callId: functionCall.id,
      });
    }
    const call: { id?: string; name: string; arguments: Record<string, unknown> } = {
      name: functionCall.name,
      arguments: isRecord(functionCall.args) ? { ...functionCall.args } : {},
    };
    if (functionCall.id) call.id = functionCall.id;
    calls.push(call);
  }
  return calls;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
