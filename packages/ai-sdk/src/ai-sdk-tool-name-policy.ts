import type { ToolNamePolicy } from '@toolhost/contract';

/**
 * Tool names every AI SDK provider accepts: only `a-z A-Z 0-9 _ -` (OpenAI and Anthropic reject
 * dots), starting with a letter or `_` (Gemini's rule), at most 63 characters (Gemini CLI's
 * limit, under OpenAI's and Anthropic's 64). `normalize` turns every other character into `_` and
 * puts `_` before a name that starts otherwise; it is idempotent. It is the `toolNames` of
 * {@link createAiSdkAdapter}: create the host with that adapter and every tool of
 * `createAiSdkTools` has a name the model's provider takes.
 *
 * @example
 * ```ts
 * AI_SDK_TOOL_NAME_POLICY.normalize('docs.search'); // 'docs_search'
 * AI_SDK_TOOL_NAME_POLICY.normalize('3d-render'); // '_3d-render'
 * ```
 */
export const AI_SDK_TOOL_NAME_POLICY: ToolNamePolicy = Object.freeze({
  maxLength: 63,
  normalize: (name: string): string => {
    const valid = name.replace(/[^a-zA-Z0-9_-]/g, '_');
    return /^[a-zA-Z_]/.test(valid) ? valid : `_${valid}`;
  },
});
