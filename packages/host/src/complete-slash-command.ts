import type { CompletionSuggestions } from './client-features/complete-argument.js';
import type { PromptArgumentSpec } from './parse-prompt-arguments.js';
import { tokenizePositional } from './parse-prompt-arguments.js';

/** The argument being typed at the end of a prompt slash command line. */
export type SlashCommandArgumentPosition = Omit<SlashCommandCompletion, keyof CompletionSuggestions>;

/** Suggestions for the argument being typed in a slash command line, and where it is. */
export interface SlashCommandCompletion extends CompletionSuggestions {
  /** The slash command name (`poem-writer`). */
  readonly commandName: string;
  /** The prompt argument being typed. */
  readonly argument: string;
  /** What has been typed of its value so far (without an opening quote). */
  readonly value: string;
  /** Offset in the line where that value starts, so a UI can replace it with a suggestion. */
  readonly valueStart: number;
  /** Arguments already given earlier in the line (sent as the completion `context`). */
  readonly context: Readonly<Record<string, string>>;
}

const NAMED = /--([^=\s]+)=(?:"((?:\\.|[^"\\])*)"|(\S+))/g;
// `--name=` at the end of the line, its value unquoted or with an opening quote not yet closed.
const TYPING_NAMED = /(?:^|\s)--([^=\s]+)=("?)((?:\\.|[^"\\\s])*|(?<=")(?:\\.|[^"\\])*)$/;
const TYPING_POSITIONAL = /(?:^|\s)("?)((?:\\.|[^"\\\s])*|(?<=")(?:\\.|[^"\\])*)$/;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/**
 * Find which prompt argument is being typed at the end of a slash command line, and what has
 * been typed of it: `/poem-writer --mood=rev` → `mood`, `rev`; `/poem-writer "Gemini CLI" r` →
 * the second positional argument (arguments fill in the order `parsePromptArguments` uses:
 * required first, then optional). Undefined when the line has no argument text yet (no space
 * after the name), names an argument the prompt does not declare, or every argument is given.
 */
export function findArgumentPosition(options: {
  readonly line: string;
  readonly commandName: string;
  readonly arguments: readonly PromptArgumentSpec[];
}): SlashCommandArgumentPosition | undefined {
  const { line, commandName } = options;
  const head = /^\s*\/\S+\s/.exec(line);
  if (!head) return undefined;
  const text = line.slice(head[0].length);
  const offset = head[0].length;
  const declared = new Set(options.arguments.map((spec) => spec.name));
  const named = TYPING_NAMED.exec(text);
  const typing = named ?? TYPING_POSITIONAL.exec(text);
  if (!typing) return undefined;
  const typed = named ? (typing[3] ?? '') : (typing[2] ?? '');
  const quoted = (named ? typing[2] : typing[1]) === '"';
  const valueStart = offset + text.length - typed.length;
  const before = text.slice(0, text.length - typed.length - (quoted ? 1 : 0) - (named ? `--${named[1] ?? ''}=`.length : 0));

  const context: Record<string, string> = {};
  let positionalText = '';
  let last = 0;
  for (const match of before.matchAll(NAMED)) {
    positionalText += `${before.slice(last, match.index)} `;
    last = match.index + match[0].length;
    const name = match[1] ?? '';
    const value = unescape(match[2] ?? match[3] ?? '');
    if (declared.has(name) && value) context[name] = value;
  }
  positionalText += before.slice(last);

  let argument: string | undefined;
  if (named) {
    argument = declared.has(named[1] ?? '') ? named[1] : undefined;
  } else {
    const targets = [
      ...options.arguments.filter((spec) => spec.required === true && context[spec.name] === undefined),
      ...options.arguments.filter((spec) => spec.required !== true && context[spec.name] === undefined),
    ];
    const tokens = tokenizePositional(positionalText);
    tokens.forEach((token, index) => {
      const target = targets[index];
      if (target) context[target.name] = token;
    });
    argument = targets[tokens.length]?.name;
  }
  if (argument === undefined) return undefined;
  delete context[argument];
  return { commandName, argument, value: unescape(typed), valueStart, context };
}
