/** Text for the model. */
export interface TextPart {
  /** Discriminator. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/** Where an inline-data part came from. */
export type InlineDataSource = 'image' | 'audio' | 'resource';

/** Binary data for the model: base64 exactly as the server sent it (never decoded or re-encoded). */
export interface InlineDataPart {
  /** Discriminator. */
  readonly type: 'inlineData';
  /** MIME type as the server gave it (`application/octet-stream` when it gave none). */
  readonly mimeType: string;
  /** Base64 data, the very string the server sent. */
  readonly data: string;
  /** The MCP content block it came from, when known. */
  readonly source?: InlineDataSource;
  /** The resource URI, for embedded blob resources and resource reads. */
  readonly uri?: string;
}

/**
 * One model-neutral part: of a tool result, a resource read, a sampling message. Text is
 * combined into one part where the source allows; images, audio and blobs are one part each.
 */
export type ContentPart = TextPart | InlineDataPart;
