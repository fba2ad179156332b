import { completeArgument, type CompletionSuggestions } from './client-features/complete-argument.js';
import { promptCommands } from './command-lists.js';
import type { HostCore } from './host-core.js';
import type { PromptCommand, PromptResult } from './prompt-command.js';
import { fetchPrompt, findPromptCommand } from './prompt-commands.js';
import type { RequestOptions } from './request-options.js';

/** `host.prompts`: the servers' MCP prompts, each also a slash command. */
export class HostPrompts {
  readonly #core: HostCore;

  /** @internal */
  constructor(core: HostCore) {
    this.#core = core;
  }

  /** Every prompt as a slash command, sorted by name (unique across servers and built-in commands). */
  list(): PromptCommand[] {
    return promptCommands(this.#core.manager).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Fetch a prompt with its argument values (`prompts/get`): its text is ready for the model.
   *
   * @throws HostError `COMMAND_NOT_FOUND`, `MISSING_PROMPT_ARGUMENTS`, `SERVER_NOT_CONNECTED`, `REQUEST_FAILED`, `INVALID_RESPONSE`.
   */
  async get(
    params: { readonly name: string; readonly arguments?: Readonly<Record<string, string>> },
    options: RequestOptions = {},
  ): Promise<PromptResult> {
    this.#core.assertOpen();
    const command = findPromptCommand(promptCommands(this.#core.manager), params.name);
    await this.#core.resume(command.serverName);
    return fetchPrompt({
      command,
      values: params.arguments ?? {},
      client: this.#core.manager.getClient(command.serverName),
      signal: options.signal,
    });
  }

  /**
   * Suggestions for one argument of a prompt (`completion/complete`), given what the user typed
   * so far and the arguments already given. No suggestions when the server offers no completions.
   *
   * @throws HostError `COMMAND_NOT_FOUND`; `SERVER_NOT_CONNECTED` when the prompt's server is not connected.
   */
  async complete(
    params: {
      /** The prompt's slash command name (`poem-writer`). */
      readonly name: string;
      /** The argument being typed. */
      readonly argument: string;
      /** What the user typed so far. */
      readonly value: string;
      /** Arguments already given. */
      readonly context?: Readonly<Record<string, string>>;
    },
    options: RequestOptions = {},
  ): Promise<CompletionSuggestions> {
    this.#core.assertOpen();
    const command = findPromptCommand(promptCommands(this.#core.manager), params.name);
    await this.#core.resume(command.serverName);
    return completeArgument(this.#core.requireClient(command.serverName, `complete /${command.name}`), {
      ref: { type: 'prompt', name: command.promptName },
      argument: params.argument,
      value: params.value,
      ...(params.context && Object.keys(params.context).length > 0 ? { context: params.context } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}
