import { ToolhostError, type ConfirmationAnswer, type ConfirmationRequest } from '@toolhost/contract';
import type { LangChainConfirm } from './create-langchain-tools.js';

/** The `kind` of the value a toolhost tool passes to LangGraph's `interrupt()`. */
export const TOOLHOST_CONFIRMATION_INTERRUPT = 'toolhost-confirmation';

/**
 * What a toolhost tool passes to LangGraph's `interrupt()` when the user must decide whether it
 * may run; it arrives in the graph's result as `__interrupt__[i].value`. Plain data, so it is
 * stored in checkpoints as it is.
 */
export interface ToolhostConfirmationInterrupt {
  /** Always {@link TOOLHOST_CONFIRMATION_INTERRUPT}. */
  readonly kind: typeof TOOLHOST_CONFIRMATION_INTERRUPT;
  /** The tool call being confirmed (the model's tool call id). */
  readonly toolCallId: string;
  /** What to ask: title, the four options, which server and tool, the arguments, why. */
  readonly request: ConfirmationRequest;
}

/**
 * The value to resume with (`new Command({ resume })`): the id of one of the offered options
 * (`'proceed_once'`, `'proceed_always_tool'`, `'proceed_always_server'`, `'cancel'`), the option
 * object itself, or `{ optionId, toolCallId? }`. With `toolCallId` (the interrupt value's), an
 * answer can never be applied to another tool call: LangGraph matches resume values to
 * interrupts by order only.
 */
export type ToolhostConfirmationResume = ConfirmationAnswer | { readonly optionId: string; readonly toolCallId?: string };

/** Whether a value from `__interrupt__` is a toolhost confirmation (and not another node's interrupt). */
export function isToolhostConfirmationInterrupt(value: unknown): value is ToolhostConfirmationInterrupt {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === TOOLHOST_CONFIRMATION_INTERRUPT &&
    typeof (value as { toolCallId?: unknown }).toolCallId === 'string'
  );
}

/**
 * A `confirm` callback for {@link createLangChainTools} that asks through a LangGraph interrupt.
 * Pass `interrupt` from `@langchain/langgraph` (this package does not import LangGraph):
 *
 * 1. The first time a tool call needs confirmation, `interrupt()` throws LangGraph's
 *    `GraphInterrupt`: the host call is cancelled before the tool runs, the tool rethrows it, and
 *    the graph stops with `__interrupt__: [{ value: ToolhostConfirmationInterrupt, ... }]`.
 * 2. Resume the thread with `new Command({ resume: 'proceed_once' })` (any
 *    {@link ToolhostConfirmationResume}). LangGraph runs the tool node again from its start; the
 *    host asks again and `interrupt()` now returns the resume value, which answers the
 *    confirmation: `proceed_*` runs the tool (the `always` outcomes are pinned in the host's
 *    approval store, so later calls are not asked), `cancel` refuses it.
 *
 * Needs a checkpointer on the graph, as every LangGraph interrupt does.
 *
 * @example
 * ```ts
 * import { interrupt } from '@langchain/langgraph';
 * const tools = createLangChainTools(host, { confirm: confirmWithInterrupt(interrupt) });
 * ```
 */
export function confirmWithInterrupt(interrupt: (value: ToolhostConfirmationInterrupt) => unknown): LangChainConfirm {
  return (request) => {
    const resume = interrupt({ kind: TOOLHOST_CONFIRMATION_INTERRUPT, toolCallId: request.toolCallId, request });
    if (typeof resume !== 'object' || resume === null || !('optionId' in resume) || 'id' in resume) return resume as ConfirmationAnswer;
    const { optionId, toolCallId } = resume as { optionId: unknown; toolCallId?: unknown };
    if (toolCallId !== undefined && toolCallId !== request.toolCallId) {
      const { serverName, toolName } = request.mcpDetails;
      throw new ToolhostError({
        code: 'INVALID_CONFIRMATION_ANSWER',
        serverName,
        message: `The LangGraph resume value answers tool call ${JSON.stringify(String(toolCallId)).slice(0, 200)}, but the interrupt it resumed asks about tool call "${request.toolCallId}" (tool '${toolName}' of MCP server '${serverName}'); the tool was not called. LangGraph matches resume values to interrupts by order: resume each interrupt with the toolCallId of its own value, or let the model ask for one tool at a time (for OpenAI, bindTools(tools, { parallel_tool_calls: false })).`,
      });
    }
    return String(optionId) as ConfirmationAnswer;
  };
}
