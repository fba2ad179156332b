import {
  ProtocolErrorCode,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/client';
import {
  DEFAULT_DEFINITION_LIMITS,
  isListMethod,
  isRecord,
  judgeItem,
  LIST_ITEMS,
  type DefinitionLimits,
  type InvalidItem,
  type ListMethod,
} from './judge-list-items.js';
import { escapeControlText } from '@toolhost/contract';

/**
 * The key, on a list result that went through {@link judgeListAnswers}, of the items it left out.
 * A symbol: no server can send it (JSON has none), and a spread copy of the result keeps it.
 */
export const SET_ASIDE_ITEMS: unique symbol = Symbol('toolhost.setAsideListItems');

/** A list result, possibly with the items {@link judgeListAnswers} left out. */
export type JudgedListResult = Record<string, unknown> & { [SET_ASIDE_ITEMS]?: readonly InvalidItem[] };

/** The items {@link judgeListAnswers} left out of a list result (none when it did not go through it). */
export function setAsideItems(result: JudgedListResult): readonly InvalidItem[] {
  const items = result[SET_ASIDE_ITEMS];
  return Array.isArray(items) ? items : [];
}

/** List requests remembered at most (their answers normally arrive; this bounds a leak of lost ones). */
const MAX_PENDING = 1024;

const filtered = new WeakSet<Transport>();

/**
 * A list result with its invalid items taken out (and set aside under {@link SET_ASIDE_ITEMS}),
 * or the result itself when every item is valid as sent.
 */
function judgeResult(method: ListMethod, result: unknown, limits: DefinitionLimits): unknown {
  const shape = LIST_ITEMS[method];
  if (!isRecord(result) || !Array.isArray(result[shape.key])) return result;
  const items: unknown[] = result[shape.key] as unknown[];
  const kept: unknown[] = [];
  const invalid: InvalidItem[] = [];
  let changed = false;
  items.forEach((raw, index) => {
    const judgement = judgeItem(raw, index, shape, limits);
    if (!judgement.ok) {
      invalid.push(judgement.invalid);
      changed = true;
      return;
    }
    kept.push(judgement.normalized);
    if (judgement.normalized !== raw) changed = true;
  });
  if (!changed) return result;
  const judged: JudgedListResult = { ...result, [shape.key]: kept, [SET_ASIDE_ITEMS]: invalid };
  return judged;
}

/**
 * Judge every item of the `tools/list`, `prompts/list`, `resources/list` and
 * `resources/templates/list` answers that arrive on `transport` on its own, before the SDK parses
 * the answer: the invalid items are taken out (and set aside under {@link SET_ASIDE_ITEMS}, see
 * {@link setAsideItems}), a tool input schema without `type` gets `type: "object"`, the rest is
 * left as sent; an item over `limits` (nesting, size) is taken out before anything parses it.
 * Idempotent (the first call's limits stay). Install it on a connected client's transport.
 *
 * Why at the transport: on MCP 2026-07-28 the SDK's wire codec (`rev2026Codec.decodeResult` in
 * `@modelcontextprotocol/client` 2.4, called by `Protocol._requestWithSchemaViaCodec`) parses a
 * list result against its strict wire schema (`ListToolsResultSchema`...) before the result
 * schema given to `client.request` is consulted, and rejects the whole list when one item is
 * invalid; there is no option or lenient path to skip that. Only the public `Transport` contract
 * (`send`, `onmessage`) is used here: requests sent tell which answers are lists.
 */
export function judgeListAnswers(transport: Transport, limits: DefinitionLimits = DEFAULT_DEFINITION_LIMITS): void {
  if (filtered.has(transport)) return;
  filtered.add(transport);
  const pending = new Map<RequestId, ListMethod>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message) {
      if ('id' in message && isListMethod(message.method)) {
        if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as RequestId);
        pending.set(message.id, message.method);
      } else if (message.method === 'notifications/cancelled') {
        const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (requestId !== undefined) pending.delete(requestId);
      }
    }
    return send(message, options);
  };
  /** The answer to a list request with its items judged; any other message as it is. */
  const judged = (message: JSONRPCMessage): JSONRPCMessage => {
    if ('method' in message || !('id' in message) || message.id === undefined) return message;
    const method = pending.get(message.id);
    if (method === undefined) return message;
    pending.delete(message.id);
    if (!('result' in message)) return message;
    try {
      const result = judgeResult(method, message.result, limits);
      return result === message.result ? message : { ...message, result: result as typeof message.result };
    } catch (error) {
      // Nothing may throw out of a transport's message callback: the list request fails instead.
      const reason = escapeControlText(error instanceof Error ? error.message : String(error)).slice(0, 200);
      return {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ProtocolErrorCode.InternalError, message: `the ${method} answer could not be read: ${reason}` },
      };
    }
  };
  let deliver = transport.onmessage;
  const judge = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    deliver?.(pending.size > 0 ? judged(message) : message, extra);
  };
  // `onmessage` is set by the client (and may be set again): keep whatever it is set to behind the judge.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (deliver ? judge : undefined),
    set: (handler: Transport['onmessage']) => {
      deliver = handler;
    },
  });
}
