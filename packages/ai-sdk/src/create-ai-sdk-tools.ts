import type { ConfirmationOutcome, ConfirmationRequest, HostToolDefinition, JsonSchemaObject } from '@toolhost/contract';
import { sanitizeSchema, type SchemaProfile } from '@toolhost/schema-sanitizer';
import { dynamicTool, jsonSchema, type ModelMessage, type ToolApprovalResponse, type ToolSet } from 'ai';
import type { AiSdkToolHost, AiSdkToolHostResult } from './ai-sdk-tool-host.js';
import { findToolApproval, toolApprovalOutcome } from './tool-approval.js';
import { toAiSdkModelOutput, type AiSdkToolOutput } from './tool-output.js';

/** Options of {@link createAiSdkTools}; every one has a default. */
export interface AiSdkToolsOptions {
  /**
   * Who asks the user before a tool runs.
   * - `'ai-sdk'`: the AI SDK's tool approvals. A call toolhost would run without asking (trusted
   *   server, allow-list, pinned "always allow", host policy) needs no approval; one toolhost would
   *   ask about becomes a `tool-approval-request`; an approved one runs once (with the "always"
   *   choice of {@link AiSdkToolsOptions.approvalOutcome} recorded by toolhost), a denied one never
   *   runs. Create the host with `deferConfirmations: true` (or a `confirm` hook), or toolhost
   *   refuses every call that needs the user.
   * - `'host'`: no AI SDK approvals; toolhost asks through its own `confirm` hook or
   *   `host.confirmations.answer()`, as for any other call.
   * @default 'ai-sdk'
   */
  readonly confirmation?: 'ai-sdk' | 'host';
  /**
   * The toolhost outcome of an approved or denied call, from the AI SDK's approval response.
   * @default toolApprovalOutcome: `cancel` when denied, the `reason` when it is `proceed_always_tool` or `proceed_always_server`, else `proceed_once`
   */
  readonly approvalOutcome?: (response: ToolApprovalResponse, request: ConfirmationRequest) => ConfirmationOutcome;
  /**
   * The sanitizer profile of the input schemas (`@toolhost/schema-sanitizer`). The default,
   * `anthropic`, makes the root an object schema and keeps the rest, which every provider takes;
   * `gemini` suits `@ai-sdk/google`, `openai-strict` tools declared with `strict: true`.
   * @default 'anthropic'
   */
  readonly schemaProfile?: SchemaProfile;
}

/** What `execute` reads of the AI SDK's execution options (the same in `ai` 6 and 7). */
interface ExecutionOptions {
  readonly toolCallId: string;
  readonly messages?: ModelMessage[];
  readonly abortSignal?: AbortSignal;
}

/** How many tool call ids that ran under an approval are remembered (an approval runs its call once). */
const REMEMBERED_APPROVED_CALLS = 4096;

/** One answer per tool call id, given when toolhost asks about that call. */
type Answerer = (request: ConfirmationRequest) => void;

/** Sanitised schemas by input schema object and profile (a host keeps the same objects while its tools do not change). */
const schemaCache = new WeakMap<object, Map<SchemaProfile, JsonSchemaObject>>();

function sanitized(inputSchema: JsonSchemaObject, profile: SchemaProfile): JsonSchemaObject {
  let byProfile = schemaCache.get(inputSchema);
  if (!byProfile) schemaCache.set(inputSchema, (byProfile = new Map()));
  let schema = byProfile.get(profile);
  if (!schema) byProfile.set(profile, (schema = sanitizeSchema(inputSchema, { profile }) as JsonSchemaObject));
  return schema;
}

function outputOf(result: AiSdkToolHostResult, text?: string): AiSdkToolOutput {
  return {
    content: text === undefined ? result.parts : [{ type: 'text', text }],
    isError: result.isError,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    ...(result.error ? { errorCode: result.error.code } : {}),
  };
}

/**
 * The host's MCP tools as an AI SDK `ToolSet` for `generateText`, `streamText` and agents, one
 * dynamic tool per tool under the host's name for it (its `listToolDefinitions()` now: the
 * servers' tools and, with the host's `resourceTools` / `promptTools` options, its own; call again
 * to pick up changed tools). Each tool's input schema is toolhost's sanitised schema (through
 * `jsonSchema()`); its `execute` runs the call through `host.callTool` (argument validation,
 * timeouts, OAuth, result mapping) and returns an {@link AiSdkToolOutput}; its `toModelOutput`
 * gives the model the text and the images, audio and files as media parts.
 *
 * Confirmation goes through the AI SDK's tool approvals by default (see
 * {@link AiSdkToolsOptions.confirmation}): `needsApproval` asks toolhost (`host.confirmations.check`),
 * so only the calls toolhost would ask about produce a `tool-approval-request`. Answer it with a
 * `tool-approval-response` in the next messages; {@link toolApprovalResponse} writes one for each
 * of toolhost's choices, "always allow this tool / server" included.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ projectDir: process.cwd(), adapter: createAiSdkAdapter(), deferConfirmations: true });
 * await host.discover();
 * const result = await generateText({ model, tools: createAiSdkTools(host), prompt: 'Show me the logo.', stopWhen: stepCountIs(5) });
 * ```
 */
export function createAiSdkTools(host: AiSdkToolHost, options: AiSdkToolsOptions = {}): ToolSet {
  const mode = options.confirmation ?? 'ai-sdk';
  const profile = options.schemaProfile ?? 'anthropic';
  const outcomeOf = options.approvalOutcome ?? ((response: ToolApprovalResponse) => toolApprovalOutcome(response));
  const answerers = new Map<string, Answerer>();
  const ranApproved = new Set<string>();
  let listening = false;

  /** Answer toolhost's question about `toolCallId` with `answer` while `run` runs. */
  async function withAnswerer<T>(toolCallId: string, answer: Answerer, run: () => Promise<T>): Promise<T> {
    if (!listening) {
      listening = true;
      host.on('confirmation-pending', (request) => answerers.get(request.toolCallId)?.(request));
    }
    answerers.set(toolCallId, answer);
    try {
      return await run();
    } finally {
      if (answerers.get(toolCallId) === answer) answerers.delete(toolCallId);
    }
  }

  function rememberApproved(toolCallId: string): void {
    ranApproved.add(toolCallId);
    if (ranApproved.size > REMEMBERED_APPROVED_CALLS) {
      const oldest = ranApproved.values().next().value;
      if (oldest !== undefined) ranApproved.delete(oldest);
    }
  }

  async function execute(tool: HostToolDefinition, input: unknown, execution: ExecutionOptions): Promise<AiSdkToolOutput> {
    const { toolCallId } = execution;
    const call = () =>
      host.callTool(
        { name: tool.name, arguments: input as Record<string, unknown>, toolCallId },
        execution.abortSignal ? { signal: execution.abortSignal } : {},
      );
    if (mode === 'host') return outputOf(await call());
    const approval = findToolApproval(execution.messages, toolCallId);
    const where = `Tool "${tool.name}" of MCP server "${tool.serverName}"`;
    if (approval?.approved === true) {
      if (ranApproved.has(toolCallId)) {
        return {
          content: [
            {
              type: 'text',
              text: `${where} was already called for tool call "${toolCallId}" under this approval; an approval is used once. The tool was not called again.`,
            },
          ],
          isError: true,
          errorCode: 'TOOL_CALL_DENIED',
        };
      }
      rememberApproved(toolCallId);
    }
    let unapproved = false;
    const result = await withAnswerer(
      toolCallId,
      (request) => {
        const offered = (id: string) => request.options.some((option) => option.id === id);
        if (approval?.approved !== true) {
          // toolhost asks about a call the AI SDK did not have approved: it changed since needsApproval.
          unapproved = true;
          host.confirmations.answer({ toolCallId, optionId: 'cancel' });
          return;
        }
        const outcome = outcomeOf(approval, request);
        host.confirmations.answer({ toolCallId, optionId: offered(outcome) || outcome === 'cancel' ? outcome : 'proceed_once' });
      },
      call,
    );
    if (unapproved) {
      return outputOf(
        result,
        `${where} needs the user's approval, which was not asked for this call (what the tool needs changed since): the tool was not called. Call it again to ask for approval.`,
      );
    }
    if (result.error?.code === 'CONFIRMATION_REQUIRED') {
      return outputOf(
        result,
        `${result.display} For the AI SDK to ask the user instead, create the McpToolHost with deferConfirmations: true.`,
      );
    }
    return outputOf(result);
  }

  const tools: ToolSet = Object.create(null) as ToolSet;
  for (const tool of host.listToolDefinitions()) {
    tools[tool.name] = dynamicTool({
      description: tool.description,
      ...(tool.title ? { title: tool.title } : {}),
      inputSchema: jsonSchema(sanitized(tool.inputSchema, profile)),
      execute: (input, execution) => execute(tool, input, execution),
      toModelOutput: ({ output }) => toAiSdkModelOutput(output),
      ...(mode === 'ai-sdk'
        ? {
            needsApproval: async (input: unknown, { toolCallId }: { toolCallId: string }) =>
              (await host.confirmations.check({ name: tool.name, arguments: input as Record<string, unknown>, toolCallId })).status ===
              'ask',
          }
        : {}),
    });
  }
  return tools;
}
