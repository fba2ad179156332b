import type { ConnectionClient } from '@toolhost/connection';
import type { ContentPart } from '@toolhost/contract';
import { HostError } from '../host-error.js';

/** One item of a `resources/read` result, in model-neutral form. */
export interface ResourceContent {
  /** The URI of this item (a read may return several, e.g. a folder). */
  readonly uri: string;
  /** The MIME type, when the server gives one. */
  readonly mimeType?: string;
  /** `text` for text contents; `inlineData` (base64) for blob contents. */
  readonly part: ContentPart;
}

/** Options of {@link readResourceParts}. */
export interface ReadResourceOptions {
  /** The server to read from (for messages). */
  readonly serverName: string;
  /** The resource URI. */
  readonly uri: string;
  /** Aborts the read. */
  readonly signal?: AbortSignal;
}

/**
 * Reads a resource and returns each content item as a part: text as `text`, binary (`blob`) as
 * `inlineData` with its MIME type. Failures become a `HostError` (`REQUEST_FAILED`).
 */
export async function readResourceParts(
  client: Pick<ConnectionClient, 'readResource'>,
  options: ReadResourceOptions,
): Promise<ResourceContent[]> {
  let contents;
  try {
    const result = await client.readResource({ uri: options.uri }, options.signal ? { signal: options.signal } : {});
    contents = result.contents;
  } catch (cause) {
    throw new HostError({
      code: 'REQUEST_FAILED',
      serverName: options.serverName,
      uri: options.uri,
      message: `Reading resource '${options.uri}' from MCP server '${options.serverName}' failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
  return contents.map((item) => {
    const mimeType = item.mimeType;
    const part: ContentPart =
      'text' in item && typeof item.text === 'string'
        ? { type: 'text', text: item.text }
        : { type: 'inlineData', mimeType: mimeType ?? 'application/octet-stream', data: String((item as { blob?: unknown }).blob ?? '') };
    return { uri: item.uri, part, ...(mimeType !== undefined ? { mimeType } : {}) };
  });
}
