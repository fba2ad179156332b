// shortenResult through the package's public API: structure kept (valid JSON, head and tail of
// text, summarised structuredContent), the budget met, and hostile results handled in bounded work.
import type { ContentPart, InlineDataPart } from '@toolhost/contract';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { createTokenEstimator, estimateResultTokens, resultText, shortenResult, type BudgetResult, type ShortenedResult } from './index.js';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ID = 'res_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

const textResult = (text: string, extra: Partial<BudgetResult> = {}): BudgetResult => ({ parts: [{ type: 'text', text }], ...extra });
const textOf = (part: ContentPart | undefined): string => (part?.type === 'text' ? part.text : '');
/** A lone surrogate half: what a cut through a pair leaves behind. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function issues(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => ({
    id: 2_000_000 + index,
    number: index + 1,
    title: `Bump the dependency ${index} to its latest version`,
    state: index % 3 === 0 ? 'closed' : 'open',
    user: { login: `user${index % 50}`, id: 9000 + (index % 50), site_admin: false },
    labels: [{ name: 'dependencies', color: '0366d6' }],
    body: `Bumps the package from 1.${index}.0 to 1.${index + 1}.0. See the changelog for details.`,
  }));
}

function expectWithinBudget(shortened: ShortenedResult, budget: number): void {
  expect(shortened.shortened).toBe(true);
  expect(shortened.tokens).toBeLessThanOrEqual(budget);
  // The count is the estimator's own over what is sent, not a figure written down by the shortener.
  expect(estimateResultTokens(shortened).total).toBeLessThanOrEqual(budget);
}

describe('shortenResult within budget', () => {
  it('returns the result as it came, with nothing omitted', () => {
    const result = textResult('{"ok":true}', { structuredContent: { ok: true } });
    const shortened = shortenResult(result, { budgetTokens: 25_000 });
    expect(shortened.shortened).toBe(false);
    expect(shortened.parts).toEqual(result.parts);
    expect(shortened.structuredContent).toBe(result.structuredContent);
    expect(shortened.note).toBeUndefined();
    expect(shortened.omitted).toEqual({ tokens: 0, characters: 0, items: 0, keys: 0, strings: 0, nested: 0, media: 0 });
    expect(shortened.tokens).toBe(shortened.originalTokens);
  });

  it('rejects a budget that is not a whole number of at least 1,000 tokens', () => {
    for (const budgetTokens of [0, 999, 1000.5, Number.NaN, -1, '25000' as never]) {
      expect(() => shortenResult(textResult('x'), { budgetTokens })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
  });
});

describe('shortenResult on JSON', () => {
  it('keeps a long array valid JSON: its head items as they were, then a marker with how many were left out', () => {
    const original = { total_count: 5000, incomplete_results: false, items: issues(5000) };
    const shortened = shortenResult(textResult(JSON.stringify(original)), { budgetTokens: 5000, resultId: ID, toolName: 'search_issues' });
    expectWithinBudget(shortened, 5000);
    const value = JSON.parse(textOf(shortened.parts[0])) as typeof original & { items: unknown[] };
    expect(value.total_count).toBe(5000);
    expect(value.incomplete_results).toBe(false);
    const kept = value.items.length - 1;
    expect(kept).toBeGreaterThan(5);
    expect(value.items.slice(0, kept)).toEqual(original.items.slice(0, kept));
    expect(value.items[kept]).toBe(`[… ${(5000 - kept).toLocaleString('en-US')} more items]`);
    expect(shortened.omitted.items).toBe(5000 - kept);
    const note = textOf(shortened.parts[1]);
    expect(shortened.note).toBe(note);
    expect(note).toContain(`${(5000 - kept).toLocaleString('en-US')} array items left out`);
    expect(note).toContain(`call read_tool_result with {"id":"${ID}","offset":0,"length":40000}`);
    expect(note).toContain("tool 'search_issues'");
    expect(shortened.parts).toHaveLength(2);
  });

  it('keeps small fields whole, shortens the large ones (a long string cut with a marker) and lists keys left out', () => {
    const original: Record<string, unknown> = {
      id: 42,
      name: 'report.log',
      content: `${'log line with details\n'.repeat(20_000)}THE END`,
      entries: issues(2000),
    };
    for (let index = 0; index < 400; index++) original[`field_${index}`] = { nested: 'v'.repeat(300) };
    const shortened = shortenResult(textResult(JSON.stringify(original)), { budgetTokens: 3000 });
    expectWithinBudget(shortened, 3000);
    const value = JSON.parse(textOf(shortened.parts[0])) as Record<string, unknown>;
    expect(value['id']).toBe(42);
    expect(value['name']).toBe('report.log');
    expect(value['content']).toMatch(/^log line with details\n[\s\S]* … \[cut: [\d,]+ more characters\]$/);
    expect(value['…']).toMatch(/^[\d,]+ more keys left out: /);
    expect(shortened.omitted.strings).toBeGreaterThanOrEqual(1);
    expect(shortened.omitted.keys).toBeGreaterThan(0);
  });

  it('keeps the digits of numbers JavaScript cannot hold (19-digit ids, 1e400)', () => {
    const ids = Array.from({ length: 3000 }, (_, index) => `1180591620717411303${String(index % 10)}`);
    const text = `{"ids":[${ids.join(',')}],"huge":1e400,"precise":0.10000000000000000555}`;
    const shortened = shortenResult(textResult(text), { budgetTokens: 1000 });
    const out = textOf(shortened.parts[0]);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(out.startsWith(`{"ids":[${ids.slice(0, 3).join(',')},`)).toBe(true);
    expect(out).toContain('"huge":1e400');
    expect(out).toContain('"precise":0.10000000000000000555');
  });

  it('shortens JSON that follows the host error line and precedes media marker lines, keeping those lines', () => {
    const json = JSON.stringify({ errors: issues(3000) });
    const text = `[MCP tool 'gh' reported an error]\n${json}\n[Tool 'gh' provided the following image data with mime-type: image/png]`;
    const shortened = shortenResult(textResult(text), { budgetTokens: 2000 });
    const [first, inner, last] = [
      textOf(shortened.parts[0]).split('\n')[0],
      textOf(shortened.parts[0]).split('\n')[1],
      textOf(shortened.parts[0]).split('\n')[2],
    ];
    expect(first).toBe("[MCP tool 'gh' reported an error]");
    expect(() => JSON.parse(inner as string)).not.toThrow();
    expect(last).toBe("[Tool 'gh' provided the following image data with mime-type: image/png]");
  });

  it('handles JSON nested 100,000 levels deep (arrays and objects) without running out of stack', () => {
    for (const text of ['['.repeat(100_000) + ']'.repeat(100_000), `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`]) {
      const shortened = shortenResult(textResult(text), { budgetTokens: 1000 });
      expectWithinBudget(shortened, 1000);
      const out = textOf(shortened.parts[0]);
      expect(() => JSON.parse(out)).not.toThrow();
      expect(out).toMatch(/nested too deep to show/);
      expect(shortened.omitted.nested).toBe(1);
    }
  });

  it('writes a JSON key named __proto__ as data, and a hostile 1 MB key is left out, not cut', () => {
    const text = `{"__proto__":{"polluted":true},"${'k'.repeat(1_000_000)}":1,"small":"kept","list":[${'1,'.repeat(100_000)}1]}`;
    const shortened = shortenResult(textResult(text), { budgetTokens: 1000 });
    const out = textOf(shortened.parts[0]);
    const value = JSON.parse(out) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(value['small']).toBe('kept');
    expect(out.length).toBeLessThan(20_000);
    expect(value['…']).toMatch(/1 more key left out: k{24}…/);
  });

  it('never cuts a surrogate pair or an emoji sequence in a JSON string, and keeps lone surrogates escaped', () => {
    const family = '👩‍👩‍👧‍👦';
    const text = JSON.stringify({ a: family.repeat(20_000), b: '\ud800 lone', c: 'e\u0301'.repeat(30_000) });
    const shortened = shortenResult(textResult(text), { budgetTokens: 1000 });
    const value = JSON.parse(textOf(shortened.parts[0])) as Record<string, string>;
    const head = (value['a'] as string).split(' … [cut:')[0] as string;
    expect(head.length % family.length).toBe(0);
    expect(head.replaceAll(family, '')).toBe('');
    expect(value['b']).toBe('\ud800 lone');
    expect(LONE_SURROGATE.test(textOf(shortened.parts[0]).replace('\ud800 lone', ''))).toBe(false);
    const accents = (value['c'] as string).split(' … [cut:')[0] as string;
    expect(accents.length % 2).toBe(0);
  });

  it('is deterministic: the same result and options give the same output', () => {
    const text = JSON.stringify({ items: issues(3000) });
    const first = shortenResult(textResult(text), { budgetTokens: 2000, resultId: ID });
    const second = shortenResult(textResult(text), { budgetTokens: 2000, resultId: ID });
    expect(second).toEqual(first);
  });
});

describe('shortenResult on plain text', () => {
  const lines = Array.from(
    { length: 60_000 },
    (_, index) => `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z worker ${index}: done 🎉`,
  );
  const text = lines.join('\n');

  it('keeps the head and the tail, whole lines, around a marker giving the offsets left out and how to read them', () => {
    const shortened = shortenResult(textResult(text), { budgetTokens: 4000, resultId: ID });
    expectWithinBudget(shortened, 4000);
    const out = textOf(shortened.parts[0]);
    const marker =
      /\n\[… ([\d,]+) characters \(([\d,]+) lines\) left out here: characters ([\d,]+) to ([\d,]+) of ([\d,]+); read them with read_tool_result \{"id":"res_A{32}","offset":(\d+)\}\]\n/.exec(
        out,
      );
    expect(marker).not.toBeNull();
    const number = (value: string | undefined) => Number((value ?? '').replaceAll(',', ''));
    const from = number(marker?.[3]);
    const to = number(marker?.[4]);
    expect(number(marker?.[6])).toBe(from);
    expect(number(marker?.[5])).toBe(text.length);
    expect(number(marker?.[1])).toBe(to - from);
    expect(out.startsWith(text.slice(0, from))).toBe(true);
    expect(out.endsWith(text.slice(to))).toBe(true);
    // Whole lines on both sides.
    expect(text[from - 1]).toBe('\n');
    expect(text[to - 1]).toBe('\n');
    expect(shortened.omitted.characters).toBe(to - from);
    expect(LONE_SURROGATE.test(out)).toBe(false);
  });

  it('cuts text without line breaks at grapheme boundaries', () => {
    const flags = '🇫🇷🇯🇵🇧🇷'.repeat(50_000);
    const shortened = shortenResult(textResult(flags), { budgetTokens: 1000 });
    const out = textOf(shortened.parts[0]);
    const [head, rest] = out.split('\n[… ');
    const tail = (rest ?? '').split(']\n')[1] ?? '';
    expect(head?.length ?? 0).toBeGreaterThan(0);
    expect(tail.length).toBeGreaterThan(0);
    // Each flag is two regional indicators (four code units); neither side starts or ends inside one.
    expect((head?.length ?? 0) % 4).toBe(0);
    expect(tail.length % 4).toBe(0);
  });
});

describe('shortenResult on media, parts and structuredContent', () => {
  it('keeps images in order while they fit and lists the rest in the note', () => {
    const image: InlineDataPart = { type: 'inlineData', mimeType: 'image/png', data: PNG_1X1, source: 'image' };
    const result: BudgetResult = {
      parts: [{ type: 'text', text: 'Screenshots of every page:' }, ...Array.from({ length: 200 }, () => image)],
    };
    const shortened = shortenResult(result, { budgetTokens: 5000 });
    expectWithinBudget(shortened, 5000);
    expect(textOf(shortened.parts[0])).toBe('Screenshots of every page:');
    const kept = shortened.parts.filter((part) => part.type === 'inlineData');
    expect(kept.length).toBeGreaterThan(5);
    expect(shortened.omitted.media).toBe(200 - kept.length);
    expect(shortened.note).toContain(`${200 - kept.length} files left out: image (image/png, 70 bytes)`);
  });

  it('handles 100,000 text parts and 20,000 media parts in one result', () => {
    const parts: ContentPart[] = [];
    for (let index = 0; index < 100_000; index++) parts.push({ type: 'text', text: `part ${index}` });
    for (let index = 0; index < 20_000; index++)
      parts.push({ type: 'inlineData', mimeType: 'audio/wav', data: 'UklGRg==', source: 'audio' });
    const shortened = shortenResult({ parts }, { budgetTokens: 2000 });
    expectWithinBudget(shortened, 2000);
    expect(shortened.parts.length).toBeLessThan(2000);
    expect(textOf(shortened.parts[0]).startsWith('part 0\npart 1\n')).toBe(true);
  });

  it('summarises structuredContent into a valid object, counted against the budget when the model is sent it', () => {
    const structuredContent = { items: issues(4000), total: 4000 };
    const result = textResult(JSON.stringify(structuredContent), { structuredContent });
    const shortened = shortenResult(result, { budgetTokens: 4000, countStructuredContent: true });
    expectWithinBudget(shortened, 4000);
    expect(estimateResultTokens(shortened, { countStructuredContent: true }).total).toBeLessThanOrEqual(4000);
    const summary = shortened.structuredContent as { items: unknown[]; total: number };
    expect(summary.total).toBe(4000);
    expect(summary.items.at(-1)).toMatch(/^\[… [\d,]+ more items\]$/);
    // Not counted: summarised all the same (a UI or a bridge may pass it on), and the text gets the room.
    const uncounted = shortenResult(result, { budgetTokens: 4000 });
    expect(JSON.stringify(uncounted.structuredContent).length).toBeLessThan(JSON.stringify(structuredContent).length / 10);
  });

  it('summarises a structuredContent nested 100,000 levels deep or circular, and still gives its text', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let level = 0; level < 100_000; level++) {
      const next: Record<string, unknown> = {};
      cursor['next'] = next;
      cursor = next;
    }
    cursor['end'] = 'x'.repeat(200_000);
    expect(resultText({ parts: [], structuredContent: deep }).length).toBeGreaterThan(800_000);
    const shortened = shortenResult({ parts: [], structuredContent: deep }, { budgetTokens: 1000, countStructuredContent: true });
    expectWithinBudget(shortened, 1000);
    expect(JSON.stringify(shortened.structuredContent)).toMatch(/nested too deep to show/);

    const circular: Record<string, unknown> = { name: 'loop', payload: 'y'.repeat(100_000) };
    circular['self'] = circular;
    const looped = shortenResult({ parts: [], structuredContent: circular }, { budgetTokens: 1000, countStructuredContent: true });
    expect(JSON.stringify(looped.structuredContent)).toContain('[… circular reference]');
  });

  it('meets the budget as a real tokenizer counts it, when given that tokenizer', () => {
    const o200k = getEncoding('o200k_base');
    const estimator = createTokenEstimator({ vendor: 'openai', countTextTokens: (text) => o200k.encode(text).length });
    const shortened = shortenResult(textResult(JSON.stringify({ items: issues(1500) })), { budgetTokens: 3000, estimator });
    expect(shortened.tokens).toBeLessThanOrEqual(3000);
    const real = shortened.parts.reduce((sum, part) => sum + (part.type === 'text' ? o200k.encode(part.text).length : 0), 0);
    expect(real).toBeLessThanOrEqual(3000);
    expect(real).toBeGreaterThan(2000);
  });

  it('writes the tool name and reason into the note without control characters', () => {
    const shortened = shortenResult(textResult('z'.repeat(100_000)), {
      budgetTokens: 1000,
      toolName: 'evil\u001b[2J\u202e',
      notStoredReason: 'it is too large to keep',
    });
    expect(shortened.note).not.toContain('\u001b');
    expect(shortened.note).not.toContain('\u202e');
    expect(shortened.note).toContain('The full result was not kept (it is too large to keep), so it cannot be read back');
  });
});
