import type { ConnectionClient, GetPromptResult } from '@toolhost/connection';
import { escapeControlText } from '@toolhost/contract';
import type { RegisteredPrompt } from '@toolhost/discovery';
import { HostError } from './host-error.js';
import { parsePromptArguments } from './parse-prompt-arguments.js';
import type { PromptCommand, PromptResult } from './prompt-command.js';

/** Timeout of `prompts/get`, as in Gemini CLI (the SDK default). */
export const PROMPT_TIMEOUT_MS = 60_000;

/**
 * Turn the registered prompts into slash commands. Prompt names were made unique across
 * servers by discovery (like tool names); a prompt that would shadow a built-in command
 * becomes `serverName.name` (then `serverName.name2`, ...).
 */
export function buildPromptCommands(prompts: readonly RegisteredPrompt[], builtIns: readonly string[]): PromptCommand[] {
  const taken = new Set(builtIns);
  for (const entry of prompts) taken.add(entry.registeredName);
  return prompts.map((entry) => {
    let name = entry.registeredName;
    if (builtIns.includes(name)) {
      const base = `${entry.serverName}.${entry.registeredName}`;
      name = base;
      for (let counter = 2; taken.has(name); counter++) name = `${base}${counter}`;
      taken.add(name);
    }
    const prompt = entry.prompt;
    const args = prompt.arguments ?? [];
    return {
      name,
      serverName: entry.serverName,
      promptName: entry.originalName,
      ...(prompt.title ? { title: prompt.title } : {}),
      description: prompt.description ?? '',
      arguments: args.map((argument) => ({
        name: argument.name,
        ...(argument.description ? { description: argument.description } : {}),
        required: argument.required === true,
      })),
      autoExecute: args.length === 0,
    };
  });
}

function promptText(result: GetPromptResult): string {
  const texts: string[] = [];
  for (const message of result.messages) {
    const content = message.content;
    if (content.type === 'text') texts.push(content.text);
    else if (content.type === 'resource' && 'text' in content.resource) texts.push(content.resource.text);
  }
  return texts.join('\n\n');
}

/**
 * The prompt command named `name` (without the slash).
 *
 * @throws HostError `COMMAND_NOT_FOUND`, listing the prompt commands there are.
 */
export function findPromptCommand(commands: readonly PromptCommand[], name: string): PromptCommand {
  const command = commands.find((prompt) => prompt.name === name);
  if (!command) {
    throw new HostError({
      code: 'COMMAND_NOT_FOUND',
      commandName: name,
      message: `No MCP prompt command is named "/${name}". Prompt commands: ${commands.map((prompt) => `/${prompt.name}`).join(', ') || 'none (run discover() first)'}.`,
    });
  }
  return command;
}

/** Options of {@link runPromptCommand}. */
export interface RunPromptCommandOptions {
  /** The command to run. */
  readonly command: PromptCommand;
  /** The argument text after the command name. */
  readonly args: string;
  /** The server's connected client, when it is connected. */
  readonly client: Pick<ConnectionClient, 'getPrompt'> | undefined;
  /** Aborts `prompts/get`. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Parse the arguments of a prompt command line, then {@link fetchPrompt}.
 *
 * @throws HostError `MISSING_PROMPT_ARGUMENTS`, `SERVER_NOT_CONNECTED`, `REQUEST_FAILED` or `INVALID_RESPONSE`.
 */
export function runPromptCommand(options: RunPromptCommandOptions): Promise<PromptResult> {
  const parsed = parsePromptArguments(options.args, options.command.arguments);
  return fetchPrompt({ ...options, values: parsed.values });
}

/** A prompt to get with `prompts/get`: the command, its argument values and its server's client. */
export interface PromptRequestOptions {
  /** The prompt command. */
  readonly command: PromptCommand;
  /** The argument values, by name. */
  readonly values: Readonly<Record<string, string>>;
  /** The server's connected client, when it is connected. */
  readonly client: Pick<ConnectionClient, 'getPrompt'> | undefined;
  /** Aborts `prompts/get`. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * `prompts/get` of a prompt command with these argument values, as the server answers it (no
 * check of the arguments, nor of what the messages hold).
 *
 * @throws HostError `SERVER_NOT_CONNECTED` or `REQUEST_FAILED`.
 */
export async function requestPrompt(options: PromptRequestOptions): Promise<GetPromptResult> {
  const { command, client, values } = options;
  if (!client) {
    throw new HostError({
      code: 'SERVER_NOT_CONNECTED',
      serverName: command.serverName,
      commandName: command.name,
      message: `MCP server "${escapeControlText(command.serverName)}" is not connected, so /${command.name} cannot run. Check the server with /mcp.`,
    });
  }
  try {
    return await client.getPrompt(
      { name: command.promptName, arguments: { ...values } },
      { timeout: PROMPT_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) },
    );
  } catch (error) {
    throw new HostError({
      code: 'REQUEST_FAILED',
      serverName: command.serverName,
      commandName: command.name,
      // The prompt name and the error come from the server: escaped, cut.
      message: `Error invoking prompt "${escapeControlText(command.promptName, { maxLength: 200 })}" of MCP server "${escapeControlText(command.serverName)}": ${escapeControlText(error instanceof Error ? error.message : String(error), { maxLength: 1000 })}`,
      cause: error,
    });
  }
}

/**
 * Check that every required argument has a value, call `prompts/get` and return the prompt text
 * for the model.
 *
 * @throws HostError `MISSING_PROMPT_ARGUMENTS`, `SERVER_NOT_CONNECTED`, `REQUEST_FAILED` or `INVALID_RESPONSE`.
 */
export async function fetchPrompt(options: PromptRequestOptions): Promise<PromptResult> {
  const { command, client, values } = options;
  const missing = command.arguments
    .filter((argument) => argument.required && values[argument.name] === undefined)
    .map((argument) => argument.name);
  if (missing.length > 0) {
    throw new HostError({
      code: 'MISSING_PROMPT_ARGUMENTS',
      serverName: command.serverName,
      commandName: command.name,
      missingArguments: missing,
      message: `Missing required argument(s) for /${command.name}: ${missing.map((name) => `--${escapeControlText(name, { maxLength: 200 })}`).join(', ')}. Example: /${command.name} ${missing.map((name) => `--${escapeControlText(name, { maxLength: 200 })}="..."`).join(' ')}`,
    });
  }
  const result = await requestPrompt({ command, values, client, signal: options.signal });
  const text = promptText(result);
  if (!text) {
    throw new HostError({
      code: 'INVALID_RESPONSE',
      serverName: command.serverName,
      commandName: command.name,
      message: `MCP server "${escapeControlText(command.serverName)}" returned no text for prompt "${escapeControlText(command.promptName, { maxLength: 200 })}"; nothing can be sent to the model.`,
    });
  }
  return {
    kind: 'prompt',
    commandName: command.name,
    serverName: command.serverName,
    promptName: command.promptName,
    arguments: { ...values },
    text,
    messages: result.messages.map((message) => ({ role: message.role, content: message.content })),
  };
}
