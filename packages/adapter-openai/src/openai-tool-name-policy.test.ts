import { describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';
import { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';

// OpenAI's documented rule for function names (Chat Completions and Responses).
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

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

describe('OPENAI_TOOL_NAME_POLICY', () => {
  it('is the toolNames of both OpenAI adapters, with a 64-character limit', () => {
    expect(createOpenAIChatAdapter().toolNames).toBe(OPENAI_TOOL_NAME_POLICY);
    expect(createOpenAIResponsesAdapter({ strict: false }).toolNames).toBe(OPENAI_TOOL_NAME_POLICY);
    expect(OPENAI_TOOL_NAME_POLICY.maxLength).toBe(64);
  });

  it('keeps names OpenAI accepts and replaces every other character with _', () => {
    expect(OPENAI_TOOL_NAME_POLICY.normalize('docs__search-v2')).toBe('docs__search-v2');
    expect(OPENAI_TOOL_NAME_POLICY.normalize('3d-render')).toBe('3d-render');
    expect(OPENAI_TOOL_NAME_POLICY.normalize('docs.search')).toBe('docs_search');
    expect(OPENAI_TOOL_NAME_POLICY.normalize('github/search issues')).toBe('github_search_issues');
    expect(OPENAI_TOOL_NAME_POLICY.normalize('')).toBe('_');
  });

  it('is idempotent, and its names cut to maxLength match the documented pattern', () => {
    const { normalize, maxLength } = OPENAI_TOOL_NAME_POLICY;
    for (const name of NAMES) {
      const normalized = normalize(name);
      expect(normalize(normalized), JSON.stringify(name)).toBe(normalized);
      const declared = normalized.slice(0, maxLength);
      expect(declared, JSON.stringify(name)).toMatch(OPENAI_NAME);
      expect(normalize(declared), JSON.stringify(name)).toBe(declared);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(OPENAI_TOOL_NAME_POLICY)).toBe(true);
  });
});
