import type { ContentPart, InlineDataPart } from '@toolhost/contract';

/** The MIME types sent to the model as blocks by default: the image formats the major vendors accept. */
export const DEFAULT_ACCEPTED_MEDIA_TYPES: readonly string[] = Object.freeze(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A text block of LangChain's standard content blocks. */
export type LangChainTextBlock = {
  /** Discriminator. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
};

/**
 * A base64 data block of LangChain's standard content blocks (`ContentBlock.Multimodal` of
 * `@langchain/core` 1.x): `image` for `image/*`, `audio` for `audio/*`, `video` for `video/*`,
 * `file` for anything else.
 */
export type LangChainDataBlock = {
  /** Discriminator, from the MIME type's top-level type. */
  readonly type: 'image' | 'audio' | 'video' | 'file';
  /** The MIME type, as the server gave it. */
  readonly mimeType: string;
  /** Base64 data, the very string the server sent. */
  readonly data: string;
};

/** What a toolhost tool gives LangChain as `ToolMessage.content`: a string, or standard content blocks when media is sent. */
export type LangChainToolContent = string | Array<LangChainTextBlock | LangChainDataBlock>;

/** Whether `mimeType` is one of `accepted` (exact types, or `type/*`); case and parameters are ignored. */
export function isAcceptedMediaType(mimeType: string, accepted: readonly string[]): boolean {
  const type = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  return accepted.some((entry) => {
    const wanted = entry.toLowerCase().trim();
    return wanted.endsWith('/*') ? type.startsWith(wanted.slice(0, -1)) : type === wanted;
  });
}

function dataBlock(part: InlineDataPart): LangChainDataBlock {
  const top = part.mimeType.toLowerCase().split('/')[0];
  const type = top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
  return { type, mimeType: part.mimeType, data: part.data };
}

/**
 * Turn a tool result's parts into `ToolMessage` content: the text, then one standard data block
 * per accepted piece of media (images by default). Media that is not accepted is named in a note
 * at the end of the text instead (`[Tool 'x' also returned audio/wav data, which this model
 * cannot receive.]`). Without media blocks the content is a plain string, which every chat model
 * integration accepts.
 */
export function toMessageContent(parts: readonly ContentPart[], toolName: string, accepted: readonly string[]): LangChainToolContent {
  const texts: string[] = [];
  const media: LangChainDataBlock[] = [];
  const notes: string[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (isAcceptedMediaType(part.mimeType, accepted)) media.push(dataBlock(part));
    else notes.push(`[Tool '${toolName}' also returned ${part.mimeType} data, which this model cannot receive.]`);
  }
  const text = [...texts, ...notes].join('\n');
  if (media.length === 0) return text;
  return [...(text ? [{ type: 'text' as const, text }] : []), ...media];
}
