import { describe, expect, it } from 'vitest';
import { benchCallTool } from './bench-call-tool.js';
import { benchDiscovery, findCaBundle } from './bench-discovery.js';
import { benchMapImage } from './bench-map-image.js';
import type { BenchResult } from './bench-result.js';
import { benchSanitize } from './bench-sanitize.js';

function expectMeasured(result: BenchResult, repetitions: number, samplesPerRepetition: number): void {
  expect(result.repetitions).toBe(repetitions);
  for (const side of [result.subject, result.baseline, ...(result.control ? [result.control] : [])]) {
    expect(side.stats.count).toBe(repetitions * samplesPerRepetition);
    for (const value of [side.stats.median, side.stats.p90, side.stats.min, side.cpuUs]) {
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
  }
  for (const spread of [result.wallRatio, result.cpuRatio, result.controlWallRatio, result.controlCpuRatio]) {
    if (spread === undefined) continue;
    expect(spread.values).toHaveLength(repetitions);
    expect(spread.min).toBeLessThanOrEqual(spread.median);
    expect(spread.median).toBeLessThanOrEqual(spread.max);
    expect(spread.min).toBeGreaterThan(0);
  }
}

describe('a tiny run of each benchmark', () => {
  it('discovery of 2 stdio fixture servers with toolhost and with the SDK, each with its defaults', async () => {
    const result = await benchDiscovery({ servers: 2, repetitions: 1, rounds: 1, warmup: 0 });
    expect(result.id).toBe('discovery(2 stdio)');
    expectMeasured(result, 1, 1);
    expect(result.notes?.join('\n')).toMatch(/toolhost \d+ variables .*no NODE_EXTRA_CA_CERTS.*SDK \d+/);
  }, 60_000);

  it('discovery with NODE_EXTRA_CA_CERTS set in the bench process, which is put back afterwards', async () => {
    const bundle = findCaBundle();
    if (!bundle) return; // no PEM bundle on this machine
    const before = process.env['NODE_EXTRA_CA_CERTS'];
    const result = await benchDiscovery({ servers: 2, repetitions: 1, rounds: 1, warmup: 0, extraCaCertificates: bundle });
    expect(result.id).toBe('discovery(2 stdio, NODE_EXTRA_CA_CERTS)');
    expect(result.notes?.join('\n')).toContain(`with NODE_EXTRA_CA_CERTS=${bundle}`);
    expect(result.notes?.join('\n')).toMatch(/one Node child .* [\d.]+ ms to exit vs [\d.]+ ms without/);
    expect(process.env['NODE_EXTRA_CA_CERTS']).toBe(before);
    await expect(benchDiscovery({ servers: 1, extraCaCertificates: '/nonexistent/ca.pem' })).rejects.toThrow(/does not exist/);
  }, 60_000);

  it('sanitizeSchema over the real-server corpus against structuredClone', async () => {
    const results = await benchSanitize({ profiles: ['gemini', 'openai-strict'], repetitions: 2, rounds: 3, batch: 1, warmupRounds: 0 });
    expect(results.map((result) => result.id)).toEqual(['sanitizeSchema(gemini)', 'sanitizeSchema(openai-strict)']);
    for (const result of results) {
      expectMeasured(result, 2, 3);
      expect(result.notes?.[0]).toMatch(/^corpus: \d+ tools of \d+ published servers/);
    }
  });

  it('host.callTool against client.callTool, with a second SDK client as the control and a verdict', async () => {
    const result = await benchCallTool({ repetitions: 2, rounds: 2, batch: 2, warmupRounds: 1 });
    expectMeasured(result, 2, 2);
    expect(result.control?.label).toBe('SDK client.callTool (control)');
    expect(result.controlWallRatio?.values).toHaveLength(2);
    expect(result.goal).toEqual({ wallRatio: 1.05, cpuRatio: 1.1 });
    expect(result.verdict?.detail).toMatch(/^wall [\d.]+x (<=|>) 1\.05x, cpu [\d.]+x (<=|>) 1\.10x$/);
  }, 60_000);

  it('mapping a result with a large image', async () => {
    const result = await benchMapImage({ imageBytes: 1024 * 1024, repetitions: 2, rounds: 2, batch: 2, warmupRounds: 0 });
    expect(result.id).toBe('mapCallToolResult(1 MB image)');
    expectMeasured(result, 2, 2);
  });
});
