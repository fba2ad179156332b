import type { ConnectionClient } from '@toolhost/connection';

/** Options of {@link completeArgument}. */
export interface CompleteArgumentOptions {
  /** What is being completed: a prompt (by name) or a resource template (by URI template). */
  readonly ref: { readonly type: 'prompt'; readonly name: string } | { readonly type: 'resource'; readonly uri: string };
  /** The argument being typed. */
  readonly argument: string;
  /** What the user has typed so far. */
  readonly value: string;
  /** Arguments already given (2025-06-18 `context.arguments`), so later choices can depend on them. */
  readonly context?: Readonly<Record<string, string>>;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** Suggestions for an argument. */
export interface CompletionSuggestions {
  /** Suggested values (at most 100, per the spec). */
  readonly values: string[];
  /** Total number of matches, when the server says. */
  readonly total?: number;
  /** True when there are more matches than `values`. */
  readonly hasMore: boolean;
}

/**
 * `completion/complete` for a prompt or resource-template argument, so a host can complete
 * slash-command arguments. Returns no suggestions (never throws) when the server has no
 * `completions` capability.
 */
export async function completeArgument(
  client: Pick<ConnectionClient, 'getServerCapabilities' | 'complete'>,
  options: CompleteArgumentOptions,
): Promise<CompletionSuggestions> {
  if (!client.getServerCapabilities()?.completions) return { values: [], hasMore: false };
  const ref =
    options.ref.type === 'prompt'
      ? { type: 'ref/prompt' as const, name: options.ref.name }
      : { type: 'ref/resource' as const, uri: options.ref.uri };
  const result = await client.complete(
    {
      ref,
      argument: { name: options.argument, value: options.value },
      ...(options.context ? { context: { arguments: { ...options.context } } } : {}),
    },
    options.signal ? { signal: options.signal } : {},
  );
  const { values, total, hasMore } = result.completion;
  return { values, hasMore: hasMore ?? false, ...(total !== undefined ? { total } : {}) };
}
