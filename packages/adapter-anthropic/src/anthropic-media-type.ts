import type { Base64ImageSource } from '@anthropic-ai/sdk/resources/messages';

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * What Anthropic can take for data of a MIME type: a base64 `image` (JPEG, PNG, GIF, WebP), a
 * base64 `document` (PDF), or nothing. Parameters and case are ignored; `image/jpg` counts as JPEG.
 */
export function classifyAnthropicMedia(
  mimeType: string,
): { readonly kind: 'image'; readonly mediaType: Base64ImageSource['media_type'] } | { readonly kind: 'pdf' | 'unsupported' } {
  const bare = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  const type = bare === 'image/jpg' ? 'image/jpeg' : bare;
  if (IMAGE_TYPES.has(type)) return { kind: 'image', mediaType: type as Base64ImageSource['media_type'] };
  return { kind: type === 'application/pdf' ? 'pdf' : 'unsupported' };
}
