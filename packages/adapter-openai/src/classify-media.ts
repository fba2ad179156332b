/** How a piece of inline data can reach an OpenAI model. */
export type OpenAIMediaKind = 'image' | 'wav' | 'mp3' | 'pdf' | 'unsupported';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

/** Classify a MIME type by what the OpenAI APIs accept as input content. */
export function classifyMedia(mimeType: string): OpenAIMediaKind {
  const type = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (IMAGE_TYPES.has(type)) return 'image';
  if (type === 'audio/wav' || type === 'audio/x-wav' || type === 'audio/wave') return 'wav';
  if (type === 'audio/mpeg' || type === 'audio/mp3') return 'mp3';
  if (type === 'application/pdf') return 'pdf';
  return 'unsupported';
}

/** A `data:` URL for base64 data, as OpenAI expects for inline images and files. */
export function toDataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

/** The note sent instead of data the model cannot receive. */
export function unsupportedMediaNote(options: { toolName: string; mimeType: string }): string {
  return `[Tool '${options.toolName}' also returned ${options.mimeType} data, which this model cannot receive.]`;
}
