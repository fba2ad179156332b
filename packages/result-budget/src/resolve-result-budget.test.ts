// Which budget a tool's results get: the application's overrides, a server's _meta hint (bounded
// by the host's ceiling, whatever a hostile server asks), the default.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESULT_BUDGET_CEILING_TOKENS,
  DEFAULT_RESULT_BUDGET_TOKENS,
  DEFAULT_RESULT_WARNING_TOKENS,
  resolveResultBudget,
  resultBudgetForContextWindow,
} from './index.js';

describe('resolveResultBudget', () => {
  it('defaults to 25,000 tokens with the warning at 10,000 (where Claude Code caps and warns)', () => {
    expect(DEFAULT_RESULT_BUDGET_TOKENS).toBe(25_000);
    expect(DEFAULT_RESULT_WARNING_TOKENS).toBe(10_000);
    expect(resolveResultBudget()).toEqual({ budgetTokens: 25_000, warningTokens: 10_000, source: 'default' });
    expect(resolveResultBudget({ defaultTokens: 8000 })).toEqual({ budgetTokens: 8000, warningTokens: 8000, source: 'default' });
  });

  it('lets the per-tool override win over the per-server one, and both over a server hint', () => {
    const toolMeta = { 'anthropic/maxResultSizeChars': 200_000 };
    expect(resolveResultBudget({ serverTokens: 5000, toolTokens: 60_000, toolMeta })).toEqual({
      budgetTokens: 60_000,
      warningTokens: 10_000,
      source: 'tool',
    });
    expect(resolveResultBudget({ serverTokens: 5000, toolMeta })).toEqual({ budgetTokens: 5000, warningTokens: 5000, source: 'server' });
  });

  it("honours Anthropic's maxResultSizeChars (4 characters a token) and toolhost's own key, up to the ceiling", () => {
    expect(resolveResultBudget({ toolMeta: { 'anthropic/maxResultSizeChars': 160_000 } })).toEqual({
      budgetTokens: 40_000,
      warningTokens: 10_000,
      source: 'server-hint',
      hint: { key: 'anthropic/maxResultSizeChars', askedTokens: 40_000, capped: false },
    });
    expect(resolveResultBudget({ toolMeta: { 'toolhost/maxResultTokens': 30_000 } })).toMatchObject({
      budgetTokens: 30_000,
      source: 'server-hint',
    });
  });

  it('never lets a hostile server raise the budget past the ceiling, nor lower it', () => {
    expect(resolveResultBudget({ toolMeta: { 'anthropic/maxResultSizeChars': 1e15 } })).toMatchObject({
      budgetTokens: DEFAULT_RESULT_BUDGET_CEILING_TOKENS,
      hint: { capped: true },
    });
    expect(resolveResultBudget({ toolMeta: { 'toolhost/maxResultTokens': 1e9 }, ceilingTokens: 30_000 })).toMatchObject({
      budgetTokens: 30_000,
    });
    expect(resolveResultBudget({ toolMeta: { 'toolhost/maxResultTokens': 10 } })).toEqual({
      budgetTokens: 25_000,
      warningTokens: 10_000,
      source: 'default',
    });
    // A ceiling below the default never pulls a hinted budget under the default.
    expect(resolveResultBudget({ toolMeta: { 'toolhost/maxResultTokens': 40_000 }, ceilingTokens: 2000 })).toMatchObject({
      budgetTokens: 25_000,
    });
  });

  it('ignores hints that are not positive numbers, inherited ones, and _meta that is not an object', () => {
    for (const value of ['500000', Number.NaN, Number.POSITIVE_INFINITY, -1, 0, null, { valueOf: () => 1e6 }, [1e6]]) {
      const resolved = resolveResultBudget({ toolMeta: { 'anthropic/maxResultSizeChars': value } });
      expect(resolved.budgetTokens).toBe(25_000);
      expect(resolved.ignoredHint).toMatch(/^_meta\["anthropic\/maxResultSizeChars"\] is not a positive number/);
    }
    const inherited = Object.create({ 'toolhost/maxResultTokens': 50_000 }) as object;
    expect(resolveResultBudget({ toolMeta: inherited })).toEqual({ budgetTokens: 25_000, warningTokens: 10_000, source: 'default' });
    for (const toolMeta of [null, 'big', 42, [{ 'toolhost/maxResultTokens': 50_000 }]]) {
      expect(resolveResultBudget({ toolMeta }).source).toBe('default');
    }
  });

  it("rejects the application's own settings when they are not whole numbers of at least 1,000 tokens, naming server and tool", () => {
    expect(() => resolveResultBudget({ toolTokens: 500, serverName: 'github', toolName: 'search\u001b' })).toThrow(
      /^Result budget of server 'github', tool 'search\\u001b': toolTokens must be a whole number of tokens, at least 1000; got 500\.$/,
    );
    expect(() => resolveResultBudget({ serverTokens: 1.5e3 + 0.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => resolveResultBudget({ defaultTokens: Number.NaN })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describe('resultBudgetForContextWindow', () => {
  it('gives an eighth of the window per result (at most 25,000), a quarter as the ceiling (at most 50,000)', () => {
    expect(resultBudgetForContextWindow(32_768)).toEqual({ defaultTokens: 4096, ceilingTokens: 8192, warningTokens: 1638 });
    expect(resultBudgetForContextWindow(128_000)).toEqual({ defaultTokens: 16_000, ceilingTokens: 32_000, warningTokens: 6400 });
    expect(resultBudgetForContextWindow(1_000_000)).toEqual({ defaultTokens: 25_000, ceilingTokens: 50_000, warningTokens: 10_000 });
    expect(resultBudgetForContextWindow(4000)).toEqual({ defaultTokens: 1000, ceilingTokens: 1000, warningTokens: 400 });
    expect(() => resultBudgetForContextWindow(0)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
