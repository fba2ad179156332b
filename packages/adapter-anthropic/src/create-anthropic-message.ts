import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { AdapterError, type ContentPart, type SamplingRequest, type SamplingResponse } from '@toolhost/contract';
import { classifyAnthropicMedia } from './anthropic-media-type.js';

/** How the Anthropic adapter answers MCP `sampling/createMessage` requests. */
export interface AnthropicSamplingOptions {
  /** Your `Anthropic` client; the adapter never creates one and never reads API keys. */
  client: Pick<Anthropic, 'messages'>;
  /** The model that answers sampling requests (e.g. `claude-sonnet-4-5`). */
  model: string;
  /**
   * Pick the model from the server's `modelPreferences`; return `undefined` to use `model`.
   * @default uses `model` always
   */
  selectModel?: (preferences: SamplingRequest['modelPreferences']) => string | undefined;
}

const STOP_REASONS: Readonly<Record<string, string>> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
};

/**
 * Answer a sampling request with `client.messages.create`.
 *
 * @throws AdapterError `EMPTY_SAMPLING_RESPONSE` (with `finishReason`) when the model returns no text.
 */
export async function createAnthropicMessage(
  request: SamplingRequest,
  options: { sampling: AnthropicSamplingOptions; signal?: AbortSignal | undefined },
): Promise<SamplingResponse> {
  const { sampling } = options;
  const model = sampling.selectModel?.(request.modelPreferences) ?? sampling.model;
  const messages: MessageParam[] = request.messages.map((message) => ({
    role: message.role,
    content: toArray(message.content).map(toContentBlock),
  }));
  const response = await sampling.client.messages.create(
    {
      model,
      max_tokens: request.maxTokens,
      messages,
      ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.stopSequences?.length ? { stop_sequences: [...request.stopSequences] } : {}),
    },
    options.signal ? { signal: options.signal } : undefined,
  );
  const text = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const stopReason = response.stop_reason ?? undefined;
  if (!text) {
    throw new AdapterError({
      code: 'EMPTY_SAMPLING_RESPONSE',
      message: `Anthropic model '${model}' returned no text for the MCP sampling request (stop reason: ${stopReason ?? 'none'}).`,
      provider: 'anthropic',
      finishReason: stopReason,
    });
  }
  return {
    model: response.model || model,
    text,
    ...(stopReason ? { stopReason: STOP_REASONS[stopReason] ?? stopReason } : {}),
  };
}

function toArray(content: ContentPart | readonly ContentPart[]): readonly ContentPart[] {
  return Array.isArray(content) ? content : [content as ContentPart];
}

function toContentBlock(part: ContentPart): ContentBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const media = classifyAnthropicMedia(part.mimeType);
  if (media.kind === 'image') return { type: 'image', source: { type: 'base64', media_type: media.mediaType, data: part.data } };
  return { type: 'text', text: `[${part.mimeType} data omitted: this model cannot receive it.]` };
}
