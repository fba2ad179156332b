import type { CallToolResult, GetPromptResult } from '@toolhost/connection';
import { escapeControlText } from '@toolhost/contract';
import type { PromptCommand } from '../prompt-command.js';
import {
  cleanLine as clean,
  contentResult,
  cutText,
  errorText,
  hostTool,
  listingTool,
  mediaItem,
  READ_ONLY_ANNOTATIONS,
  textResult as text,
  truncationMarker,
  type HostProvidedTool,
  type HostToolContent,
} from './host-provided-tool.js';

/** Name of the host tool that lists the servers' prompts. */
export const LIST_PROMPTS_TOOL_NAME = 'list_mcp_prompts';
/** Name of the host tool that gets one prompt, rendered for the model. */
export const GET_PROMPT_TOOL_NAME = 'get_mcp_prompt';

/** Default cap of the text of one prompt (or prompt list) given to the model, and of one image or audio item's base64. */
export const DEFAULT_PROMPT_TOOL_MAX_LENGTH = 500_000;

/** Options of the `promptTools` host option. */
export interface PromptToolsOptions {
  /**
   * Longest text the model gets from one `get_mcp_prompt` (all its messages together) or
   * `list_mcp_prompts` call, in characters, and longest image or audio item, in base64
   * characters; longer text is cut with a visible marker, a larger image or audio item is
   * replaced by a note. @default 500000
   */
  readonly maxLength?: number;
}

/** What the prompt tools need from the host. */
export interface PromptToolsDeps {
  /** The prompts the connected servers list. */
  list(): PromptCommand[];
  /** `prompts/get` on the prompt's server. */
  get(command: PromptCommand, values: Readonly<Record<string, string>>, signal: AbortSignal | undefined): Promise<GetPromptResult>;
}

type PromptContent = GetPromptResult['messages'][number]['content'];

/** The `arguments` schema the model is told: `{ name, value }` pairs (strict-mode schemas cannot express a free-form map). */
const ARGUMENT_PAIRS = {
  type: 'array',
  description: "The prompt's arguments as `{ name, value }` pairs; every value is a string.",
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The argument name, as list_mcp_prompts shows it.' },
      value: { type: 'string', description: 'The argument value.' },
    },
    required: ['name', 'value'],
  },
} as const;

/** The two prompt tools, by name. */
export function createPromptTools(deps: PromptToolsDeps, options: PromptToolsOptions = {}): Map<string, HostProvidedTool> {
  const maxLength = options.maxLength ?? DEFAULT_PROMPT_TOOL_MAX_LENGTH;
  const list = listingTool({
    name: LIST_PROMPTS_TOOL_NAME,
    description:
      'Lists the prompts (reusable instructions) the connected MCP servers offer, as `<server>:<name> | <title> | <description>` lines, each followed by its arguments.',
    kind: 'Prompts',
    items: () => deps.list(),
    line: promptLines,
    maxLength,
  });
  const getProperties = {
    serverName: { type: 'string', description: 'The MCP server of the prompt (before the `:` in list_mcp_prompts).' },
    name: { type: 'string', description: 'The prompt name (after the `:` in list_mcp_prompts).' },
  };
  const get = hostTool(
    {
      name: GET_PROMPT_TOOL_NAME,
      description:
        "Gets one MCP prompt with its arguments and returns its messages. `serverName` and `name` are the prompt's `<server>:<name>` in list_mcp_prompts; give every required argument.",
      // Validated loosely: the host checks the arguments itself, so the error names the prompt and argument.
      inputSchema: {
        type: 'object',
        properties: { ...getProperties, arguments: { description: ARGUMENT_PAIRS.description } },
        required: ['serverName', 'name'],
      },
      annotations: { title: 'Get an MCP prompt', ...READ_ONLY_ANNOTATIONS },
    },
    (args, signal) => getPrompt(deps, args, maxLength, signal),
    { type: 'object', properties: { ...getProperties, arguments: ARGUMENT_PAIRS }, required: ['serverName', 'name'] },
  );
  return new Map([
    [list.definition.name, list],
    [get.definition.name, get],
  ]);
}

/** A prompt's line in the listing, then one line per argument. */
function promptLines(prompt: PromptCommand): string {
  const head = `- ${clean(prompt.serverName)}:${clean(prompt.promptName)} | ${clean(prompt.title ?? prompt.promptName)} | ${clean(prompt.description)}`;
  const args = prompt.arguments.map(
    (argument) =>
      `  - argument ${clean(argument.name)}${argument.required === true ? ' (required)' : ''}${argument.description ? `: ${clean(argument.description)}` : ''}`,
  );
  return [head, ...(args.length > 0 ? args : ['  - no arguments'])].join('\n');
}

/** `serverName` and `name` (the prompt's own name, else its slash command name) among the known prompts. */
function findPrompt(prompts: PromptCommand[], serverName: string, name: string): PromptCommand | undefined {
  const own = prompts.filter((prompt) => prompt.serverName === serverName);
  return own.find((prompt) => prompt.promptName === name) ?? own.find((prompt) => prompt.name === name);
}

async function getPrompt(
  deps: PromptToolsDeps,
  args: Readonly<Record<string, unknown>>,
  maxLength: number,
  signal: AbortSignal | undefined,
): Promise<CallToolResult> {
  const serverName = String(args.serverName);
  const name = String(args.name);
  const command = findPrompt(deps.list(), serverName, name);
  if (!command)
    return text(`Prompt not found: ${clean(serverName)}:${clean(name)}. Call ${LIST_PROMPTS_TOOL_NAME} to see the prompts.`, true);
  const values = promptValues(command, args.arguments);
  if (typeof values === 'string') return text(values, true);
  let result: GetPromptResult;
  try {
    result = await deps.get(command, values, signal);
  } catch (error) {
    return text(`Failed to get prompt ${clean(command.serverName)}:${clean(command.promptName)}: ${errorText(error)}`, true);
  }
  return contentResult(capItems(renderPrompt(command, result, maxLength), maxLength));
}

/**
 * The model's argument values checked against the prompt's declared arguments: `{ name, value }`
 * pairs (or a `{ name: value }` object), string values, no unknown or repeated name, every
 * required one given. A string is the error for the model, naming the prompt and the arguments.
 */
function promptValues(command: PromptCommand, given: unknown): Record<string, string> | string {
  const pairs = argumentPairs(given);
  const prompt = `"${clean(command.serverName)}:${clean(command.promptName)}"`;
  if (pairs === undefined)
    return `Invalid arguments for prompt ${prompt}: \`arguments\` must be a list of { "name": ..., "value": ... } pairs. ${expected(command)}`;
  const problems: string[] = [];
  const values: Record<string, string> = {};
  const declared = new Set(command.arguments.map((argument) => argument.name));
  for (const [argName, value] of pairs) {
    const shown = `"${clean(argName)}"`;
    if (!declared.has(argName)) problems.push(`it has no argument ${shown}`);
    else if (Object.hasOwn(values, argName)) problems.push(`argument ${shown} is given twice`);
    else if (typeof value !== 'string') problems.push(`argument ${shown} must be a string, not ${value === null ? 'null' : typeof value}`);
    else values[argName] = value;
  }
  for (const argument of command.arguments) {
    if (argument.required === true && !pairs.some(([argName]) => argName === argument.name))
      problems.push(`the required argument "${clean(argument.name)}" is missing`);
  }
  if (problems.length === 0) return values;
  return `Invalid arguments for prompt ${prompt}: ${problems.join('; ')}. The prompt was not fetched. ${expected(command)}`;
}

/** The `[name, value]` pairs of `{ name, value }` pairs or of a `{ name: value }` object; undefined when it is neither. */
function argumentPairs(given: unknown): Array<[string, unknown]> | undefined {
  if (given === undefined || given === null) return [];
  if (Array.isArray(given)) {
    const pairs: Array<[string, unknown]> = [];
    for (const item of given as unknown[]) {
      if (typeof item !== 'object' || item === null || typeof (item as { name?: unknown }).name !== 'string') return undefined;
      pairs.push([(item as { name: string }).name, (item as { value?: unknown }).value]);
    }
    return pairs;
  }
  return typeof given === 'object' ? Object.entries(given) : undefined;
}

/** What a prompt takes, for an error message. */
function expected(command: PromptCommand): string {
  if (command.arguments.length === 0) return 'This prompt takes no arguments.';
  const list = command.arguments.map((argument) => `"${clean(argument.name)}"${argument.required === true ? ' (required)' : ''}`);
  return `Its arguments: ${list.join(', ')}; call ${GET_PROMPT_TOOL_NAME} again with arguments: [{ "name": "<argument>", "value": "<text>" }].`;
}

/** Server text for the model: line feeds and tabs kept, every other control, BiDi, zero-width or tag character escaped. */
function promptText(value: string): string {
  return escapeControlText(value.replace(/\r\n/g, '\n'), { multiline: true });
}

/** A header, then each message as its `[role]` line and its content. */
function renderPrompt(command: PromptCommand, result: GetPromptResult, maxLength: number): HostToolContent[] {
  const description = result.description ?? command.description;
  const items: HostToolContent[] = [
    {
      type: 'text',
      text: `MCP prompt ${clean(command.serverName)}:${clean(command.promptName)}${description ? ` (${clean(description)})` : ''}, ${result.messages.length} message(s):`,
    },
  ];
  for (const message of result.messages) {
    items.push({ type: 'text', text: `[${clean(message.role)}]` }, renderContent(message.content, maxLength));
  }
  return items;
}

function renderContent(content: PromptContent, maxLength: number): HostToolContent {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: promptText(content.text) };
    case 'image':
    case 'audio':
      return mediaItem(content.data, content.mimeType, maxLength);
    case 'resource':
      return 'text' in content.resource && typeof content.resource.text === 'string'
        ? { type: 'text', text: promptText(content.resource.text) }
        : mediaItem(
            String((content.resource as { blob?: unknown }).blob ?? ''),
            content.resource.mimeType ?? 'application/octet-stream',
            maxLength,
          );
    case 'resource_link':
      return { type: 'text', text: `Resource Link: ${clean(content.title ?? content.name)} at ${clean(content.uri)}` };
    default:
      return { type: 'text', text: `[Unsupported prompt content: ${clean((content as { type?: string }).type)}]` };
  }
}

/**
 * At most `maxLength` characters of text in all: the text item that goes over is cut, and
 * everything after it is left out, with a visible marker saying how much.
 */
function capItems(items: HostToolContent[], maxLength: number): HostToolContent[] {
  let used = 0;
  for (const [index, item] of items.entries()) {
    if (item.type !== 'text') continue;
    if (used + item.text.length <= maxLength) {
      used += item.text.length;
      continue;
    }
    const later = items.slice(index + 1);
    const laterText = later.reduce((sum, next) => sum + (next.type === 'text' ? next.text.length : 0), 0);
    const laterMedia = later.filter((next) => next.type !== 'text').length;
    const kept = cutText(item.text, maxLength - used);
    const marker = truncationMarker('prompt text', item.text.length - kept.length + laterText, laterMedia);
    return [...items.slice(0, index), { type: 'text', text: `${kept}${marker}` }];
  }
  return items;
}
