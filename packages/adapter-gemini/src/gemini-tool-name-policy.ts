import type { ToolNamePolicy } from '@toolhost/contract';

/**
 * The tool names Gemini accepts for function declarations: a letter or `_` first, then only
 * `a-z A-Z 0-9 _ . : -`, 64 characters at most (`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`).
 * `normalize` turns every other character into `_` and puts `_` in front of a name that does
 * not start with a letter or `_` (`'3d render'` → `'_3d_render'`); it is idempotent. The host
 * names every tool under this policy once, when it registers tools; the Gemini adapter then
 * declares the names it is given and maps nothing back. It is the `toolNames` of every adapter
 * {@link createGeminiAdapter} returns.
 *
 * @example
 * ```ts
 * GEMINI_TOOL_NAME_POLICY.normalize('github/search issues'); // 'github_search_issues'
 * GEMINI_TOOL_NAME_POLICY.normalize('3d-render'); // '_3d-render'
 * ```
 */
export const GEMINI_TOOL_NAME_POLICY: ToolNamePolicy = Object.freeze({
  maxLength: 64,
  normalize(name: string): string {
    const valid = name.replace(/[^a-zA-Z0-9_.:-]/g, '_');
    return /^[a-zA-Z_]/.test(valid) ? valid : `_${valid}`;
  },
});
