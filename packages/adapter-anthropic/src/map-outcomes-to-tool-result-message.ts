import type { MessageParam, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCallOutcome } from '@toolhost/contract';
import { classifyAnthropicMedia } from './anthropic-media-type.js';

type ToolResultContent = Exclude<ToolResultBlockParam['content'], string | undefined>[number];

/**
 * Turn tool outcomes into the `user` message Anthropic expects next: one `tool_result` block
 * per call (`tool_use_id` = the call id) with a text block carrying all text, one base64
 * `image` block per JPEG/PNG/GIF/WebP image, a base64 `document` block per PDF, and
 * `is_error: true` when the call failed. Other data (audio, ...) is replaced by a note.
 */
export function mapOutcomesToToolResultMessage(outcomes: readonly ToolCallOutcome[]): MessageParam {
  const blocks: ToolResultBlockParam[] = outcomes.map((outcome) => {
    const { call } = outcome;
    const texts = outcome.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const media: ToolResultContent[] = [];
    for (const part of outcome.parts) {
      if (part.type !== 'inlineData') continue;
      const accepted = classifyAnthropicMedia(part.mimeType);
      if (accepted.kind === 'image') {
        media.push({ type: 'image', source: { type: 'base64', media_type: accepted.mediaType, data: part.data } });
      } else if (accepted.kind === 'pdf') {
        media.push({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data } });
      } else {
        texts.push(`[Tool '${call.name}' also returned ${part.mimeType} data, which this model cannot receive.]`);
      }
    }
    const text = texts.join('\n') || (outcome.isError ? `Tool '${call.name}' failed.` : '');
    const content: ToolResultContent[] = text ? [{ type: 'text', text } satisfies TextBlockParam, ...media] : media;
    const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: call.id ?? call.name, content };
    if (outcome.isError) block.is_error = true;
    return block;
  });
  return { role: 'user', content: blocks };
}
