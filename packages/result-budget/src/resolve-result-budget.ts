import { escapeControlText } from '@toolhost/contract';
import { ResultBudgetError } from './result-budget-error.js';
import { MIN_RESULT_BUDGET_TOKENS } from './shorten-result.js';

/**
 * The budget of one tool result when nothing else is set: 25,000 tokens, Claude Code's default
 * maximum for an MCP tool result (`MAX_MCP_OUTPUT_TOKENS`, https://code.claude.com/docs/en/mcp,
 * "MCP output limits and warnings"). It is 12.5% of a 200,000-token context (Claude), under 20% of a
 * 128,000-token one (GPT-4o, most open models) and 2.5% of Gemini's million: several results fit
 * in one turn on all of them. For a smaller window use {@link resultBudgetForContextWindow}.
 */
export const DEFAULT_RESULT_BUDGET_TOKENS = 25_000;

/** Above this many tokens a result is worth a warning: 10,000, where Claude Code warns. */
export const DEFAULT_RESULT_WARNING_TOKENS = 10_000;

/**
 * The most a server's size hint may raise a budget to, by default: 50,000 tokens, twice the
 * default and under 40% of a 128,000-token context, so a server cannot flood the context by
 * declaring a huge size. The application's own overrides are not bound by it.
 */
export const DEFAULT_RESULT_BUDGET_CEILING_TOKENS = 50_000;

/** The `_meta` key of a tool (in `tools/list`) by which Anthropic's clients let a server raise its result size, in characters. */
export const ANTHROPIC_MAX_RESULT_SIZE_CHARS_KEY = 'anthropic/maxResultSizeChars';

/** toolhost's own `_meta` key for the same hint, in tokens. */
export const MAX_RESULT_TOKENS_META_KEY = 'toolhost/maxResultTokens';

/** Characters per token when a hint is given in characters (Gemini's documented rule of thumb: about 4). */
const CHARACTERS_PER_TOKEN = 4;

/** Where a resolved budget came from. */
export type ResultBudgetSource = 'default' | 'server' | 'tool' | 'server-hint';

/** What {@link resolveResultBudget} combines. */
export interface ResolveResultBudgetOptions {
  /** The application's default. @default DEFAULT_RESULT_BUDGET_TOKENS */
  readonly defaultTokens?: number | undefined;
  /** The application's override for every tool of this server (from its settings). */
  readonly serverTokens?: number | undefined;
  /** The application's override for this tool (from its settings); wins over `serverTokens`. */
  readonly toolTokens?: number | undefined;
  /**
   * The tool's `_meta` from `tools/list`, as the server sent it (hostile: read defensively). Its
   * `toolhost/maxResultTokens` (tokens) or `anthropic/maxResultSizeChars` (characters, 4 a token)
   * may raise the budget, never above `ceilingTokens`, and never lower it.
   */
  readonly toolMeta?: unknown;
  /** The most a server's hint may raise the budget to. @default DEFAULT_RESULT_BUDGET_CEILING_TOKENS */
  readonly ceilingTokens?: number | undefined;
  /** Where the warning threshold sits. @default DEFAULT_RESULT_WARNING_TOKENS (or the budget, when lower) */
  readonly warningTokens?: number | undefined;
  /** The server's name, for error messages. */
  readonly serverName?: string | undefined;
  /** The tool's name, for error messages. */
  readonly toolName?: string | undefined;
}

/** A resolved result budget. */
export interface ResolvedResultBudget {
  /** Most tokens the model gets for one result of this tool. */
  readonly budgetTokens: number;
  /** Above this many tokens (of the result as it came) a host warns. */
  readonly warningTokens: number;
  /** Which setting decided `budgetTokens`. */
  readonly source: ResultBudgetSource;
  /** The server's hint, when it sent a usable one: what it asked for (tokens) and whether the ceiling cut it. */
  readonly hint?: { readonly key: string; readonly askedTokens: number; readonly capped: boolean };
  /** Why a hint the server sent was not used (not a positive number), for a log line. */
  readonly ignoredHint?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkSetting(field: string, value: number | undefined, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_RESULT_BUDGET_TOKENS) {
    throw new ResultBudgetError({
      code: 'INVALID_OPTIONS',
      message: `Result budget${where}: ${field} must be a whole number of tokens, at least ${MIN_RESULT_BUDGET_TOKENS}; got ${escapeControlText(String(value), { maxLength: 40 })}.`,
    });
  }
  return value;
}

/** The server's hint in tokens, or why it was ignored. */
function readHint(meta: unknown): { key: string; tokens: number } | { ignored: string } | undefined {
  if (!isRecord(meta)) return undefined;
  // Own properties only: a hostile `_meta` cannot reach an inherited value.
  const own = (key: string): unknown => (Object.prototype.hasOwnProperty.call(meta, key) ? meta[key] : undefined);
  for (const [key, perToken] of [
    [MAX_RESULT_TOKENS_META_KEY, 1],
    [ANTHROPIC_MAX_RESULT_SIZE_CHARS_KEY, CHARACTERS_PER_TOKEN],
  ] as const) {
    const value = own(key);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      return {
        ignored: `_meta["${key}"] is not a positive number (${escapeControlText(JSON.stringify(value) ?? String(value), { maxLength: 40 })})`,
      };
    }
    return { key, tokens: Math.floor(value / perToken) };
  }
  return undefined;
}

/**
 * The budget of one tool's results: the application's per-tool override, else its per-server
 * override, else its default, which the server's `_meta` hint on the tool may raise (its own
 * `toolhost/maxResultTokens`, or Anthropic's `anthropic/maxResultSizeChars` at 4 characters a token)
 * up to `ceilingTokens` and never lower. A hint that is not a positive number is ignored (and said
 * so in `ignoredHint`). The application's settings are checked: each must be a whole number of at
 * least 1,000 tokens (`INVALID_OPTIONS`, naming the server and tool).
 *
 * @example
 * ```ts
 * resolveResultBudget({ toolMeta: { 'anthropic/maxResultSizeChars': 500_000 } });
 * // { budgetTokens: 50000, warningTokens: 10000, source: 'server-hint', hint: { key: 'anthropic/maxResultSizeChars', askedTokens: 125000, capped: true } }
 * ```
 */
export function resolveResultBudget(options: ResolveResultBudgetOptions = {}): ResolvedResultBudget {
  const where =
    options.serverName === undefined && options.toolName === undefined
      ? ''
      : ` of ${[options.serverName === undefined ? '' : `server '${escapeControlText(options.serverName, { maxLength: 80 })}'`, options.toolName === undefined ? '' : `tool '${escapeControlText(options.toolName, { maxLength: 80 })}'`].filter(Boolean).join(', ')}`;
  const defaultTokens = checkSetting('defaultTokens', options.defaultTokens, where) ?? DEFAULT_RESULT_BUDGET_TOKENS;
  const serverTokens = checkSetting('serverTokens', options.serverTokens, where);
  const toolTokens = checkSetting('toolTokens', options.toolTokens, where);
  const ceiling =
    checkSetting('ceilingTokens', options.ceilingTokens, where) ?? Math.max(DEFAULT_RESULT_BUDGET_CEILING_TOKENS, defaultTokens);
  const warningFor = (budget: number): number => Math.min(budget, options.warningTokens ?? DEFAULT_RESULT_WARNING_TOKENS);
  if (toolTokens !== undefined) return { budgetTokens: toolTokens, warningTokens: warningFor(toolTokens), source: 'tool' };
  if (serverTokens !== undefined) return { budgetTokens: serverTokens, warningTokens: warningFor(serverTokens), source: 'server' };
  const hint = readHint(options.toolMeta);
  if (hint !== undefined && 'tokens' in hint && hint.tokens > defaultTokens) {
    const budgetTokens = Math.max(defaultTokens, Math.min(hint.tokens, ceiling));
    return {
      budgetTokens,
      warningTokens: warningFor(budgetTokens),
      source: 'server-hint',
      hint: { key: hint.key, askedTokens: hint.tokens, capped: hint.tokens > ceiling },
    };
  }
  return {
    budgetTokens: defaultTokens,
    warningTokens: warningFor(defaultTokens),
    source: 'default',
    ...(hint !== undefined && 'ignored' in hint ? { ignoredHint: hint.ignored } : {}),
  };
}

/**
 * Budgets that fit a model's context window: an eighth of it per result (at most the default of
 * 25,000 tokens, at least 1,000), a ceiling for servers' hints of a quarter of it (at most 50,000),
 * and the warning at 40% of the budget.
 *
 * @example
 * ```ts
 * resultBudgetForContextWindow(32_768); // { defaultTokens: 4096, ceilingTokens: 8192, warningTokens: 1638 }
 * ```
 */
export function resultBudgetForContextWindow(contextTokens: number): {
  defaultTokens: number;
  ceilingTokens: number;
  warningTokens: number;
} {
  if (typeof contextTokens !== 'number' || !Number.isFinite(contextTokens) || contextTokens <= 0) {
    throw new ResultBudgetError({
      code: 'INVALID_OPTIONS',
      message: `resultBudgetForContextWindow: contextTokens must be a positive number; got ${String(contextTokens)}.`,
    });
  }
  const defaultTokens = Math.max(MIN_RESULT_BUDGET_TOKENS, Math.min(DEFAULT_RESULT_BUDGET_TOKENS, Math.floor(contextTokens / 8)));
  const ceilingTokens = Math.max(defaultTokens, Math.min(DEFAULT_RESULT_BUDGET_CEILING_TOKENS, Math.floor(contextTokens / 4)));
  return { defaultTokens, ceilingTokens, warningTokens: Math.min(DEFAULT_RESULT_WARNING_TOKENS, Math.floor(defaultTokens * 0.4)) };
}
