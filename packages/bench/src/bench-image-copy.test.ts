import { mapCallToolResult } from '@toolhost/content-mapper';
import { describe, expect, it } from 'vitest';
import { benchImageCopy, type ResultMapper } from './bench-image-copy.js';

const MB = 1024 * 1024;

/** A deliberately copying mapper: a defensive `structuredClone` of the result first (a new string on the V8 heap). */
const copyingClone: ResultMapper = (result) => mapCallToolResult(structuredClone(result), { toolName: 'take_screenshot' });

/**
 * A deliberately copying mapper: maps like the real one, then re-encodes the image. Node makes a
 * string that large an external string, so the copy shows in `external`, not in `heapUsed`.
 */
const copyingString: ResultMapper = (result) => {
  const mapped = mapCallToolResult(result, { toolName: 'take_screenshot' });
  return {
    ...mapped,
    llmParts: mapped.llmParts.map((part) =>
      part.type === 'inlineData' ? { ...part, data: Buffer.from(part.data, 'base64').toString('base64') } : part,
    ),
  };
};

/** A deliberately copying mapper that keeps the decoded bytes (external memory, not heap). */
const copyingBytes: ResultMapper = (result) => {
  const mapped = mapCallToolResult(result, { toolName: 'take_screenshot' });
  const image = mapped.llmParts.find((part) => part.type === 'inlineData');
  return { ...mapped, bytes: image?.type === 'inlineData' ? Buffer.from(image.data, 'base64') : undefined };
};

describe('the image copy check', () => {
  it('passes mapCallToolResult, which hands the base64 string through', () => {
    const check = benchImageCopy({ imageBytes: 2 * MB, mappings: 40, chunk: 10 });
    expect(check.verdict.pass).toBe(true);
    expect(check.details['mappings']).toBe(40);
    expect(check.value).toBeLessThan(64 * 1024);
  });

  it('flags a mapper that clones the result (a copy of the base64 text on the V8 heap)', () => {
    const check = benchImageCopy({ imageBytes: 2 * MB, mappings: 20, chunk: 5, map: copyingClone, label: 'structuredClone' });
    expect(check.verdict.pass).toBe(false);
    expect(check.verdict.detail).toMatch(/retained per mapping > 64\.0 KB$/);
    // each copy is the image's base64 text again: about 2.8 MB per mapping
    expect(check.details['heapUsedBytes']).toBeGreaterThan(20 * 2 * MB);
    expect(check.value).toBeGreaterThan(2 * MB);
  });

  it('flags a mapper that re-encodes the image into a new string (an external string: seen only because external memory counts)', () => {
    const check = benchImageCopy({ imageBytes: 2 * MB, mappings: 20, chunk: 5, map: copyingString, label: 're-encoded string' });
    expect(check.verdict.pass).toBe(false);
    expect((check.details['heapUsedBytes'] ?? 0) + (check.details['externalBytes'] ?? 0)).toBeGreaterThan(20 * 2 * MB);
    expect(check.value).toBeGreaterThan(2 * MB);
  });

  it('flags a mapper that keeps decoded bytes (external memory), and stops early past the memory cap', () => {
    const check = benchImageCopy({ imageBytes: 2 * MB, mappings: 200, chunk: 5, map: copyingBytes, maxRetainedBytes: 32 * MB });
    expect(check.verdict.pass).toBe(false);
    expect(check.details['externalBytes']).toBeGreaterThan(32 * MB);
    expect(check.details['mappings']).toBeLessThan(200);
    expect(check.notes?.join('\n')).toMatch(/stopped after \d+ of 200 mappings/);
    expect(check.value).toBeGreaterThan(MB);
  });
});
