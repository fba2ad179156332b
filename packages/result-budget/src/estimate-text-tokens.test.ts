// The offline estimate against real tokenizers (OpenAI's cl100k_base and o200k_base, through
// js-tiktoken, offline): at or above both on every kind of text a tool returns, and not absurdly
// above (a budget estimated at twice the truth would halve what the model can see).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { createTokenEstimator, estimateTextTokens } from './index.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const cl100k = getEncoding('cl100k_base');
const o200k = getEncoding('o200k_base');

// Real data: tools/list schemas of published MCP servers (the bench corpus), and this package's source.
const corpus = JSON.parse(readFileSync(here('../../bench/corpus/real-tool-schemas.json'), 'utf8')) as unknown;
const code = readdirSync(here('.'))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => readFileSync(here(`./${name}`), 'utf8'))
  .join('\n');
const rows = Array.from({ length: 1500 }, (_, index) => ({
  id: 1_000_000 + index * 7919,
  node_id: `MDQ6VXNlcj${index}`,
  login: `user${index}`,
  score: Math.round(Math.sin(index) * 1e6) / 1e3,
  created_at: new Date(1.6e12 + index * 3.7e7).toISOString(),
  site_admin: index % 7 === 0,
  html_url: `https://github.com/user${index}`,
}));
// Deterministic pseudo-random bytes (no crypto: the same text every run).
const bytes = Uint8Array.from({ length: 24_000 }, (_, index) => (index * 2654435761) >>> 24);
const chinese =
  '对于 Gemini 模型,一个 token 相当于大约 4 个字符。token 可以是单个字符,也可以是整个单词。长单词会被拆分为多个 token。模型使用的所有 token 的集合称为词汇,将文本拆分为 token 的过程称为词元化。启用结算功能后,调用 API 的费用部分取决于输入和输出 token 的数量。';
const japanese =
  'Claude Code は MCP ツールの出力に対して、文字数とトークン数という二つの独立した上限を持っています。画像コンテンツを含まない成功レスポンスがこれを超えると、内容はファイルに保存されます。';
const korean =
  'Gemini 모델의 경우 토큰은 약 4자와 같습니다. 토큰은 단일 문자 또는 전체 단어일 수 있습니다. 긴 단어는 여러 토큰으로 나뉩니다.';

const SAMPLES: Record<string, string> = {
  'pretty JSON (real tool schemas)': JSON.stringify(corpus, null, 2),
  'compact JSON (real tool schemas)': JSON.stringify(corpus),
  'API-like JSON rows with numbers': JSON.stringify(rows),
  'TypeScript source': code,
  'English prose': readFileSync(here('../../../docs/getting-started.md'), 'utf8'),
  Chinese: chinese.repeat(20),
  Japanese: japanese.repeat(20),
  Korean: korean.repeat(20),
  base64: btoa(String.fromCharCode(...bytes)),
  hex: Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(''),
  'emoji and flags': '👩‍💻🎉🔥✅❤️‍🔥🇫🇷😀 '.repeat(200),
  'numbers array': JSON.stringify(Array.from({ length: 4000 }, (_, index) => (index * 2654435761) % 1e9)),
};

describe('estimateTextTokens', () => {
  it.each(Object.entries(SAMPLES))('counts %s at or above cl100k_base and o200k_base, and under twice their count', (_name, text) => {
    const estimate = estimateTextTokens(text);
    const real = Math.max(cl100k.encode(text).length, o200k.encode(text).length);
    expect(estimate).toBeGreaterThanOrEqual(real);
    expect(estimate).toBeLessThan(real * 2);
  });

  it('is 0 for empty text and never negative or fractional', () => {
    expect(estimateTextTokens('')).toBe(0);
    for (const text of ['a', ' ', '\n', '\ud800', '\udc00x', '{', 'é', '中', '😀']) {
      const estimate = estimateTextTokens(text);
      expect(Number.isInteger(estimate) && estimate >= 1).toBe(true);
    }
  });

  it('takes a real tokenizer when the application gives one, and falls back on a broken one', () => {
    const exact = createTokenEstimator({ countTextTokens: (text) => o200k.encode(text).length });
    expect(exact.text('hello world')).toBe(2);
    const broken = createTokenEstimator({ countTextTokens: () => Number.NaN });
    expect(broken.text('hello world')).toBe(estimateTextTokens('hello world'));
    expect(createTokenEstimator({ countTextTokens: () => -5 }).text('abc')).toBe(estimateTextTokens('abc'));
  });

  it('rejects an unknown vendor with INVALID_OPTIONS', () => {
    expect(() => createTokenEstimator({ vendor: 'mistral' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
