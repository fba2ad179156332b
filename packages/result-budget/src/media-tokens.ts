// Each vendor's published rule for what an image or a clip of audio costs.

/** A model vendor whose published media rules the estimator knows. */
export type TokenVendor = 'anthropic' | 'openai' | 'gemini';

/** Which of Anthropic's image size limits applies (see {@link estimateImageTokens}). */
export type AnthropicImageProfile = 'standard' | 'high-resolution';

/** Options of {@link estimateImageTokens}. */
export interface ImageTokenOptions {
  /**
   * Anthropic: `standard` (long edge at most 1,568 px, about 1,600 tokens at most: the documented
   * limits) or `high-resolution` (Claude Opus 4.7 and later read images up to 2,576 px on the long
   * edge, about 4,784 tokens at most, as reported for those models). @default 'standard'
   */
  readonly anthropicProfile?: AnthropicImageProfile | undefined;
  /** OpenAI: the `detail` the adapter sends (`low` is a flat 85 tokens). @default 'high' */
  readonly openaiDetail?: 'high' | 'low' | undefined;
}

const ANTHROPIC_LIMITS: Readonly<Record<AnthropicImageProfile, { readonly longEdge: number; readonly maxTokens: number }>> = {
  standard: { longEdge: 1568, maxTokens: 1600 },
  'high-resolution': { longEdge: 2576, maxTokens: 4784 },
};

/** OpenAI's cost of an image at high detail with the largest number of tiles (2048×768 → 8 tiles). */
const OPENAI_MAX_TOKENS = 85 + 170 * 8;
/** Gemini's cost of an image whose size could not be read: counted as a 3×3-tile one. */
const GEMINI_UNKNOWN_TOKENS = 258 * 9;

/** Tokens per second of audio (Gemini's published rate; the only vendor that publishes one). */
export const AUDIO_TOKENS_PER_SECOND = 32;

function scaleToFit(width: number, height: number, maxWidth: number, maxHeight: number): [number, number] {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return [width * scale, height * scale];
}

/**
 * Anthropic: `tokens = width × height / 750`, after the image is scaled down (aspect ratio kept)
 * until its long edge is at most 1,568 px and it is at most about 1,600 tokens ("Evaluate image
 * size", https://docs.claude.com/en/docs/vision); with the `high-resolution` profile 2,576 px and
 * 4,784 tokens.
 */
function anthropicImageTokens(width: number, height: number, profile: AnthropicImageProfile): number {
  const limits = ANTHROPIC_LIMITS[profile];
  const [w, h] = scaleToFit(width, height, limits.longEdge, limits.longEdge);
  return Math.min(limits.maxTokens, Math.ceil((w * h) / 750));
}

/**
 * OpenAI, `detail: high` (GPT-4o, GPT-4.1 and the o-series' tile rule): scaled to fit in
 * 2048×2048, then scaled so the shortest side is at most 768 px; then 170 tokens per 512-px tile
 * plus 85 (https://platform.openai.com/docs/guides/images-vision, "Calculating costs"). `low` is 85.
 */
function openaiImageTokens(width: number, height: number, detail: 'high' | 'low'): number {
  if (detail === 'low') return 85;
  let [w, h] = scaleToFit(width, height, 2048, 2048);
  const shortest = Math.min(w, h);
  if (shortest > 768) {
    w = (w * 768) / shortest;
    h = (h * 768) / shortest;
  }
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/**
 * Gemini: 258 tokens for an image with both sides at most 384 px; a larger one is cropped and
 * scaled into 768×768 tiles of 258 tokens each (https://ai.google.dev/gemini-api/docs/tokens,
 * "Multimodal tokens"). Gemini 3's `media_resolution` caps an image lower; this rule is the higher count.
 */
function geminiImageTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

/**
 * What one image costs a vendor's model, by the vendor's published rule (see each rule's source in
 * the package README). `size` is `undefined` when the image's size could not be read; it then
 * counts as the vendor's largest image (Anthropic 1,600 or 4,784 tokens, OpenAI 1,445, Gemini 2,322).
 *
 * @example
 * ```ts
 * estimateImageTokens({ width: 1000, height: 1000 }, 'anthropic'); // 1334
 * estimateImageTokens({ width: 1024, height: 1024 }, 'openai'); // 765
 * estimateImageTokens({ width: 1024, height: 1024 }, 'gemini'); // 1032
 * ```
 */
export function estimateImageTokens(
  size: { readonly width: number; readonly height: number } | undefined,
  vendor: TokenVendor,
  options: ImageTokenOptions = {},
): number {
  const valid = size !== undefined && Number.isFinite(size.width) && Number.isFinite(size.height) && size.width >= 1 && size.height >= 1;
  const profile = options.anthropicProfile ?? 'standard';
  if (vendor === 'anthropic') return valid ? anthropicImageTokens(size.width, size.height, profile) : ANTHROPIC_LIMITS[profile].maxTokens;
  if (vendor === 'openai') return valid ? openaiImageTokens(size.width, size.height, options.openaiDetail ?? 'high') : OPENAI_MAX_TOKENS;
  return valid ? geminiImageTokens(size.width, size.height) : GEMINI_UNKNOWN_TOKENS;
}

/**
 * What a clip of `seconds` of audio costs: 32 tokens a second, Gemini's published rate
 * (https://ai.google.dev/gemini-api/docs/tokens); OpenAI and Anthropic publish none for audio in
 * tool results, so the same rate is used for every vendor.
 */
export function estimateAudioTokens(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND) : 0;
}
