import { describe, expect, it } from 'vitest';
import { benchCallTool } from './bench-call-tool.js';
import { benchDiscovery } from './bench-discovery.js';
import { benchMapImage } from './bench-map-image.js';
import type { BenchResult } from './bench-result.js';
import { benchSanitize } from './bench-sanitize.js';
import { formatReport } from './format-report.js';

function expectMeasured(result: BenchResult, samples: number): void {
  for (const side of [result.subject, result.baseline]) {
    expect(side).toBeDefined();
    const stats = side?.stats;
    expect(stats?.count).toBe(samples);
    for (const value of [stats?.median, stats?.p90, stats?.min]) {
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
  }
  for (const value of [result.ratio, result.pairedRatio]) {
    expect(Number.isFinite(value)).toBe(true);
    expect(value).toBeGreaterThan(0);
  }
}

describe('a tiny run of each benchmark', () => {
  it('discovery of 2 stdio fixture servers with toolhost and with the SDK', async () => {
    const result = await benchDiscovery({ servers: 2, iterations: 1, warmup: 0 });
    expect(result.id).toBe('discovery(2 stdio)');
    expectMeasured(result, 1);
  }, 60_000);

  it('sanitizeSchema over the corpus against structuredClone', async () => {
    const results = await benchSanitize({ profiles: ['gemini', 'openai-strict'], iterations: 3, batch: 1, warmup: 0 });
    expect(results.map((result) => result.id)).toEqual(['sanitizeSchema(gemini)', 'sanitizeSchema(openai-strict)']);
    for (const result of results) expectMeasured(result, 3);
  });

  it('host.callTool against client.callTool on the stdio fixture', async () => {
    const result = await benchCallTool({ iterations: 5, warmup: 1 });
    expectMeasured(result, 5);
  }, 60_000);

  it('mapping a result with a large image, and the report lists every ratio', async () => {
    const result = await benchMapImage({ imageBytes: 1024 * 1024, iterations: 2, batch: 2, warmup: 0 });
    expect(result.id).toBe('mapCallToolResult(1 MB image)');
    expectMeasured(result, 2);
    const text = formatReport({
      environment: { node: 'v20', platform: 'linux/x64', cpus: 2, loadAverage: [1, 1, 1] },
      timeUnit: 'ms',
      startedAt: new Date(0).toISOString(),
      durationMs: 5,
      results: [result],
      failures: [{ benchmark: 'discovery', message: 'boom' }],
    });
    expect(text).toMatch(/^mapCallToolResult\(1 MB image\) map\/decode = [\d.e-]+x \(paired [\d.e-]+x\)$/m);
    expect(text).toContain('NOT MEASURED discovery: boom');
  });
});
