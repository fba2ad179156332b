import { randomBytes } from 'node:crypto';
import { mapCallToolResult } from '@toolhost/content-mapper';
import { toBenchResult, type BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';

/** Options of {@link benchMapImage}. */
export interface BenchMapImageOptions {
  /** Size of the image before base64 encoding, in bytes. @default 10 MiB */
  readonly imageBytes?: number;
  /** Independent repetitions. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition. @default 8 */
  readonly rounds?: number;
  /** Mappings per sample (the mapping takes microseconds; one decode per sample). @default 100 */
  readonly batch?: number;
  /** Untimed rounds first in every repetition. @default 2 */
  readonly warmupRounds?: number;
}

/**
 * `mapCallToolResult` of a result holding a text block and one image of `imageBytes` bytes
 * (base64 in the result, as MCP sends it). For scale, the baseline decodes that base64 once
 * (`Buffer.from(data, 'base64')`), which a mapper that copies or checks the bytes would pay at
 * least. Whether the mapping copies the image is checked by `benchImageCopy`, not by this time.
 */
export async function benchMapImage(options: BenchMapImageOptions = {}): Promise<BenchResult> {
  const imageBytes = options.imageBytes ?? 10 * 1024 * 1024;
  const data = randomBytes(imageBytes).toString('base64');
  const result = {
    content: [
      { type: 'text', text: 'Here is the screenshot.' },
      { type: 'image', data, mimeType: 'image/png' },
    ],
  };
  const repetitions = await runRepetitions({ repetitions: options.repetitions ?? 5 }, () =>
    compareInterleaved({
      subject: () => {
        const mapped = mapCallToolResult(result, { toolName: 'take_screenshot' });
        const image = mapped.llmParts.find((part) => part.type === 'inlineData');
        if (!image || image.type !== 'inlineData' || image.data.length !== data.length) throw new Error('the image was not mapped');
      },
      baseline: () => {
        if (Buffer.from(data, 'base64').length !== imageBytes) throw new Error('base64 decoding lost bytes');
      },
      warmup: options.warmupRounds ?? 2,
      iterations: options.rounds ?? 8,
      batch: { subject: options.batch ?? 100, baseline: 1 },
    }),
  );
  const megabytes = Math.round((imageBytes / (1024 * 1024)) * 10) / 10;
  return toBenchResult({
    id: `mapCallToolResult(${megabytes} MB image)`,
    description: `map a result with text and a ${megabytes} MB image (${data.length} base64 characters)`,
    ratioName: 'map/decode',
    labels: { subject: 'mapCallToolResult', baseline: 'one base64 decode (reference)' },
    summary: summarizeRepetitions(repetitions),
    notes: ['map/decode is a scale reference, not a goal: far below 1 means the mapping does not touch the bytes'],
  });
}
