import type { PromptCommand } from './prompt-command.js';

/** One argument a prompt declares (from `prompts/list`). */
export type PromptArgumentSpec = PromptCommand['arguments'][number];

/** What {@link parsePromptArguments} found in a slash command's argument text. */
export interface ParsedPromptArguments {
  /** Values by argument name (only arguments the prompt declares). */
  readonly values: Record<string, string>;
  /** Required arguments still without a value, in declaration order. */
  readonly missing: readonly string[];
}

const NAMED = /--([^=\s]+)=(?:"((?:\\.|[^"\\])*)"|(\S+))/g;
const POSITIONAL = /"((?:\\.|[^"\\])*)"|(\S+)/g;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** Split positional text into tokens: `"quoted text"` is one token, `\"` and `\\` are escapes. */
export function tokenizePositional(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(POSITIONAL)) {
    tokens.push(unescape(match[1] ?? match[2] ?? ''));
  }
  return tokens;
}

/**
 * Parse the argument text of a prompt slash command.
 *
 * `--name=value` and `--name="quoted value"` fill arguments by name (empty values and names the
 * prompt does not declare are ignored). The remaining text is split into positional tokens
 * (`"quoted text"` is one token; `\"` and `\\` are escapes) that fill the arguments still
 * without a value: first the required ones, then the optional ones, each group in declaration
 * order; surplus tokens are joined with spaces into the last one. So
 * `/poem-writer "Gemini CLI" reverent` sets `title` and `mood` as the seeds show, and a prompt
 * with a single argument takes the whole text (`/search some words` → `some words`), as in
 * Gemini CLI.
 *
 * @example
 * ```ts
 * parsePromptArguments('"Gemini CLI" --mood=reverent', [{ name: 'title', required: true }, { name: 'mood' }]);
 * // → { values: { mood: 'reverent', title: 'Gemini CLI' }, missing: [] }
 * ```
 */
export function parsePromptArguments(text: string, specs: readonly PromptArgumentSpec[]): ParsedPromptArguments {
  const declared = new Set(specs.map((spec) => spec.name));
  const values: Record<string, string> = {};
  let positionalText = '';
  let last = 0;
  for (const match of text.matchAll(NAMED)) {
    positionalText += `${text.slice(last, match.index)} `;
    last = match.index + match[0].length;
    const name = match[1] ?? '';
    const value = match[2] !== undefined ? unescape(match[2]) : unescape(match[3] ?? '');
    if (declared.has(name) && value) values[name] = value;
  }
  positionalText += text.slice(last);

  const targets = [
    ...specs.filter((spec) => spec.required === true && values[spec.name] === undefined),
    ...specs.filter((spec) => spec.required !== true && values[spec.name] === undefined),
  ];
  const tokens = tokenizePositional(positionalText);
  targets.forEach((spec, index) => {
    const isLast = index === targets.length - 1;
    const value = isLast ? tokens.slice(index).join(' ') : tokens[index];
    if (value) values[spec.name] = value;
  });
  const missing = specs.filter((spec) => spec.required === true && values[spec.name] === undefined).map((spec) => spec.name);
  return { values, missing };
}
