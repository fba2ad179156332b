import type { GenerateContentResponse, PartialArg } from '@google/genai';
import {
  AdapterError,
  collectModelStream,
  type CollectModelStreamOptions,
  type ModelStreamAccumulator,
  type ModelStreamEvent,
  type ModelStreamOptions,
} from '@toolhost/contract';
import { checkArgumentsLength, incompleteStream, resolveMaxArgumentsLength } from './streamed-arguments.js';

type Part = Record<string, unknown>;
type FunctionCall = Record<string, unknown> & {
  name?: string;
  id?: string;
  args?: unknown;
  partialArgs?: PartialArg[];
  willContinue?: boolean;
};

/** A call whose arguments come as typed `partialArgs` over several parts (Vertex AI `streamFunctionCallArguments`). */
interface PendingCall {
  /** The part in the candidate's parts, completed when the call ends. */
  readonly part: Part & { functionCall: FunctionCall };
  readonly args: Record<string, unknown>;
  readonly name: string;
  readonly id?: string;
  /** The JSON path whose string value continues in the next partial argument. */
  continuingPath?: string;
  /** Characters received so far, for the size limit. */
  size: number;
  readonly callIndex?: number;
}

/** One candidate, by its `index`. */
interface CandidateState {
  readonly fields: Record<string, unknown>;
  role?: string;
  readonly parts: Part[];
  pending?: PendingCall;
}

const TEXT_KEYS = new Set(['text', 'thought', 'thoughtSignature']);
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Create an accumulator for one Gemini stream: push every chunk that
 * `ai.models.generateContentStream(...)` yields, then `finish()` returns one
 * `GenerateContentResponse` holding the whole model turn, ready for `host.handleModelResponse`
 * and for your history (`candidates[0].content`). Text parts are joined (thoughts apart from
 * answers), `functionCall` parts kept in order with their `thoughtSignature`, so the turn can be
 * sent back as is; the metadata of the last chunk wins. A call whose arguments arrive as typed
 * `partialArgs` over several parts (Vertex AI's `streamFunctionCallArguments`: a part with the
 * name and `willContinue: true`, parts of `partialArgs` by JSON path, and a part without
 * `willContinue` to end it) is assembled into one `functionCall` with `args`.
 *
 * `push` returns `text-delta`, `reasoning-delta` (thought parts) and `tool-call-*` events of the
 * first candidate; a call's whole `args` JSON is one `tool-call-delta` (none for `partialArgs` calls).
 *
 * @throws AdapterError `INVALID_TOOL_CALL` (a `functionCall` without a name),
 *   `INVALID_TOOL_ARGUMENTS` (a partial argument path it cannot place), `TOOL_ARGUMENTS_TOO_LARGE`
 *   (past `maxArgumentsLength`), `INCOMPLETE_STREAM` (no `finishReason`, or a call still
 *   continuing when the stream ended), naming the tool when there is one.
 *
 * @example
 * ```ts
 * const accumulator = createGeminiStreamAccumulator();
 * for await (const chunk of await ai.models.generateContentStream({ model, contents, config })) {
 *   for (const e of accumulator.push(chunk)) if (e.type === 'text-delta') process.stdout.write(e.text);
 * }
 * const response = accumulator.finish();
 * ```
 */
export function createGeminiStreamAccumulator(
  options?: ModelStreamOptions,
): ModelStreamAccumulator<GenerateContentResponse, GenerateContentResponse> {
  const limit = resolveMaxArgumentsLength(options);
  let prototype: object | undefined;
  let finished = false;
  let calls = 0;
  const top: Record<string, unknown> = {};
  const candidates = new Map<number, CandidateState>();

  const candidateOf = (index: number): CandidateState => {
    let state = candidates.get(index);
    if (!state) {
      state = { fields: {}, parts: [] };
      candidates.set(index, state);
    }
    return state;
  };

  const endPending = (state: CandidateState, events: ModelStreamEvent[] | undefined): void => {
    const pending = state.pending;
    if (!pending) return;
    state.pending = undefined;
    pending.part.functionCall.args = pending.args;
    if (events && pending.callIndex !== undefined) {
      events.push({ type: 'tool-call-end', index: pending.callIndex, call: callOf(pending.name, pending.id, pending.args) });
    }
  };

  const applyPartialArgs = (pending: PendingCall, partialArgs: readonly PartialArg[] | undefined): void => {
    for (const partial of partialArgs ?? []) {
      const path = typeof partial.jsonPath === 'string' ? partial.jsonPath : '';
      const segments = parseJsonPath(path);
      if (!segments) throw badPath(pending, path, 'is not a JSON path this adapter can place ($.a.b, $.a[0], $["a"])');
      let value: unknown;
      let size = path.length;
      if (typeof partial.stringValue === 'string') {
        const previous = pending.continuingPath === path ? readPath(pending.args, segments) : undefined;
        value = typeof previous === 'string' ? previous + partial.stringValue : partial.stringValue;
        size += partial.stringValue.length;
      } else if (typeof partial.numberValue === 'number') value = partial.numberValue;
      else if (typeof partial.boolValue === 'boolean') value = partial.boolValue;
      else if (partial.nullValue !== undefined) value = null;
      else {
        pending.continuingPath = partial.willContinue ? path : undefined;
        continue;
      }
      pending.size += size + 8;
      checkArgumentsLength(pending.size, limit, { toolName: pending.name, callId: pending.id });
      writePath(pending, segments, value);
      pending.continuingPath = partial.willContinue ? path : undefined;
    }
  };

  const handleFunctionCall = (state: CandidateState, part: Part, call: FunctionCall, events: ModelStreamEvent[] | undefined): void => {
    if (state.pending && !call.name) {
      applyPartialArgs(state.pending, call.partialArgs);
      if (call.willContinue !== true) endPending(state, events);
      return;
    }
    endPending(state, events); // a named call ends any call still continuing
    if (!call.name) {
      throw new AdapterError({
        code: 'INVALID_TOOL_CALL',
        message: 'The Gemini stream has a functionCall part without a name, so no tool can be called for it. Retry the turn.',
        provider: 'gemini',
        callId: call.id,
      });
    }
    const { partialArgs, willContinue, ...rest } = call;
    const functionCall: FunctionCall = { ...rest };
    const copy = { ...part, functionCall };
    state.parts.push(copy);
    const callIndex = events ? calls++ : undefined;
    const id = typeof call.id === 'string' && call.id ? call.id : undefined;
    if (events && callIndex !== undefined)
      events.push({ type: 'tool-call-start', index: callIndex, ...(id ? { id } : {}), name: call.name });
    if (willContinue === true || partialArgs) {
      const args = isRecord(call.args) ? structuredClone(call.args) : {};
      const size = JSON.stringify(args).length;
      checkArgumentsLength(size, limit, { toolName: call.name, callId: id });
      const pending: PendingCall = {
        part: copy,
        args,
        name: call.name,
        size,
        ...(id ? { id } : {}),
        ...(callIndex !== undefined ? { callIndex } : {}),
      };
      state.pending = pending;
      applyPartialArgs(pending, partialArgs);
      if (willContinue !== true) endPending(state, events);
      return;
    }
    const args = isRecord(call.args) ? call.args : {};
    const json = JSON.stringify(args);
    checkArgumentsLength(json.length, limit, { toolName: call.name, callId: id });
    if (events && callIndex !== undefined) {
      events.push({ type: 'tool-call-delta', index: callIndex, argumentsDelta: json });
      events.push({ type: 'tool-call-end', index: callIndex, call: callOf(call.name, id, args) });
    }
  };

  const handlePart = (state: CandidateState, part: Part, events: ModelStreamEvent[] | undefined): void => {
    if (isRecord(part['functionCall'])) {
      handleFunctionCall(state, part, part['functionCall'] as FunctionCall, events);
      return;
    }
    if (typeof part['text'] === 'string' && Object.keys(part).every((key) => TEXT_KEYS.has(key))) {
      const text = part['text'];
      if (text && events) events.push({ type: part['thought'] === true ? 'reasoning-delta' : 'text-delta', text });
      const last = state.parts.at(-1);
      if (
        last &&
        typeof last['text'] === 'string' &&
        Object.keys(last).every((key) => TEXT_KEYS.has(key)) &&
        last['thoughtSignature'] === undefined &&
        (last['thought'] === true) === (part['thought'] === true)
      ) {
        last['text'] = last['text'] + text;
        if (part['thoughtSignature'] !== undefined) last['thoughtSignature'] = part['thoughtSignature'];
        return;
      }
      if (text === '' && part['thoughtSignature'] === undefined) return; // an empty text part says nothing
    }
    state.parts.push({ ...part });
  };

  return {
    push(chunk) {
      if (finished) throw incompleteStream('This Gemini stream accumulator has already finished; create one per stream.');
      const events: ModelStreamEvent[] = [];
      prototype ??= Object.getPrototypeOf(chunk) as object;
      for (const [key, value] of Object.entries(chunk)) if (key !== 'candidates' && value !== undefined) top[key] = value;
      (chunk.candidates ?? []).forEach((candidate, position) => {
        const index = typeof candidate.index === 'number' ? candidate.index : position;
        const state = candidateOf(index);
        for (const [key, value] of Object.entries(candidate)) if (key !== 'content' && value !== undefined) state.fields[key] = value;
        if (candidate.content?.role) state.role = candidate.content.role;
        for (const part of candidate.content?.parts ?? []) handlePart(state, part as Part, index === 0 ? events : undefined);
      });
      return events;
    },

    finish() {
      if (finished) throw incompleteStream('This Gemini stream accumulator has already finished; create one per stream.');
      finished = true;
      if (prototype === undefined)
        throw incompleteStream('The Gemini stream ended before its first chunk (was the request aborted?). Retry the turn.');
      const ordered = [...candidates.entries()].sort(([a], [b]) => a - b);
      for (const [, state] of ordered) {
        if (state.pending) {
          throw incompleteStream(
            `The Gemini stream ended in the middle of the call to tool '${state.pending.name}' (a part still said willContinue), so no tool was called. Retry the turn.`,
            { toolName: state.pending.name, callId: state.pending.id },
          );
        }
        if (state.fields['finishReason'] === undefined) {
          throw incompleteStream(
            'The Gemini stream ended before a finishReason (cut off or aborted), so no tool was called. Retry the turn.',
          );
        }
      }
      const response = Object.create(prototype) as Record<string, unknown>;
      Object.assign(response, top, {
        candidates: ordered.map(([, state]) => ({ ...state.fields, content: { role: state.role ?? 'model', parts: state.parts } })),
      });
      return response as unknown as GenerateContentResponse;
    },
  };
}

/**
 * Read a Gemini stream to its end (`await ai.models.generateContentStream(...)`) and return one
 * `GenerateContentResponse` with the whole model turn, for `host.handleModelResponse` and your
 * history. `onEvent` sees text, thoughts and tool-call events as they arrive. See
 * {@link createGeminiStreamAccumulator} for what is assembled and checked.
 *
 * @example
 * ```ts
 * const stream = await ai.models.generateContentStream({ model, contents, config });
 * const response = await collectGeminiStream(stream, { onEvent: (e) => e.type === 'text-delta' && print(e.text) });
 * const { toolResults } = await host.handleModelResponse(response);
 * ```
 */
export async function collectGeminiStream(
  stream: AsyncIterable<GenerateContentResponse>,
  options: CollectModelStreamOptions = {},
): Promise<GenerateContentResponse> {
  return await collectModelStream(stream, createGeminiStreamAccumulator(options), options);
}

function callOf(
  name: string,
  id: string | undefined,
  args: Record<string, unknown>,
): { id?: string; name: string; arguments: Record<string, unknown> } {
  return { ...(id ? { id } : {}), name, arguments: structuredClone(args) };
}

function badPath(pending: PendingCall, path: string, what: string): AdapterError {
  return new AdapterError({
    code: 'INVALID_TOOL_ARGUMENTS',
    message: `A partial argument the model streamed for tool '${pending.name}' has the path '${path}', which ${what}; the tool was not called. Retry the turn.`,
    provider: 'gemini',
    toolName: pending.name,
    callId: pending.id,
  });
}

/** `$.a.b[0]['c d']` as `['a', 'b', 0, 'c d']`; undefined for anything else (filters, wildcards, the bare root). */
function parseJsonPath(path: string): Array<string | number> | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Array<string | number> = [];
  let rest = path.slice(1);
  while (rest) {
    let match = /^\.([^.[\]'"*]+)/.exec(rest) ?? /^\[(\d+)\]/.exec(rest);
    if (match) {
      segments.push(match[0].startsWith('[') ? Number(match[1]) : (match[1] as string));
    } else {
      match = /^\[(['"])((?:\\.|(?!\1)[^\\])*)\1\]/.exec(rest);
      if (!match) return undefined;
      segments.push(unescapeName(match[2] as string));
    }
    rest = rest.slice(match[0].length);
  }
  return segments.length > 0 ? segments : undefined;
}

function unescapeName(text: string): string {
  const simple: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) =>
    escape.length === 5 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : (simple[escape] ?? escape),
  );
}

function readPath(root: Record<string, unknown>, segments: ReadonlyArray<string | number>): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Set `value` at `segments` under the call's args, creating objects and arrays on the way (never holes, never a prototype). */
function writePath(pending: PendingCall, segments: ReadonlyArray<string | number>, value: unknown): void {
  let node: Record<string | number, unknown> | unknown[] = pending.args;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string | number;
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    if (Array.isArray(node) !== (typeof segment === 'number')) {
      throw badPath(
        pending,
        pathText(segments),
        `puts ${typeof segment === 'number' ? 'an index into an object' : 'a name into an array'}`,
      );
    }
    if (Array.isArray(node) && typeof segment === 'number' && segment > node.length) {
      throw badPath(pending, pathText(segments), `skips array items (index ${segment} of ${node.length})`);
    }
    const existing = Object.prototype.hasOwnProperty.call(node, segment) ? (node as Record<string | number, unknown>)[segment] : undefined;
    const child = last ? value : typeof existing === 'object' && existing !== null ? existing : typeof next === 'number' ? [] : {};
    if (UNSAFE_KEYS.has(String(segment))) {
      Object.defineProperty(node, segment, { value: child, enumerable: true, writable: true, configurable: true });
    } else {
      (node as Record<string | number, unknown>)[segment] = child;
    }
    if (!last) node = child as Record<string | number, unknown> | unknown[];
  }
}

function pathText(segments: ReadonlyArray<string | number>): string {
  return `$${segments.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`)).join('')}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
