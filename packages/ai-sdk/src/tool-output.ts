import type { ContentPart } from '@toolhost/contract';
import type { ToolResultPart } from 'ai';

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
 * `text` part, then an `image-data` part per image and a `file-data` part per other medium (its
 * `filename` from the resource URI, when there is one). Base64 is passed through, never decoded.
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
    } else if (part.mimeType.toLowerCase().startsWith('image/')) {
      media.push({ type: 'image-data', data: part.data, mediaType: part.mimeType });
    } else {
      const filename = fileNameOf(part.uri);
      media.push({ type: 'file-data', data: part.data, mediaType: part.mimeType, ...(filename ? { filename } : {}) });
    }
  }
  if (media.length === 0) return output.isError ? { type: 'error-text', value: text } : { type: 'text', value: text };
  return { type: 'content', value: [...(text ? [{ type: 'text' as const, text }] : []), ...media] };
}
