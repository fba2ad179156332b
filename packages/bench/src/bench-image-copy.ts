import { randomBytes } from 'node:crypto';
import { mapCallToolResult } from '@toolhost/content-mapper';
import type { CheckResult } from './bench-result.js';
import { getGc } from './gc.js';

/** A mapping of a `CallToolResult` whose output is kept alive by the check. */
export type ResultMapper = (result: { content: unknown[] }) => unknown;

/** Options of {@link benchImageCopy}. */
export interface ImageCopyCheckOptions {
  /** Size of the image before base64 encoding, in bytes. @default 10 MiB */
  readonly imageBytes?: number;
  /** Mappings kept alive. @default 200 */
  readonly mappings?: number;
  /** Highest passing growth of heap + external memory per mapping, in bytes. @default 65536 */
  readonly limitBytesPerMapping?: number;
  /**
   * Stop mapping once this much memory is retained (a copying mapper would otherwise need
   * `mappings x image size`); the per-mapping figure is taken over the mappings done. @default 1 GiB
   */
  readonly maxRetainedBytes?: number;
  /** Mappings between two measurements (and the early stop). @default 20 */
  readonly chunk?: number;
  /** The mapping under test. @default `mapCallToolResult(result, { toolName: 'take_screenshot' })` */
  readonly map?: ResultMapper;
  /** Label of the mapping in the result's id. @default 'mapCallToolResult' */
  readonly label?: string;
}

const defaultMap: ResultMapper = (result) => mapCallToolResult(result, { toolName: 'take_screenshot' });

function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (abs >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${Math.round(bytes)} B`;
}

function retained(before: NodeJS.MemoryUsage, after: NodeJS.MemoryUsage): { heap: number; external: number; arrayBuffers: number } {
  return {
    heap: after.heapUsed - before.heapUsed,
    external: after.external - before.external,
    arrayBuffers: after.arrayBuffers - before.arrayBuffers,
  };
}

/**
 * Whether mapping a result that holds a large base64 image copies the image: map the same
 * result `mappings` times, keep every output alive, and measure how much the heap and external
 * memory (`process.memoryUsage()`, after a full `gc()`) grew per mapping. A pass-through mapping
 * retains a few hundred bytes per mapping; one that copies the image (a new string, a decoded
 * buffer) retains about the image's size. FAIL above `limitBytesPerMapping`.
 */
export function benchImageCopy(options: ImageCopyCheckOptions = {}): CheckResult {
  const gc = getGc();
  const imageBytes = options.imageBytes ?? 10 * 1024 * 1024;
  const mappings = options.mappings ?? 200;
  const limit = options.limitBytesPerMapping ?? 64 * 1024;
  const maxRetained = options.maxRetainedBytes ?? 1024 * 1024 * 1024;
  const chunk = Math.max(1, options.chunk ?? 20);
  const map = options.map ?? defaultMap;
  const data = randomBytes(imageBytes).toString('base64');
  const result = {
    content: [
      { type: 'text', text: 'Here is the screenshot.' },
      { type: 'image', data, mimeType: 'image/png' },
    ],
  };
  map(result); // load and compile the mapping code before the first measurement
  gc();
  gc();
  const before = process.memoryUsage();
  const kept: unknown[] = [];
  let stoppedEarly = false;
  while (kept.length < mappings) {
    const end = Math.min(mappings, kept.length + chunk);
    while (kept.length < end) kept.push(map(result));
    gc();
    const grown = retained(before, process.memoryUsage());
    if (kept.length < mappings && grown.heap + grown.external > maxRetained) {
      stoppedEarly = true;
      break;
    }
  }
  gc();
  gc();
  const after = process.memoryUsage();
  const grown = retained(before, after);
  const count = kept.length; // read after the measurement: every mapping is alive until here
  const perMapping = (grown.heap + grown.external) / count;
  const pass = perMapping <= limit;
  const megabytes = Math.round((imageBytes / (1024 * 1024)) * 10) / 10;
  const notes = [
    `image ${data.length} base64 characters; retained heap ${formatBytes(grown.heap)}, external ${formatBytes(grown.external)} (arrayBuffers ${formatBytes(grown.arrayBuffers)}) for ${count} live mappings`,
  ];
  if (stoppedEarly) notes.push(`stopped after ${count} of ${mappings} mappings: more than ${formatBytes(maxRetained)} retained`);
  return {
    id: `image copy check(${options.label ?? 'mapCallToolResult'}, ${mappings} x ${megabytes} MB)`,
    description: `map a result with a ${megabytes} MB image ${mappings} times, keep every output, measure heap + external growth after gc()`,
    value: perMapping,
    unit: 'bytes retained per mapping',
    limit,
    verdict: { pass, detail: `${formatBytes(perMapping)} retained per mapping ${pass ? '<=' : '>'} ${formatBytes(limit)}` },
    details: {
      mappings: count,
      imageBase64Chars: data.length,
      heapUsedBytes: grown.heap,
      externalBytes: grown.external,
      arrayBuffersBytes: grown.arrayBuffers,
      bytesPerMapping: perMapping,
    },
    notes,
  };
}
