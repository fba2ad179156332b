import type { ContentPart } from '@toolhost/contract';
import * as ai from 'ai';
import type { ToolResultPart } from 'ai';

/**
 * Whether the `ai` package in use is version 7 or later, which deprecates the `image-data` and
 * `file-data` parts of a tool result (with a warning) for one `file` part with tagged data. Told by
 * an export version 6 does not have (`uploadFile`).
 */
const FILE_PARTS = typeof (ai as Record<string, unknown>)['uploadFile'] === 'function';

/** What a toolhost tool's `execute` returns: JSON, so it survives UI messages and storage. */
export interface AiSdkToolOutput {
  /**
   * toolhost's parts for the model: the text first (what happened, when the call failed), then
   * one `inlineData` part per image, audio clip or blob, base64 exactly as the server sent it.
   */
  readonly content: readonly ContentPart[];
  /** True when the tool failed, reported an error, was refused or was cancelled; the text says why. */
  readonly isError: boolean;
  /** The server's `structuredContent`, when it sent one. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** Why the call did not succeed: toolhost's error code (`TOOL_CALL_DENIED`, `REQUEST_TIMEOUT`, `TOOL_REPORTED_ERROR`, ...). */
  readonly errorCode?: string;
}

/** The AI SDK's tool result output (`ToolResultOutput`). */
export type AiSdkToolResultOutput = ToolResultPart['output'];

type ContentOutputPart = Extract<AiSdkToolResultOutput, { type: 'content' }>['value'][number];

function isOutput(value: unknown): value is AiSdkToolOutput {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/** The last path segment of a resource URI, as a file name for the model (`readme.txt`), when it has one. */
function fileNameOf(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  const name = uri
    .replace(/[?#].*$/, '')
    .split('/')
    .pop();
  return name ? name : undefined;
}

/**
 * A toolhost tool's output as the AI SDK's model output (the tools' `toModelOutput`): text alone
 * as `text` (`error-text` when the call failed); with images, audio or blobs, `content` with a
 * `text` part, then one part per medium: with `ai` 6 an `image-data` part per image and a
 * `file-data` part per other medium, with `ai` 7 a `file` part each (`data: { type: 'data' }`);
 * `filename` from the resource URI, when there is one. Base64 is passed through, never decoded.
 * Anything that is not a toolhost output (an older stored one, say) is sent as `json`.
 *
 * @example
 * ```ts
 * toAiSdkModelOutput({ content: [{ type: 'text', text: '3' }], isError: false }); // { type: 'text', value: '3' }
 * ```
 */
export function toAiSdkModelOutput(output: unknown): AiSdkToolResultOutput {
  if (!isOutput(output)) return { type: 'json', value: (output ?? null) as never };
  let text = '';
  const media: ContentOutputPart[] = [];
  for (const part of output.content) {
    if (part.type === 'text') {
      text = text ? `${text}\n${part.text}` : part.text;
    } else {
      const filename = fileNameOf(part.uri);
      const named = filename ? { filename } : {};
      if (FILE_PARTS) {
        // ai >= 7: { type: 'file', mediaType, data: { type: 'data', data } } (a type ai 6 does not have).
        media.push({
          type: 'file',
          mediaType: part.mimeType,
          data: { type: 'data', data: part.data },
          ...named,
        } as unknown as ContentOutputPart);
      } else if (part.mimeType.toLowerCase().startsWith('image/')) {
        media.push({ type: 'image-data', data: part.data, mediaType: part.mimeType });
      } else {
        media.push({ type: 'file-data', data: part.data, mediaType: part.mimeType, ...named });
      }
    }
  }
  if (media.length === 0) return output.isError ? { type: 'error-text', value: text } : { type: 'text', value: text };
  return { type: 'content', value: [...(text ? [{ type: 'text' as const, text }] : []), ...media] };
}
