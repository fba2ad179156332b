import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AdapterError, type SamplingRequest, type SamplingResponse } from '@toolhost/contract';
import { classifyMedia, toDataUrl } from './classify-media.js';
import { samplingParts, type OpenAISamplingOptions } from './openai-sampling-options.js';

/** Answer a sampling request with `client.chat.completions.create`. */
export async function createChatMessage(
  request: SamplingRequest,
  options: { sampling: OpenAISamplingOptions; signal?: AbortSignal | undefined },
): Promise<SamplingResponse> {
  const { sampling } = options;
  const model = sampling.selectModel?.(request.modelPreferences) ?? sampling.model;
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
  for (const message of request.messages) {
    const parts = samplingParts(message.content);
    if (message.role === 'assistant') {
      messages.push({ role: 'assistant', content: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n') });
      continue;
    }
    const content: ChatCompletionContentPart[] = parts.map((part): ChatCompletionContentPart => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const kind = classifyMedia(part.mimeType);
      if (kind === 'image') return { type: 'image_url', image_url: { url: toDataUrl(part.mimeType, part.data) } };
      if (kind === 'wav' || kind === 'mp3') return { type: 'input_audio', input_audio: { data: part.data, format: kind } };
      return { type: 'text', text: `[${part.mimeType} data omitted: this model cannot receive it.]` };
    });
    messages.push({ role: 'user', content });
  }
  const completion = await sampling.client.chat.completions.create(
    {
      model,
      messages,
      max_completion_tokens: request.maxTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.stopSequences?.length ? { stop: [...request.stopSequences] } : {}),
    },
    options.signal ? { signal: options.signal } : undefined,
  );
  const choice = completion.choices[0];
  const text = choice?.message.content ?? '';
  if (!text) {
    throw new AdapterError({
      code: 'EMPTY_SAMPLING_RESPONSE',
      message: `OpenAI model '${model}' returned no text for the MCP sampling request (finish reason: ${choice?.finish_reason ?? 'none'}).`,
      provider: 'openai',
      finishReason: choice?.finish_reason,
    });
  }
  const stopReason =
    choice?.finish_reason === 'stop' ? 'endTurn' : choice?.finish_reason === 'length' ? 'maxTokens' : choice?.finish_reason;
  return { model: completion.model || model, text, ...(stopReason ? { stopReason } : {}) };
}
