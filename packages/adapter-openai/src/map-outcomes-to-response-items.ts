import type { ResponseFunctionCallOutputItem, ResponseInputItem } from 'openai/resources/responses/responses';
import type { ToolCallOutcome } from '@toolhost/contract';
import { classifyMedia, toDataUrl, unsupportedMediaNote } from './classify-media.js';

/**
 * Turn tool outcomes into Responses API input items: one `function_call_output` per call.
 * Text-only results are a plain string; results with images or PDFs carry an array of
 * `input_text`, `input_image` (data URL) and `input_file` items. Audio and other data the API
 * cannot take in a function output are replaced by a note.
 */
export function mapOutcomesToResponseItems(outcomes: readonly ToolCallOutcome[]): ResponseInputItem.FunctionCallOutput[] {
  return outcomes.map((outcome) => {
    const { call } = outcome;
    const texts = outcome.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const media: ResponseFunctionCallOutputItem[] = [];
    for (const part of outcome.parts) {
      if (part.type !== 'inlineData') continue;
      const kind = classifyMedia(part.mimeType);
      if (kind === 'image') {
        media.push({ type: 'input_image', image_url: toDataUrl(part.mimeType, part.data), detail: 'auto' });
      } else if (kind === 'pdf') {
        media.push({ type: 'input_file', file_data: toDataUrl(part.mimeType, part.data), filename: `${call.name}.pdf` });
      } else {
        texts.push(unsupportedMediaNote({ toolName: call.name, mimeType: part.mimeType }));
      }
    }
    const text = texts.join('\n') || (outcome.isError ? `Tool '${call.name}' failed.` : '');
    const callId = call.id ?? call.name;
    if (media.length === 0) return { type: 'function_call_output', call_id: callId, output: text };
    const output: ResponseFunctionCallOutputItem[] = text ? [{ type: 'input_text', text }, ...media] : media;
    return { type: 'function_call_output', call_id: callId, output };
  });
}
