import { escapeControlText, type ContentPart, type InlineDataPart } from '@toolhost/contract';
import type { CallToolResultLike, MappedToolResult } from './content-part.js';
import { wrapUntrusted } from './wrap-untrusted.js';

/** Options of {@link mapCallToolResult}. */
export interface MapCallToolResultOptions {
  /** The tool's name, used in the markers and messages the model and user see. */
  toolName: string;
  /**
   * Add a line to the combined text for each image, audio or blob (`[Tool 'x' provided the
   * following image data with mime-type: image/png]`), at the place it appeared, so the model
   * can tell which text belongs to which attachment.
   * @default true
   */
  describeMedia?: boolean;
  /**
   * Wrap each piece of text that came from the server in an `<untrusted_context>` envelope
   * (see `wrapUntrusted`); the markers this package adds stay outside. Off by default, as in
   * the seeds and Qwen Code; Gemini CLI turns it on.
   * @default false
   */
  untrustedEnvelope?: boolean;
  /**
   * When to give the model `structuredContent` as JSON text: `when-no-text` (only if the
   * server sent no text, so the model is never left with nothing), `always`, or `never`
   * (what Gemini CLI does). It is returned in `structuredContent` either way.
   * @default 'when-no-text'
   */
  structuredContentToModel?: 'when-no-text' | 'always' | 'never';
  /**
   * Longest `display`, in characters; longer summaries are cut with `… [N more characters]`.
   * @default 2000
   */
  maxDisplayLength?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never end on half of a surrogate pair (an emoji): that half would print as U+FFFD.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}

/** Server text as the user sees it: line feeds and tabs kept, everything else that could deceive escaped. */
function displayText(text: string): string {
  return escapeControlText(text, { multiline: true });
}

/**
 * Map an MCP `CallToolResult` to model-neutral parts and a short display string, as the
 * seeds' "Returning Rich Content from Tools" describes:
 * - every `text` block, and the text of every embedded `resource`, go into ONE text part
 *   (joined by newlines, in order), which comes first;
 * - every `image` and `audio` block, and every embedded `resource` with a `blob`, becomes its
 *   own inline-data part carrying the server's base64 string itself (no decoding, no copy);
 * - a `resource_link` becomes the text line `Resource Link: <title or name> at <uri>` (not fetched);
 * - unknown or malformed blocks are skipped and counted in `skipped`/`skippedTypes`;
 * - `isError: true` (or `'true'`) marks the result as an error and the text says so;
 * - `structuredContent` is returned as is (and sent as text per `structuredContentToModel`).
 *
 * @example
 * mapCallToolResult({ content: [{ type: 'text', text: 'Here is the logo.' }, { type: 'image', data, mimeType: 'image/png' }] }, { toolName: 'logo' }).display;
 * // 'Here is the logo. [Image: image/png]'
 */
export function mapCallToolResult(result: CallToolResultLike | null | undefined, options: MapCallToolResultOptions): MappedToolResult {
  const { toolName } = options;
  const describeMedia = options.describeMedia ?? true;
  const envelope = options.untrustedEnvelope ?? false;
  const maxDisplay = options.maxDisplayLength ?? 2000;
  const untrusted = (text: string) => (envelope ? wrapUntrusted(text) : text);
  const structuredContent = isRecord(result) && isRecord(result.structuredContent) ? result.structuredContent : undefined;
  const flaggedError = isRecord(result) && (result.isError === true || result.isError === 'true');

  if (!isRecord(result) || !Array.isArray(result.content)) {
    if (isRecord(result) && result.content === undefined && result.toolResult !== undefined) {
      const text = typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
      return finish([untrusted(text ?? '')], [], [displayText(text ?? '')], [], flaggedError);
    }
    if (
      isRecord(result) &&
      result.content === undefined &&
      structuredContent !== undefined &&
      options.structuredContentToModel !== 'never'
    ) {
      return finish([untrusted(JSON.stringify(structuredContent))], [], ['[Structured content]'], [], flaggedError);
    }
    return {
      llmParts: [{ type: 'text', text: `[Error: Could not parse the response of MCP tool '${toolName}']` }],
      display: `Error: MCP tool '${toolName}' returned a response that is not valid MCP content.`,
      isError: true,
      ...(structuredContent ? { structuredContent } : {}),
      skipped: 0,
      skippedTypes: [],
    };
  }

  const texts: string[] = [];
  const media: InlineDataPart[] = [];
  const display: string[] = [];
  const skippedTypes: string[] = [];
  let serverText = false;
  const addMedia = (part: InlineDataPart, label: string) => {
    media.push(part);
    if (describeMedia) texts.push(`[Tool '${toolName}' provided the following ${label} with mime-type: ${part.mimeType}]`);
  };

  for (const block of result.content as unknown[]) {
    const type = isRecord(block) && typeof block['type'] === 'string' ? block['type'] : undefined;
    if (!isRecord(block) || type === undefined) {
      skippedTypes.push('(invalid)');
      continue;
    }
    if (type === 'text' && typeof block['text'] === 'string') {
      texts.push(untrusted(block['text']));
      display.push(displayText(block['text']));
      serverText = true;
    } else if ((type === 'image' || type === 'audio') && typeof block['data'] === 'string') {
      const mimeType = nonEmpty(block['mimeType']) ? block['mimeType'] : 'application/octet-stream';
      addMedia({ type: 'inlineData', mimeType, data: block['data'], source: type }, `${type} data`);
      display.push(`[${type === 'image' ? 'Image' : 'Audio'}: ${displayText(mimeType)}]`);
    } else if (type === 'resource' && isRecord(block['resource'])) {
      const resource = block['resource'];
      const uri = typeof resource['uri'] === 'string' ? resource['uri'] : undefined;
      if (typeof resource['text'] === 'string') {
        texts.push(untrusted(resource['text']));
        display.push(displayText(resource['text']));
        serverText = true;
      } else if (typeof resource['blob'] === 'string') {
        const mimeType = nonEmpty(resource['mimeType']) ? resource['mimeType'] : 'application/octet-stream';
        addMedia(
          { type: 'inlineData', mimeType, data: resource['blob'], source: 'resource', ...(uri ? { uri } : {}) },
          'embedded resource',
        );
        display.push(`[Embedded Resource: ${displayText(nonEmpty(resource['mimeType']) ? resource['mimeType'] : 'unknown type')}]`);
      } else {
        skippedTypes.push(type);
      }
    } else if (type === 'resource_link' && typeof block['uri'] === 'string') {
      const label = nonEmpty(block['title']) ? block['title'] : nonEmpty(block['name']) ? block['name'] : block['uri'];
      texts.push(untrusted(`Resource Link: ${label} at ${block['uri']}`));
      display.push(displayText(`[Link to ${label}: ${block['uri']}]`));
      serverText = true;
    } else {
      skippedTypes.push(type);
    }
  }

  const mode = options.structuredContentToModel ?? 'when-no-text';
  if (structuredContent !== undefined && (mode === 'always' || (mode === 'when-no-text' && !serverText))) {
    texts.push(untrusted(JSON.stringify(structuredContent)));
    if (!serverText) display.push('[Structured content]');
  }
  return finish(texts, media, display, skippedTypes, flaggedError);

  function finish(
    textLines: string[],
    mediaParts: InlineDataPart[],
    displayLines: string[],
    skipped: string[],
    isError: boolean,
  ): MappedToolResult {
    if (isError) textLines.unshift(`[MCP tool '${toolName}' reported an error]`);
    if (textLines.length === 0 && mediaParts.length === 0) textLines.push(`[MCP tool '${toolName}' returned no content]`);
    const llmParts: ContentPart[] = textLines.length > 0 ? [{ type: 'text', text: textLines.join('\n') }, ...mediaParts] : [...mediaParts];
    let summary = displayLines.join(' ').trim();
    if (summary === '') summary = '(no content)';
    if (isError) summary = `Error: MCP tool '${toolName}' reported an error. ${summary}`;
    return {
      llmParts,
      display: truncate(summary, maxDisplay),
      isError,
      ...(structuredContent ? { structuredContent } : {}),
      skipped: skipped.length,
      skippedTypes: skipped,
    };
  }
}
