import { describe, expect, it } from 'vitest';
import { ANTHROPIC_TOOL_NAME_POLICY } from './anthropic-tool-name-policy.js';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

// Anthropic's documented rule for tool names.
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const NAMES = [
  'search',
  'docs__search-v2',
  'docs.search',
  'a:b',
  'github/search issues',
  '3d-render',
  '',
  ' ',
  'ünïcödé',
  '😀 tool',
  'tab\tand\nnewline',
  '__proto__',
  'x'.repeat(64),
  'y'.repeat(65),
  `${'z'.repeat(63)}.`,
];

describe('ANTHROPIC_TOOL_NAME_POLICY', () => {
  it('is the toolNames of every Anthropic adapter, with a 64-character limit', () => {
    expect(createAnthropicAdapter().toolNames).toBe(ANTHROPIC_TOOL_NAME_POLICY);
    expect(ANTHROPIC_TOOL_NAME_POLICY.maxLength).toBe(64);
  });

  it('keeps names Anthropic accepts and replaces every other character with _', () => {
    expect(ANTHROPIC_TOOL_NAME_POLICY.normalize('docs__search-v2')).toBe('docs__search-v2');
    expect(ANTHROPIC_TOOL_NAME_POLICY.normalize('3d-render')).toBe('3d-render');
    expect(ANTHROPIC_TOOL_NAME_POLICY.normalize('docs.search')).toBe('docs_search');
    expect(ANTHROPIC_TOOL_NAME_POLICY.normalize('github/search issues')).toBe('github_search_issues');
    expect(ANTHROPIC_TOOL_NAME_POLICY.normalize('')).toBe('_');
  });

  it('is idempotent, and its names cut to maxLength match the documented pattern', () => {
    const { normalize, maxLength } = ANTHROPIC_TOOL_NAME_POLICY;
    for (const name of NAMES) {
      const normalized = normalize(name);
      expect(normalize(normalized), JSON.stringify(name)).toBe(normalized);
      const declared = normalized.slice(0, maxLength);
      expect(declared, JSON.stringify(name)).toMatch(ANTHROPIC_NAME);
      expect(normalize(declared), JSON.stringify(name)).toBe(declared);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(ANTHROPIC_TOOL_NAME_POLICY)).toBe(true);
  });
});
