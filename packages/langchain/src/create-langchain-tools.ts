import { ToolMessage } from '@langchain/core/messages';
import { tool, type DynamicStructuredTool } from '@langchain/core/tools';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import {
  ToolhostError,
  type ConfirmationAnswer,
  type ConfirmationRequest,
  type ContentPart,
  type HostToolDefinition,
  type JsonSchemaObject,
  type SchemaProfile,
} from '@toolhost/contract';
import { sanitizeSchema, stripNullOptionals } from '@toolhost/schema-sanitizer';
import { assignLangChainNames } from './assign-langchain-names.js';
import type { LangChainToolHost, LangChainToolHostResult } from './langchain-tool-host.js';
import { DEFAULT_ACCEPTED_MEDIA_TYPES, toMessageContent, type LangChainToolContent } from './to-message-content.js';

/**
 * Asks the user whether a tool call may run; answer with one of `request.options` (its id, such
 * as `'proceed_once'`, or the option itself). `signal` aborts when the call no longer waits (it
 * was aborted, or another answerer came first). A callback that throws or rejects cancels the call
 * (the tool does not run) and the tool's `invoke` rethrows that error: this is how a LangGraph
 * `interrupt()` stops the graph (see {@link confirmWithInterrupt}).
 */
export type LangChainConfirm = (
  request: ConfirmationRequest,
  options: { readonly signal: AbortSignal },
) => ConfirmationAnswer | Promise<ConfirmationAnswer>;

/** Options of {@link createLangChainTools}. */
export interface CreateLangChainToolsOptions {
  /**
   * Asks the user when a call needs confirmation. Create the host with
   * `deferConfirmations: true` (and no `ui.confirm`) so that it waits for this answer; a host
   * without either refuses such calls, and the tool then throws `INVALID_OPTIONS` saying so (a
   * host that also has `ui.confirm` asks both; the first answer wins).
   * Without `confirm`, confirmations go to the host's own `ui.confirm` or
   * `host.confirmations.answer()`, as for any call.
   */
  readonly confirm?: LangChainConfirm;
  /** Only the tools for which this returns true (for example `(tool) => tool.serverName === 'docs'`). */
  readonly filter?: (tool: HostToolDefinition) => boolean;
  /**
   * How input schemas are prepared for the model (`@toolhost/schema-sanitizer` profiles):
   * `anthropic` (the default) only makes the root an object schema, which every LangChain chat
   * model needs; `gemini` for `ChatGoogleGenerativeAI`; `openai-strict` for OpenAI strict mode
   * (optional properties become required and nullable; the `null`s the model sends for them are
   * removed before the call).
   * @default 'anthropic'
   */
  readonly schemaProfile?: SchemaProfile;
  /**
   * MIME types of the tool output sent to the model as content blocks (`type/*` matches a whole
   * type); other data is named in a note in the text and kept in the artifact. Use `[]` for a
   * chat model whose tool messages carry text only (`ChatOpenAI` on Chat Completions).
   * @default ['image/png', 'image/jpeg', 'image/gif', 'image/webp']
   */
  readonly acceptedMediaTypes?: readonly string[];
}

/**
 * The artifact of a toolhost tool's `ToolMessage` (`responseFormat: 'content_and_artifact'`):
 * what the model does not see in `content`, for the application.
 */
export interface ToolhostArtifact {
  /** The server that provides the tool. */
  readonly serverName: string;
  /** The tool's own name on its server. */
  readonly toolName: string;
  /** True when the tool failed, was refused or was cancelled; `content` says why. */
  readonly isError: boolean;
  /** Why the call did not succeed (`TOOL_CALL_DENIED`, `TOOL_REPORTED_ERROR`, ...), when it did not. */
  readonly errorCode?: string;
  /** The server's `structuredContent`, when it sent one. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** Every part of the result, media included (also the media not sent to the model). */
  readonly parts: readonly ContentPart[];
}

/** A toolhost tool as a LangChain structured tool. */
export type ToolhostLangChainTool = DynamicStructuredTool<
  JsonSchemaObject,
  Record<string, unknown>,
  Record<string, unknown>,
  [LangChainToolContent | ToolMessage, ToolhostArtifact]
>;

/**
 * The host's MCP tools as LangChain.js structured tools (`@langchain/core` 1.x), for
 * `model.bindTools(tools)`, `ToolNode`, `createAgent` or any LangChain agent. Each tool:
 *
 * - is named after the host's tool name, with characters outside `a-z A-Z 0-9 _ -` as `_`;
 * - declares the tool's input schema as JSON Schema, prepared with `schemaProfile`;
 * - runs through `host.callTool` with the model's tool call id: argument validation, the host's
 *   confirmation policy (trust, allow-lists, pinned approvals), the call, result mapping;
 * - answers (`responseFormat: 'content_and_artifact'`) with the result as message content, images
 *   as standard `image` blocks (`{ type: 'image', mimeType, data }`, base64), and a
 *   {@link ToolhostArtifact}. Invoked with a tool call, it returns a `ToolMessage`, with
 *   `status: 'error'` when the call failed, was refused or cancelled.
 *
 * The list is the host's tools now: after the tools change (`registry-change` event), call it again.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ projectDir: process.cwd(), deferConfirmations: true });
 * await host.discover();
 * const tools = createLangChainTools(host, { confirm: async (request) => (await askUser(request)) ? 'proceed_once' : 'cancel' });
 * const model = new ChatOpenAI({ model: 'gpt-5-mini', useResponsesApi: true }).bindTools(tools);
 * ```
 */
export function createLangChainTools(host: LangChainToolHost, options: CreateLangChainToolsOptions = {}): ToolhostLangChainTool[] {
  const definitions = host.listToolDefinitions().filter((definition) => options.filter?.(definition) ?? true);
  const names = assignLangChainNames(definitions.map((definition) => definition.name));
  const profile = options.schemaProfile ?? 'anthropic';
  const accepted = options.acceptedMediaTypes ?? DEFAULT_ACCEPTED_MEDIA_TYPES;
  return definitions.map((definition, index) => {
    const name = names[index] ?? definition.name;
    const schema = sanitizeSchema(definition.inputSchema, { profile }) as JsonSchemaObject;
    return tool(
      async (input: Record<string, unknown>, config: ToolRunnableConfig) => {
        const args = profile === 'openai-strict' ? stripNullOptionals(input, definition.inputSchema) : input;
        return runTool({ host, definition, name, args, config, confirm: options.confirm, accepted });
      },
      {
        name,
        description: definition.description || definition.title || definition.name,
        schema,
        responseFormat: 'content_and_artifact',
        metadata: {
          toolhost: {
            serverName: definition.serverName,
            toolName: definition.originalName,
            ...(definition.annotations ? { annotations: definition.annotations } : {}),
          },
        },
      },
    ) as unknown as ToolhostLangChainTool;
  });
}

interface RunToolParams {
  readonly host: LangChainToolHost;
  readonly definition: HostToolDefinition;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly config: ToolRunnableConfig | undefined;
  readonly confirm: LangChainConfirm | undefined;
  readonly accepted: readonly string[];
}

async function runTool(params: RunToolParams): Promise<[LangChainToolContent | ToolMessage, ToolhostArtifact]> {
  const { host, definition, name, args, config } = params;
  const toolCallId = config?.toolCall?.id || `langchain-${globalThis.crypto.randomUUID()}`;
  const signal = config?.signal;
  const watcher = params.confirm ? watchConfirmation(host, toolCallId, params.confirm) : undefined;
  let result: LangChainToolHostResult;
  try {
    result = await host.callTool({ name: definition.name, arguments: args, toolCallId }, signal ? { signal } : {});
  } finally {
    watcher?.stop();
  }
  // The confirm callback threw (a LangGraph interrupt, a failing dialog) or answered nonsense: the
  // call was cancelled before the tool ran; the error is the caller's to see.
  if (watcher?.failure) throw watcher.failure.error;
  if (params.confirm && result.error?.code === 'CONFIRMATION_REQUIRED') {
    throw new ToolhostError({
      code: 'INVALID_OPTIONS',
      serverName: definition.serverName,
      cause: result.error,
      message: `Tool "${definition.name}" of MCP server "${definition.serverName}" needs confirmation, but the host refused it instead of asking the confirm callback given to createLangChainTools: create the host with \`deferConfirmations: true\` (McpToolHost.create({ ..., deferConfirmations: true })). The tool was not called.`,
    });
  }
  const content = toMessageContent(result.parts, name, params.accepted);
  const artifact: ToolhostArtifact = {
    serverName: definition.serverName,
    toolName: definition.originalName,
    isError: result.isError,
    ...(result.error ? { errorCode: result.error.code } : {}),
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    parts: result.parts,
  };
  const callId = config?.toolCall?.id;
  if (result.isError && callId) {
    // LangChain marks every ToolMessage it builds `success`; a failed call says so with its own ToolMessage.
    return [new ToolMessage({ status: 'error', content, artifact, tool_call_id: callId, name }), artifact];
  }
  return [content, artifact];
}

interface ConfirmationWatcher {
  /** Set when the confirm callback threw or gave an answer the host refused. */
  readonly failure: { readonly error: unknown } | undefined;
  /** Stop listening; aborts a callback still asking. */
  stop(): void;
}

/** Answer the confirmation of call `toolCallId`, if the host asks one, with the `confirm` callback. */
function watchConfirmation(host: LangChainToolHost, toolCallId: string, confirm: LangChainConfirm): ConfirmationWatcher {
  const controller = new AbortController();
  const watcher = { failure: undefined as { readonly error: unknown } | undefined, stop: () => undefined as void };
  const cancel = (error: unknown): void => {
    watcher.failure = { error };
    try {
      host.confirmations.answer({ toolCallId, optionId: 'cancel' });
    } catch {
      // Already settled another way: nothing to cancel.
    }
  };
  const ask = async (request: ConfirmationRequest): Promise<void> => {
    let answer: ConfirmationAnswer;
    try {
      answer = await confirm(request, { signal: controller.signal });
    } catch (error) {
      cancel(error);
      return;
    }
    if (controller.signal.aborted) return;
    const optionId = typeof answer === 'object' && answer !== null ? String(answer.id) : String(answer);
    try {
      host.confirmations.answer({ toolCallId, optionId });
    } catch (error) {
      // Refused answer (not an offered option): fail loudly rather than guess. Any other
      // refusal means the call no longer waits (answered by `ui.confirm`, aborted): nothing to do.
      if (ToolhostError.isInstance(error) && error.code === 'INVALID_CONFIRMATION_ANSWER') cancel(error);
    }
  };
  const off = host.on('confirmation-pending', (request) => {
    if (request.toolCallId === toolCallId) void ask(request);
  });
  watcher.stop = () => {
    off();
    controller.abort();
  };
  return watcher;
}
