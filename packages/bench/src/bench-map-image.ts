import { randomBytes } from 'node:crypto';
import { mapCallToolResult } from '@toolhost/content-mapper';
import type { BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { pairedRatio, ratio } from './ratio.js';
import { summarize } from './summarize.js';

/** Options of {@link benchMapImage}. */
export interface BenchMapImageOptions {
  /** Size of the image before base64 encoding, in bytes. @default 10 MiB */
  readonly imageBytes?: number;
  /** Timed samples. @default 40 */
  readonly iterations?: number;
  /** Mappings per sample (the mapping takes microseconds; one decode per sample). @default 100 */
  readonly batch?: number;
  /** Untimed samples first. @default 3 */
  readonly warmup?: number;
}

/**
 * `mapCallToolResult` of a result holding a text block and one image of `imageBytes` bytes
 * (base64 in the result, as MCP sends it). For scale, the baseline decodes that base64 once
 * (`Buffer.from(data, 'base64')`), which a mapper that copies or checks the bytes would pay at least.
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
  const samples = await compareInterleaved({
    subject: () => {
      const mapped = mapCallToolResult(result, { toolName: 'take_screenshot' });
      const image = mapped.llmParts.find((part) => part.type === 'inlineData');
      if (!image || image.type !== 'inlineData' || image.data.length !== data.length) throw new Error('the image was not mapped');
    },
    baseline: () => {
      if (Buffer.from(data, 'base64').length !== imageBytes) throw new Error('base64 decoding lost bytes');
    },
    warmup: options.warmup ?? 3,
    iterations: options.iterations ?? 40,
    batch: { subject: options.batch ?? 100, baseline: 1 },
  });
  const subject = summarize(samples.subject);
  const baseline = summarize(samples.baseline);
  const megabytes = Math.round((imageBytes / (1024 * 1024)) * 10) / 10;
  return {
    id: `mapCallToolResult(${megabytes} MB image)`,
    description: `map a result with text and a ${megabytes} MB image (${data.length} base64 characters)`,
    subject: { label: 'mapCallToolResult', stats: subject },
    baseline: { label: 'one base64 decode (reference)', stats: baseline },
    ratioName: 'map/decode',
    ratio: ratio(subject.median, baseline.median),
    pairedRatio: pairedRatio(samples.subject, samples.baseline),
  };
}
