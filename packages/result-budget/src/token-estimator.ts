import type { InlineDataPart } from '@toolhost/contract';
import { estimateTextTokens } from './estimate-text-tokens.js';
import { estimateAudioTokens, estimateImageTokens, type AnthropicImageProfile, type TokenVendor } from './media-tokens.js';
import { readAudioDuration } from './read-audio-duration.js';
import { readImageSize } from './read-image-size.js';
import { ResultBudgetError } from './result-budget-error.js';

/**
 * Counts what content costs a model, in tokens. The result budget uses one to decide whether a
 * result fits and how much of it to keep. {@link defaultTokenEstimator} works offline with no
 * tokenizer; {@link createTokenEstimator} makes one for a vendor, or around a real tokenizer the
 * application supplies. An application may also implement this interface itself.
 */
export interface TokenEstimator {
  /** Tokens of a piece of text. Called on whole results (megabytes) once, then on small pieces. */
  text(text: string): number;
  /** Tokens of one image, audio clip or other inline data. */
  media(part: InlineDataPart): number;
}

/** Options of {@link createTokenEstimator}. */
export interface TokenEstimatorOptions {
  /**
   * The vendor whose media rules apply. Without one, an image or clip counts as the most any of
   * Anthropic, OpenAI and Gemini would charge for it. @default the largest of the three
   */
  readonly vendor?: TokenVendor | undefined;
  /**
   * A real tokenizer for text (for example `(text) => encoding.encode(text).length` with
   * `js-tiktoken`). A result that is not a finite number of at least 0 falls back to the offline
   * estimate for that text. @default the offline estimate, {@link estimateTextTokens}
   */
  readonly countTextTokens?: ((text: string) => number) | undefined;
  /** Anthropic's image limits, `standard` or `high-resolution` (see `estimateImageTokens`). @default 'standard' */
  readonly anthropicImages?: AnthropicImageProfile | undefined;
  /** OpenAI's image `detail` the adapter sends. @default 'high' */
  readonly openaiImageDetail?: 'high' | 'low' | undefined;
}

const VENDORS: readonly TokenVendor[] = ['anthropic', 'openai', 'gemini'];

/** Clips whose length cannot be read count as this many bytes a second (64 kbit/s speech). */
const UNKNOWN_AUDIO_BYTES_PER_SECOND = 8000;

/** Bytes of base64 data (without decoding it). */
function decodedLength(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

/**
 * Make a {@link TokenEstimator}. Text is counted by `countTextTokens` or the offline heuristic
 * ({@link estimateTextTokens}); images by their size read from the header (`readImageSize`) and
 * the vendor's rule (`estimateImageTokens`); audio by its length read from a WAV, FLAC or MP3
 * header (else by its size at 64 kbit/s) at 32 tokens a second; other inline data (a PDF, a blob)
 * as many tokens as its base64 text would cost as text, at 4 characters a token.
 *
 * @example
 * ```ts
 * const estimator = createTokenEstimator({ vendor: 'openai' });
 * estimator.text('hello world'); // 2
 * ```
 */
export function createTokenEstimator(options: TokenEstimatorOptions = {}): TokenEstimator {
  if (options.vendor !== undefined && !VENDORS.includes(options.vendor)) {
    throw new ResultBudgetError({
      code: 'INVALID_OPTIONS',
      message: `createTokenEstimator: vendor must be one of ${VENDORS.join(', ')} (or left out for the largest of them); got ${JSON.stringify(String(options.vendor))}.`,
    });
  }
  const vendors = options.vendor === undefined ? VENDORS : [options.vendor];
  const count = options.countTextTokens;
  const imageOptions = { anthropicProfile: options.anthropicImages, openaiDetail: options.openaiImageDetail };
  return {
    text(text: string): number {
      if (count !== undefined) {
        const counted = count(text);
        if (Number.isFinite(counted) && counted >= 0) return Math.ceil(counted);
      }
      return estimateTextTokens(text);
    },
    media(part: InlineDataPart): number {
      const kind =
        part.source === 'image' || part.mimeType.startsWith('image/')
          ? 'image'
          : part.source === 'audio' || part.mimeType.startsWith('audio/')
            ? 'audio'
            : 'other';
      if (kind === 'image') {
        const size = readImageSize(part.data);
        return Math.max(...vendors.map((vendor) => estimateImageTokens(size, vendor, imageOptions)));
      }
      if (kind === 'audio') {
        const seconds = readAudioDuration(part.data)?.seconds ?? decodedLength(part.data) / UNKNOWN_AUDIO_BYTES_PER_SECOND;
        return estimateAudioTokens(seconds);
      }
      return Math.ceil(part.data.length / 4);
    },
  };
}

/** The estimator used when none is given: offline text heuristic, the largest vendor cost for media. */
export const defaultTokenEstimator: TokenEstimator = createTokenEstimator();
