// applyResultBudget end to end, as a host runs it on each result: a 5 MB JSON result reaches the
// model within its budget as valid JSON, and every byte of it is read back page by page.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESULT_BUDGET_TOKENS,
  MemoryResultStore,
  ResultBudgetError,
  applyResultBudget,
  estimateResultTokens,
  readStoredResult,
  resolveResultBudget,
  type BudgetResult,
  type ResultStore,
} from './index.js';

/** A 5 MB JSON result like a search or list tool's: 12,000 issue objects with bodies. */
function fiveMegabyteResult(): string {
  const items = Array.from({ length: 12_000 }, (_, index) => ({
    id: 1_180_591_620_717_411_303_000n + BigInt(index),
    number: index + 1,
    title: `Update the pull request branch ${index} before merging`,
    state: index % 4 === 0 ? 'closed' : 'open',
    user: { login: `dev-${index % 97}`, type: 'User' },
    labels: ['bug', 'needs-triage'].slice(0, (index % 2) + 1),
    body: `Steps to reproduce: run the suite on shard ${index}. Expected all green; got ${index % 7} failures. 日本語のログ 🚀`.repeat(3),
  }));
  // JSON.stringify cannot write BigInt: the ids go in as 22-digit number tokens, as a server would send them.
  return JSON.stringify({ total_count: items.length, items }, (_key, value: unknown) =>
    typeof value === 'bigint' ? `#${value}#` : value,
  ).replace(/"#(\d+)#"/g, '$1');
}

describe('applyResultBudget', () => {
  it('brings a 5 MB JSON result within its budget as valid JSON, and every character back page by page', async () => {
    const text = fiveMegabyteResult();
    expect(text.length).toBeGreaterThan(5_000_000);
    const store = new MemoryResultStore();
    const { budgetTokens } = resolveResultBudget();
    const started = performance.now();
    const budgeted = await applyResultBudget(
      { parts: [{ type: 'text', text }] },
      { budgetTokens, store, toolName: 'search_issues', keptFor: '1 hour' },
    );
    const elapsed = performance.now() - started;

    expect(budgeted.shortened).toBe(true);
    expect(budgeted.tokens).toBeLessThanOrEqual(DEFAULT_RESULT_BUDGET_TOKENS);
    expect(estimateResultTokens(budgeted).total).toBeLessThanOrEqual(DEFAULT_RESULT_BUDGET_TOKENS);
    const shortenedText = budgeted.parts[0]?.type === 'text' ? budgeted.parts[0].text : '';
    const value = JSON.parse(shortenedText) as { total_count: number; items: unknown[] };
    expect(value.total_count).toBe(12_000);
    expect(shortenedText.startsWith('{"total_count":12000,"items":[{"id":1180591620717411303000,')).toBe(true);
    expect(value.items.at(-1)).toMatch(/^\[… [\d,]+ more items\]$/);
    expect(budgeted.note).toContain(
      `"${budgeted.resultId}" for 1 hour: call read_tool_result with {"id":"${budgeted.resultId}","offset":0,"length":40000}`,
    );

    let page = await readStoredResult(store, { id: budgeted.resultId, offset: 0 });
    const pages = [page.text];
    while (page.nextOffset !== undefined) {
      const next: number = page.nextOffset;
      page = await readStoredResult(store, { id: budgeted.resultId, offset: next });
      expect(page.offset).toBe(next);
      pages.push(page.text);
    }
    const back = pages.join('');
    expect(back.length).toBe(text.length);
    expect(back === text).toBe(true);
    console.log(
      `5 MB JSON result: ${text.length} characters, about ${budgeted.originalTokens} tokens -> ${budgeted.tokens} tokens to the model ` +
        `(${budgeted.omitted.items} items left out); ${elapsed.toFixed(0)} ms; ` +
        `read back in ${pages.length} pages of 40,000 characters`,
    );
  });

  it('returns a result within budget untouched, and stores nothing', async () => {
    const store = new MemoryResultStore();
    const result: BudgetResult = { parts: [{ type: 'text', text: '{"ok":true}' }] };
    const budgeted = await applyResultBudget(result, { budgetTokens: 25_000, store });
    expect(budgeted.shortened).toBe(false);
    expect(budgeted.resultId).toBeUndefined();
    expect(budgeted.parts).toEqual(result.parts);
    expect(store.count).toBe(0);
  });

  it('still shortens when the store refuses the result, saying why in the note and in storeError', async () => {
    const tooSmall = new MemoryResultStore({ maxEntryBytes: 10_000 });
    const big: BudgetResult = { parts: [{ type: 'text', text: 'w'.repeat(500_000) }] };
    const refused = await applyResultBudget(big, { budgetTokens: 2000, store: tooSmall });
    expect(refused.shortened).toBe(true);
    expect(refused.resultId).toBeUndefined();
    expect(refused.storeError?.code).toBe('RESULT_TOO_LARGE');
    expect(refused.note).toContain('The full result was not kept (it is too large to keep), so it cannot be read back');

    const broken: ResultStore = {
      put: () => Promise.reject(new Error('disk full: /secret/path')),
      get: () => Promise.resolve(undefined),
      delete: () => Promise.resolve(false),
    };
    const failed = await applyResultBudget(big, { budgetTokens: 2000, store: broken });
    expect(ResultBudgetError.isInstance(failed.storeError) && failed.storeError.code === 'STORE_FAILED').toBe(true);
    expect(failed.note).toContain('(the result store failed)');
    expect(failed.note).not.toContain('/secret/path');

    const none = await applyResultBudget(big, { budgetTokens: 2000 });
    expect(none.note).toContain('(no result store is set up)');
  });

  it('checks the budget before storing anything', async () => {
    const store = new MemoryResultStore();
    await expect(
      applyResultBudget({ parts: [{ type: 'text', text: 'x'.repeat(100_000) }] }, { budgetTokens: 10, store }),
    ).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
    });
    expect(store.count).toBe(0);
  });
});
