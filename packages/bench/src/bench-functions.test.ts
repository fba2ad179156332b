import { describe, expect, it } from 'vitest';
import { benchAiSdkCall } from './bench-ai-sdk-call.js';
import { benchCallTool } from './bench-call-tool.js';
import { benchDiscovery, findCaBundle } from './bench-discovery.js';
import { benchMapImage } from './bench-map-image.js';
import type { BenchResult } from './bench-result.js';
import { benchSanitize } from './bench-sanitize.js';
import { WireMismatchError, WIRES } from './wires.js';

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

// The wires with the revision pinned in the fixture entries: in auto mode a stdio server that has
// not answered the version probe within 5 s (a busy machine starting it) counts as a 2025-era one.
// Negotiation itself is checked below ("fails loudly when a side negotiates another revision").
const PINNED_WIRES = WIRES.map((wire) => ({ ...wire, pinned: true }));

// These runs check that each benchmark measures what it claims (sides, wires, goals); they never
// judge the numbers: the goals are checked by `pnpm bench` itself.
describe('a tiny run of each benchmark', () => {
  it.each(PINNED_WIRES)('discovery of 2 stdio fixture servers on $revision with McpToolHost and with raw SDK clients', async (wire) => {
    const result = await benchDiscovery({ wire, servers: 2, repetitions: 1, rounds: 1, warmup: 0 });
    expect(result.id).toBe(`discovery(2 stdio, ${wire.revision})`);
    expect(result.revision).toBe(wire.revision);
    expectMeasured(result, 1, 1);
    expect(result.control?.label).toBe('SDK Client x N (control)');
    expect(result.goal).toEqual({ wallRatio: 1.05 });
    expect(result.verdict?.detail).toMatch(/^wall [\d.]+x (<=|>) 1\.05x$/);
    expect(result.notes?.join('\n')).toMatch(/toolhost \d+ variables .*no NODE_EXTRA_CA_CERTS.*SDK \d+/);
  });

  it('discovery with NODE_EXTRA_CA_CERTS set in the bench process, which is put back afterwards', async () => {
    const bundle = findCaBundle();
    if (!bundle) return; // no PEM bundle on this machine
    const before = process.env['NODE_EXTRA_CA_CERTS'];
    const result = await benchDiscovery({ servers: 2, repetitions: 1, rounds: 1, warmup: 0, extraCaCertificates: bundle });
    expect(result.id).toBe('discovery(2 stdio, 2025-11-25, NODE_EXTRA_CA_CERTS)');
    expect(result.goal).toEqual({ wallRatio: 1.05 });
    expect(result.notes?.join('\n')).toContain(`with NODE_EXTRA_CA_CERTS=${bundle}`);
    expect(result.notes?.join('\n')).toMatch(/one Node child .* [\d.]+ ms to exit vs [\d.]+ ms without/);
    expect(process.env['NODE_EXTRA_CA_CERTS']).toBe(before);
    await expect(benchDiscovery({ servers: 1, extraCaCertificates: '/nonexistent/ca.pem' })).rejects.toThrow(/does not exist/);
  });

  it('sanitizeSchema over the real-server corpus against structuredClone', async () => {
    const results = await benchSanitize({ profiles: ['gemini', 'openai-strict'], repetitions: 2, rounds: 3, batch: 1, warmupRounds: 0 });
    expect(results.map((result) => result.id)).toEqual(['sanitizeSchema(gemini)', 'sanitizeSchema(openai-strict)']);
    for (const result of results) {
      expectMeasured(result, 2, 3);
      expect(result.notes?.[0]).toMatch(/^corpus: \d+ tools of \d+ published servers/);
    }
  });

  it('a createAiSdkTools tool against an @ai-sdk/mcp tool on 2025-11-25 (execute, and the per-call work of generateText), with a control and a verdict on execute', async () => {
    const results = await benchAiSdkCall({ repetitions: 2, rounds: 2, batch: 2, warmupRounds: 1, warmupRepetitions: 1 });
    expect(results.map((result) => result.id)).toEqual([
      'aiSdkTool.execute(stdio echo, 2025-11-25)',
      'aiSdkTool.execute first repetition, JIT cold(stdio echo, 2025-11-25)',
      'aiSdkTool per call in generateText(stdio echo, 2025-11-25)',
      'MCP SDK client.callTool vs @ai-sdk/mcp(stdio echo, 2025-11-25)',
    ]);
    for (const [index, result] of results.entries()) {
      expect(result.revision).toBe('2025-11-25');
      // The cold row is the one warm-up repetition, kept out of the execute row's two.
      const repetitions = index === 1 ? 1 : 2;
      expectMeasured(result, repetitions, 2);
      expect(result.controlWallRatio?.values).toHaveLength(repetitions);
    }
    expect(results[0]?.baseline.label).toBe('@ai-sdk/mcp execute');
    expect(results[0]?.goal).toEqual({ wallRatio: 1.05 });
    expect(results[0]?.verdict?.detail).toMatch(/^wall [\d.]+x (<=|>) 1\.05x$/);
    expect(results[0]?.notes?.[0]).toMatch(
      /^after 1 untimed warm-up repetition\(s\) on every side, until toolhost's CPU time per call fell by less than 10 %/,
    );
    expect(results[1]?.goal).toBeUndefined();
    expect(results[1]?.verdict).toBeUndefined();
    expect(results[2]?.goal).toBeUndefined();
    expect(results[3]?.subject.label).toBe('MCP SDK client.callTool');
    expect(results[3]?.goal).toBeUndefined();
  });

  it('leaves the cold row out when no warm-up repetition runs', async () => {
    const results = await benchAiSdkCall({ repetitions: 1, rounds: 1, batch: 1, warmupRounds: 0, warmupRepetitions: 0 });
    expect(results.map((result) => result.id)).toEqual([
      'aiSdkTool.execute(stdio echo, 2025-11-25)',
      'aiSdkTool per call in generateText(stdio echo, 2025-11-25)',
      'MCP SDK client.callTool vs @ai-sdk/mcp(stdio echo, 2025-11-25)',
    ]);
    expect(results[0]?.notes).toBeUndefined();
  });

  it.each(PINNED_WIRES)(
    'host.callTool against a raw client.callTool on $revision, with a second raw client as the control and a verdict',
    async (wire) => {
      const result = await benchCallTool({ wire, repetitions: 2, rounds: 2, batch: 2, warmupRounds: 1 });
      expect(result.id).toBe(`callTool(stdio echo, ${wire.revision})`);
      expect(result.revision).toBe(wire.revision);
      expectMeasured(result, 2, 2);
      expect(result.control?.label).toBe('SDK client.callTool (control)');
      expect(result.controlWallRatio?.values).toHaveLength(2);
      expect(result.goal).toEqual({ wallRatio: 1.05 });
      expect(result.verdict?.detail).toMatch(/^wall [\d.]+x (<=|>) 1\.05x$/);
    },
  );

  it('fails loudly when a side negotiates another revision than the wire claims', async () => {
    // A 2025-era fixture claimed as the 2026-07-28 wire: everyone falls back to initialize.
    const legacyClaimedModern = { revision: '2026-07-28', era: 'legacy' } as const;
    await expect(benchCallTool({ wire: legacyClaimedModern, repetitions: 1, rounds: 1, batch: 1, warmupRounds: 0 })).rejects.toThrow(
      /WIRE MISMATCH: McpToolHost .*negotiated 2025-11-25 on the 2026-07-28 wire \(fixture --era=legacy\)/,
    );
    // A 2026-07-28-only fixture claimed as the 2025-11-25 wire: everyone negotiates 2026-07-28.
    const modernClaimedLegacy = { revision: '2025-11-25', era: 'modern' } as const;
    await expect(benchDiscovery({ wire: modernClaimedLegacy, servers: 1, repetitions: 1, rounds: 1, warmup: 0 })).rejects.toThrow(
      WireMismatchError,
    );
  });

  it('mapping a result with a large image', async () => {
    const result = await benchMapImage({ imageBytes: 1024 * 1024, repetitions: 2, rounds: 2, batch: 2, warmupRounds: 0 });
    expect(result.id).toBe('mapCallToolResult(1 MB image)');
    expectMeasured(result, 2, 2);
  });
});
