import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { ToolCallOutcome } from '@toolhost/contract';
import { classifyMedia, toDataUrl, unsupportedMediaNote } from './classify-media.js';

/**
 * Turn tool outcomes into Chat Completions messages: one `role: 'tool'` message per call
 * (all of its text), then, because a tool message can only carry text, ONE `role: 'user'`
 * message with the images (`image_url` data URLs), WAV/MP3 audio (`input_audio`) and PDFs
 * (`file`) of all calls, each call's media introduced by a text part naming the tool and call id.
 * Data the API cannot take is replaced by a note in the tool message.
 */
export function mapOutcomesToChatMessages(outcomes: readonly ToolCallOutcome[]): ChatCompletionMessageParam[] {
  const toolMessages: ChatCompletionToolMessageParam[] = [];
  const media: ChatCompletionContentPart[] = [];
  for (const outcome of outcomes) {
    const { call } = outcome;
    const texts = outcome.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const callMedia: ChatCompletionContentPart[] = [];
    for (const part of outcome.parts) {
      if (part.type !== 'inlineData') continue;
      const kind = classifyMedia(part.mimeType);
      if (kind === 'image') {
        callMedia.push({ type: 'image_url', image_url: { url: toDataUrl(part.mimeType, part.data) } });
      } else if (kind === 'wav' || kind === 'mp3') {
        callMedia.push({ type: 'input_audio', input_audio: { data: part.data, format: kind } });
      } else if (kind === 'pdf') {
        callMedia.push({ type: 'file', file: { file_data: toDataUrl(part.mimeType, part.data), filename: `${call.name}.pdf` } });
      } else {
        texts.push(unsupportedMediaNote({ toolName: call.name, mimeType: part.mimeType }));
      }
    }
    if (callMedia.length > 0) {
      texts.push(`[The ${callMedia.length} media item(s) of this result follow in the next user message.]`);
      media.push({ type: 'text', text: `Media returned by tool '${call.name}' (call ${call.id ?? 'without id'}):` }, ...callMedia);
    }
    const text = texts.join('\n') || (outcome.isError ? `Tool '${call.name}' failed.` : '');
    toolMessages.push({ role: 'tool', tool_call_id: call.id ?? call.name, content: text });
  }
  const messages: ChatCompletionMessageParam[] = [...toolMessages];
  if (media.length > 0) messages.push({ role: 'user', content: media });
  return messages;
}
