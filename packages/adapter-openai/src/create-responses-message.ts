import type { ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import { AdapterError, type SamplingRequest, type SamplingResponse } from '@toolhost/contract';
import { classifyMedia, toDataUrl } from './classify-media.js';
import { samplingParts, type OpenAISamplingOptions } from './openai-sampling-options.js';

/**
 * Answer a sampling request with `client.responses.create`. The Responses API has no stop
 * sequences, so `stopSequences` is not sent.
 */
export async function createResponsesMessage(
  request: SamplingRequest,
  options: { sampling: OpenAISamplingOptions; signal?: AbortSignal | undefined },
): Promise<SamplingResponse> {
  const { sampling } = options;
  const model = sampling.selectModel?.(request.modelPreferences) ?? sampling.model;
  const input: ResponseInputItem[] = request.messages.map((message) => {
    const parts = samplingParts(message.content);
    if (message.role === 'assistant') {
      return { role: 'assistant', content: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n') };
    }
    const content: ResponseInputContent[] = parts.map((part): ResponseInputContent => {
      if (part.type === 'text') return { type: 'input_text', text: part.text };
      const kind = classifyMedia(part.mimeType);
      if (kind === 'image') return { type: 'input_image', image_url: toDataUrl(part.mimeType, part.data), detail: 'auto' };
      if (kind === 'pdf') return { type: 'input_file', file_data: toDataUrl(part.mimeType, part.data), filename: 'attachment.pdf' };
      return { type: 'input_text', text: `[${part.mimeType} data omitted: this model cannot receive it.]` };
    });
    return { role: 'user', content };
  });
  const response = await sampling.client.responses.create(
    {
      model,
      input,
      max_output_tokens: request.maxTokens,
      ...(request.systemPrompt ? { instructions: request.systemPrompt } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    },
    options.signal ? { signal: options.signal } : undefined,
  );
  const text = response.output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .flatMap((part) => (part.type === 'output_text' ? [part.text] : []))
    .join('');
  const incomplete = response.incomplete_details?.reason;
  if (!text) {
    throw new AdapterError({
      code: 'EMPTY_SAMPLING_RESPONSE',
      message: `OpenAI model '${model}' returned no text for the MCP sampling request (status: ${response.status ?? 'unknown'}).`,
      provider: 'openai',
      finishReason: incomplete,
    });
  }
  const stopReason = incomplete === 'max_output_tokens' ? 'maxTokens' : (incomplete ?? 'endTurn');
  return { model: response.model || model, text, stopReason };
}
