import type { Content, FunctionResponse, Part } from '@google/genai';
import type { ToolCallOutcome } from '@toolhost/contract';

/** Where images, audio and other binary results go in the function-response turn. */
export type GeminiMediaPlacement = 'parts' | 'function-response';

/** Options of {@link mapOutcomesToContent}. */
export interface MapOutcomesToContentOptions {
  /**
   * `parts`: after each call's `functionResponse` part, one `inlineData` part per image, audio
   * or blob (what Gemini CLI documents; works with every Gemini model).
   * `function-response`: inside `functionResponse.parts` (multimodal function responses of
   * newer models).
   * @default 'parts'
   */
  mediaPlacement?: GeminiMediaPlacement;
  /**
   * Also send the server's `structuredContent` in `functionResponse.response.structuredContent`.
   * Gemini CLI never sends it to the model.
   * @default false
   */
  includeStructuredContent?: boolean;
}

/**
 * Turn tool outcomes into the `user` turn Gemini expects next: per call one `functionResponse`
 * part carrying all of its text (`response.output`, or `response.error` with `isError: true`),
 * followed by its `inlineData` parts. The call `id` is echoed when the model sent one.
 */
export function mapOutcomesToContent(outcomes: readonly ToolCallOutcome[], options: MapOutcomesToContentOptions = {}): Content {
  const mediaPlacement = options.mediaPlacement ?? 'parts';
  const parts: Part[] = [];
  for (const outcome of outcomes) {
    const text = outcome.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    const media = outcome.parts.flatMap((part) =>
      part.type === 'inlineData' ? [{ inlineData: { mimeType: part.mimeType, data: part.data } }] : [],
    );
    const response: Record<string, unknown> = outcome.isError
      ? { error: text || `Tool '${outcome.call.name}' failed.`, isError: true }
      : { output: text };
    if (options.includeStructuredContent && outcome.structuredContent) {
      response['structuredContent'] = outcome.structuredContent;
    }
    const functionResponse: FunctionResponse = { name: outcome.call.name, response };
    if (outcome.call.id) functionResponse.id = outcome.call.id;
    if (mediaPlacement === 'function-response' && media.length > 0) {
      functionResponse.parts = media;
      parts.push({ functionResponse });
    } else {
      parts.push({ functionResponse }, ...media);
    }
  }
  return { role: 'user', parts };
}
