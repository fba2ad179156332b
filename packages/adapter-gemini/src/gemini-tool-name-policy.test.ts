import { describe, expect, it } from 'vitest';
import { createGeminiAdapter } from './create-gemini-adapter.js';
import { GEMINI_TOOL_NAME_POLICY } from './gemini-tool-name-policy.js';

// Gemini's documented rule for function declaration names.
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const NAMES = [
  'search',
  'docs__search',
  'a.b:c-d_e',
  'github/search issues',
  '3d-render',
  '-dash',
  '.dot',
  ':colon',
  '',
  ' ',
  'ünïcödé',
  '😀 tool',
  'tab\tand\nnewline',
  '__proto__',
  '9'.repeat(80),
  'x'.repeat(64),
  'y'.repeat(65),
  `${'z'.repeat(63)}é`,
];

describe('GEMINI_TOOL_NAME_POLICY', () => {
  it('is the toolNames of every Gemini adapter, with a 64-character limit', () => {
    expect(createGeminiAdapter().toolNames).toBe(GEMINI_TOOL_NAME_POLICY);
    expect(createGeminiAdapter({ schemaField: 'parametersJsonSchema' }).toolNames).toBe(GEMINI_TOOL_NAME_POLICY);
    expect(GEMINI_TOOL_NAME_POLICY.maxLength).toBe(64);
  });

  it('keeps names Gemini accepts and fixes the others', () => {
    expect(GEMINI_TOOL_NAME_POLICY.normalize('search')).toBe('search');
    expect(GEMINI_TOOL_NAME_POLICY.normalize('a.b:c-d_e')).toBe('a.b:c-d_e');
    expect(GEMINI_TOOL_NAME_POLICY.normalize('github/search issues')).toBe('github_search_issues');
    expect(GEMINI_TOOL_NAME_POLICY.normalize('3d-render')).toBe('_3d-render');
    expect(GEMINI_TOOL_NAME_POLICY.normalize('')).toBe('_');
  });

  it('is idempotent, and its names cut to maxLength match the documented pattern', () => {
    const { normalize, maxLength } = GEMINI_TOOL_NAME_POLICY;
    for (const name of NAMES) {
      const normalized = normalize(name);
      expect(normalize(normalized), JSON.stringify(name)).toBe(normalized);
      const declared = normalized.slice(0, maxLength);
      expect(declared, JSON.stringify(name)).toMatch(GEMINI_NAME);
      expect(normalize(declared), JSON.stringify(name)).toBe(declared);
    }
  });

  it('is frozen, so no one can change the names every Gemini adapter accepts', () => {
    expect(Object.isFrozen(GEMINI_TOOL_NAME_POLICY)).toBe(true);
  });
});
