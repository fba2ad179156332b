import type { Content, GenerateContentConfig, GoogleGenAI, Part } from '@google/genai';
import { AdapterError, type ContentPart, type SamplingRequest, type SamplingResponse } from '@toolhost/contract';

/** How the Gemini adapter answers MCP `sampling/createMessage` requests. */
export interface GeminiSamplingOptions {
  /** Your `GoogleGenAI` client; the adapter never creates one and never reads API keys. */
  client: Pick<GoogleGenAI, 'models'>;
  /** The model that answers sampling requests (e.g. `gemini-2.5-flash`). */
  model: string;
  /**
   * Pick the model from the server's `modelPreferences`; return `undefined` to use `model`.
   * @default uses `model` always
   */
  selectModel?: (preferences: SamplingRequest['modelPreferences']) => string | undefined;
}

/**
 * Answer a sampling request with `client.models.generateContent`.
 *
 * @throws AdapterError `EMPTY_SAMPLING_RESPONSE` (with `finishReason`) when the model returns no text.
 */
export async function createGeminiMessage(
  request: SamplingRequest,
  options: { sampling: GeminiSamplingOptions; signal?: AbortSignal | undefined },
): Promise<SamplingResponse> {
  const { sampling } = options;
  const model = sampling.selectModel?.(request.modelPreferences) ?? sampling.model;
  const config: GenerateContentConfig = { maxOutputTokens: request.maxTokens };
  if (request.systemPrompt) config.systemInstruction = request.systemPrompt;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.stopSequences?.length) config.stopSequences = [...request.stopSequences];
  if (options.signal) config.abortSignal = options.signal;
  const contents: Content[] = request.messages.map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    parts: toArray(message.content).map(toGeminiPart),
  }));
  const response = await sampling.client.models.generateContent({ model, contents, config });
  const candidate = response.candidates?.[0];
  const text = (candidate?.content?.parts ?? [])
    .flatMap((part) => (typeof part.text === 'string' && !part.thought ? [part.text] : []))
    .join('');
  const finishReason = candidate?.finishReason;
  if (!text) {
    throw new AdapterError({
      code: 'EMPTY_SAMPLING_RESPONSE',
      message: `Gemini model '${model}' returned no text for the MCP sampling request (finish reason: ${finishReason ?? 'none'}).`,
      provider: 'gemini',
      finishReason,
    });
  }
  const result: { model: string; text: string; stopReason?: string } = {
    model: response.modelVersion ?? model,
    text,
  };
  if (finishReason) result.stopReason = mapFinishReason(finishReason);
  return result;
}

function toArray(content: ContentPart | readonly ContentPart[]): readonly ContentPart[] {
  return Array.isArray(content) ? content : [content as ContentPart];
}

function toGeminiPart(part: ContentPart): Part {
  return part.type === 'text' ? { text: part.text } : { inlineData: { mimeType: part.mimeType, data: part.data } };
}

function mapFinishReason(reason: string): string {
  if (reason === 'STOP') return 'endTurn';
  if (reason === 'MAX_TOKENS') return 'maxTokens';
  return reason;
}
