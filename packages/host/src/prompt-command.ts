/** An MCP prompt offered as a slash command. */
export interface PromptCommand {
  /** Slash command name, unique across servers and built-ins (`poem-writer`, or `other__poem-writer` on a clash). */
  readonly name: string;
  /** The server that provides the prompt. */
  readonly serverName: string;
  /** The prompt's own name on its server (used for `prompts/get`). */
  readonly promptName: string;
  /** Display title, when the server gives one. */
  readonly title?: string;
  /** The prompt's description. */
  readonly description: string;
  /** The prompt's arguments. */
  readonly arguments: ReadonlyArray<{
    /** Argument name, used as `--name=value`. */
    readonly name: string;
    /** What the argument is for. */
    readonly description?: string;
    /** Whether the prompt needs it. */
    readonly required?: boolean;
  }>;
  /** True when the prompt takes no arguments, so a UI may run it as soon as it is chosen. */
  readonly autoExecute: boolean;
}

/** A prompt fetched with `prompts/get` (`host.prompts.get`, or a prompt slash command), ready for the model. */
export interface PromptResult {
  /** A prompt was fetched with `prompts/get`: `text` is ready to send to the model. */
  readonly kind: 'prompt';
  /** The command that ran. */
  readonly commandName: string;
  /** The server that provided the prompt. */
  readonly serverName: string;
  /** The prompt's own name on its server. */
  readonly promptName: string;
  /** The argument values sent to the server. */
  readonly arguments: Readonly<Record<string, string>>;
  /** The prompt text for the model: the text of every message, joined by blank lines. */
  readonly text: string;
  /** The server's messages as returned, for hosts that replay them as separate turns. */
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: unknown }[];
}
