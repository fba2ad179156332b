import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { SamplingRequest, SamplingResponse, ToolResultPart } from '@toolhost/host';
import { AnthropicAdapterError } from './anthropic-adapter-error.js';
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

/** Answer a sampling request with `client.messages.create`. */
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
    throw new AnthropicAdapterError({
      code: 'EMPTY_SAMPLING_RESPONSE',
      message: `Anthropic model '${model}' returned no text for the MCP sampling request (stop reason: ${stopReason ?? 'none'}).`,
      ...(stopReason ? { finishReason: stopReason } : {}),
    });
  }
  return {
    model: response.model || model,
    text,
    ...(stopReason ? { stopReason: STOP_REASONS[stopReason] ?? stopReason } : {}),
  };
}

function toArray(content: ToolResultPart | readonly ToolResultPart[]): readonly ToolResultPart[] {
  return Array.isArray(content) ? content : [content as ToolResultPart];
}

function toContentBlock(part: ToolResultPart): ContentBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const media = classifyAnthropicMedia(part.mimeType);
  if (media.kind === 'image') return { type: 'image', source: { type: 'base64', media_type: media.mediaType, data: part.data } };
  return { type: 'text', text: `[${part.mimeType} data omitted: this model cannot receive it.]` };
}
