import type { ToolNamePolicy } from '@toolhost/contract';

/**
 * The tool names OpenAI accepts for function tools, in Chat Completions and the Responses API
 * alike: only `a-z A-Z 0-9 _ -`, 1 to 64 characters (`^[a-zA-Z0-9_-]{1,64}$`; no dots, unlike
 * the host's default names). `normalize` turns every other character into `_` (and an empty name
 * into `_`); it is idempotent. The host names every tool under this policy once, when it
 * registers tools; the OpenAI adapters then declare the names they are given and map nothing
 * back. It is the `toolNames` of every adapter {@link createOpenAIChatAdapter} and
 * {@link createOpenAIResponsesAdapter} return.
 *
 * @example
 * ```ts
 * OPENAI_TOOL_NAME_POLICY.normalize('docs.search'); // 'docs_search'
 * ```
 */
export const OPENAI_TOOL_NAME_POLICY: ToolNamePolicy = Object.freeze({
  maxLength: 64,
  normalize: (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_') || '_',
});
