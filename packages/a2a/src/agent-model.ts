import type { ToolCallOutcome } from '@toolhost/contract';
import type { AgentThought } from './development-tool.js';

/** What one model request is given. */
export interface AgentModelRequest<TItem, TTool> {
  /** The conversation of this A2A context so far, oldest first (the user's message last). */
  readonly history: readonly TItem[];
  /** The host's tools in the vendor's format (`host.listTools()`; may be empty). */
  readonly tools: readonly TTool[];
  /** The servers' `initialize` instructions joined into one system prompt; undefined when there are none. */
  readonly instructions: string | undefined;
  /** Aborts when the task is cancelled. */
  readonly signal: AbortSignal;
}

/** What the model answered. */
export interface AgentModelReply<TItem, TResponse> {
  /** The vendor response, whose tool calls the host's adapter reads (`adapter.getToolCalls`). */
  readonly response: TResponse;
  /** The items to keep in the history (the model's turn, tool calls included). */
  readonly items: readonly TItem[];
  /** The text for the user ('' when there is none); sent as a `TEXT_CONTENT` TextPart. */
  readonly text: string;
  /** The model's thoughts, sent as `THOUGHT` DataParts before the text. */
  readonly thoughts?: readonly AgentThought[];
}

/**
 * One vendor's side of the agent loop: how a user message, a request and tool results look in
 * that vendor's API. The A2A server runs the loop (request, tool calls through the host with
 * confirmations, tool results back, until the model answers without tools). The host's model
 * adapter must be the one for the same vendor (`adapter.getToolCalls` reads `response`,
 * `adapter.toToolResults` builds what `toolResultItems` receives).
 *
 * @typeParam TItem - one history item of the vendor's API (a `Content`, an input item, a message).
 * @typeParam TTool - the vendor's tool declaration (`host.listTools()`).
 * @typeParam TResponse - the vendor response handed to the adapter.
 * @typeParam TToolResults - what the adapter's `toToolResults` returns.
 */
export interface AgentModel<TItem, TTool, TResponse, TToolResults> {
  /** The vendor's name, for error messages (`Gemini request failed: …`). */
  readonly name: string;
  /** The model id, reported as `model` in each event's `DevelopmentToolEvent`. */
  readonly model?: string;
  /** The history item of a message the user typed. */
  userMessage(text: string): TItem;
  /** Send one request to the model. */
  generate(request: AgentModelRequest<TItem, TTool>): Promise<AgentModelReply<TItem, TResponse>>;
  /** The history items that carry the tool results back to the model. */
  toolResultItems(toolResults: TToolResults): readonly TItem[];
}

/** A history item of {@link createScriptedModel}. */
export type ScriptedModelItem =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'model'; readonly text: string }
  | { readonly role: 'tool'; readonly outcomes: readonly ToolCallOutcome[] };

/** A scripted model's response: the shape of `ScriptedTurn` of `@toolhost/host/testing`. */
export interface ScriptedModelResponse {
  /** Text the "model" says. */
  readonly text?: string;
  /** The tool calls it asks for. */
  readonly toolCalls?: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly arguments: Record<string, unknown> }>;
}

const CALL_PATTERN = /^\s*call\s+(\S+)\s*([\s\S]*)$/;

/**
 * An offline, deterministic model for examples, demos and tests, used with the host's scripted
 * adapter (`createScriptedAdapter()` of `@toolhost/host/testing`, also the host's default
 * adapter). A user message `call <tool> <json-arguments>` (`call echo {"message":"hi"}`; the
 * arguments may be left out for `{}`) becomes that tool call; once the results are back, the model
 * answers with the tools' result text. Any other message is answered with a short help line.
 *
 * @example
 * ```ts
 * import { McpToolHost } from '@toolhost/host';
 * import { createA2aServer, createScriptedModel } from '@toolhost/a2a';
 *
 * const host = await McpToolHost.create({ projectDir: process.cwd(), deferConfirmations: true });
 * await host.discover();
 * const server = createA2aServer({ host, model: createScriptedModel() });
 * const { url } = await server.listen({ port: 0 });
 * ```
 */
export function createScriptedModel(): AgentModel<
  ScriptedModelItem,
  unknown,
  ScriptedModelResponse,
  { readonly outcomes: readonly ToolCallOutcome[] }
> {
  let counter = 0;
  return {
    name: 'Scripted model',
    model: 'scripted',
    userMessage: (text) => ({ role: 'user', text }),
    async generate({ history }) {
      const last = history.at(-1);
      let text: string;
      let response: ScriptedModelResponse;
      if (last?.role === 'tool') {
        text = last.outcomes
          .map((outcome) => outcome.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'))
          .join('\n\n');
        response = { text };
      } else if (last?.role === 'user' && CALL_PATTERN.test(last.text)) {
        const [, name = '', rawArguments = ''] = CALL_PATTERN.exec(last.text) ?? [];
        const parsed = parseArguments(rawArguments);
        if (typeof parsed === 'string') {
          text = `Could not read the arguments of "call ${name}": ${parsed}. Write them as a JSON object, e.g. call echo {"message":"hi"}.`;
          response = { text };
        } else {
          counter += 1;
          text = '';
          response = { toolCalls: [{ id: `scripted-${counter}`, name, arguments: parsed }] };
        }
      } else {
        text = 'I am a scripted model: write call <tool> <json-arguments>, e.g. call echo {"message":"hi"}.';
        response = { text };
      }
      return { response, items: [{ role: 'model', text }], text };
    },
    toolResultItems: (toolResults) => [{ role: 'tool', outcomes: toolResults.outcomes }],
  };
}

function parseArguments(raw: string): Record<string, unknown> | string {
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'they are not a JSON object';
  return value as Record<string, unknown>;
}
