import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client, CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';
import type { ContentPart, ModelAdapter, SamplingRequest, UiHooks } from '@toolhost/contract';

/** JSON-RPC error code the spec gives for "User rejected sampling request". */
export const SAMPLING_REJECTED_ERROR_CODE = -1;

/** Asks the user whether a server may use the host's model. */
export type SamplingApprovalHook = NonNullable<UiHooks['approveSampling']>;

/** Asks the user whether the generated answer may go back to the server. */
export type SamplingResultReviewHook = NonNullable<UiHooks['reviewSamplingResult']>;

/** Options of {@link createSamplingHandler} and {@link registerSampling}. */
export interface SamplingOptions {
  /** The server the client is connected to (for hooks and messages). */
  readonly serverName: string;
  /** The model adapter; its `createMessage` answers the request. */
  readonly adapter: Pick<ModelAdapter, 'createMessage' | 'provider'> | undefined;
  /** Approval hook; without one every request is declined. */
  readonly approve?: SamplingApprovalHook | undefined;
  /** Optional review of the generated answer before it is returned. */
  readonly reviewResult?: SamplingResultReviewHook | undefined;
}

function reject(serverName: string, message: string): ProtocolError {
  return new ProtocolError(SAMPLING_REJECTED_ERROR_CODE, `Sampling request from MCP server '${serverName}' declined: ${message}`);
}

type SamplingContent = CreateMessageRequest['params']['messages'][number]['content'];

function toPart(serverName: string, block: unknown): ContentPart {
  const content = block as { type?: string; text?: string; data?: string; mimeType?: string };
  if (content.type === 'text' && typeof content.text === 'string') return { type: 'text', text: content.text };
  if ((content.type === 'image' || content.type === 'audio') && typeof content.data === 'string') {
    return { type: 'inlineData', mimeType: content.mimeType ?? 'application/octet-stream', data: content.data };
  }
  throw new ProtocolError(
    -32602,
    `Sampling request from MCP server '${serverName}' holds '${String(content.type)}' content, which this host cannot send to a model.`,
  );
}

function toParts(serverName: string, content: SamplingContent): ContentPart | ContentPart[] {
  return Array.isArray(content) ? content.map((block) => toPart(serverName, block)) : toPart(serverName, content);
}

/** Converts an MCP `sampling/createMessage` request into the adapter's {@link SamplingRequest}. */
export function toSamplingRequest(serverName: string, params: CreateMessageRequest['params']): SamplingRequest {
  return {
    messages: params.messages.map((message) => ({ role: message.role, content: toParts(serverName, message.content) })),
    maxTokens: params.maxTokens,
    ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
    ...(params.modelPreferences !== undefined ? { modelPreferences: params.modelPreferences } : {}),
  };
}

/**
 * Builds the handler that answers `sampling/createMessage`: the approval hook sees the request
 * (approve, edit or deny), the adapter's `createMessage` generates, the optional review hook sees
 * the answer. Without a hook or without `createMessage` the request is declined with error code -1
 * and a message that says why.
 */
export function createSamplingHandler(
  options: SamplingOptions,
): (request: CreateMessageRequest, extra: { signal: AbortSignal }) => Promise<CreateMessageResult> {
  const { serverName } = options;
  return async (request, extra) => {
    const createMessage = options.adapter?.createMessage?.bind(options.adapter);
    if (!createMessage) {
      throw reject(serverName, 'the host model adapter cannot generate messages (it has no createMessage).');
    }
    if (!options.approve) {
      throw reject(serverName, 'the host has no sampling approval hook (UiHooks.approveSampling), so nothing may use the model.');
    }
    if (request.params.tools !== undefined || request.params.toolChoice !== undefined) {
      throw new ProtocolError(
        -32602,
        `Sampling request from MCP server '${serverName}' asks for tool use, which this host does not offer.`,
      );
    }
    let samplingRequest = toSamplingRequest(serverName, request.params);
    const decision = await options.approve({ serverName, request: samplingRequest, signal: extra.signal });
    if (decision.action === 'deny') throw reject(serverName, decision.reason ?? 'the user denied it.');
    if (decision.action === 'edit') samplingRequest = decision.value;
    let response = await createMessage(samplingRequest, { signal: extra.signal });
    if (options.reviewResult) {
      const review = await options.reviewResult({ serverName, request: samplingRequest, response, signal: extra.signal });
      if (review.action === 'deny') throw reject(serverName, review.reason ?? 'the user withheld the answer.');
      if (review.action === 'edit') response = review.value;
    }
    return {
      role: 'assistant',
      model: response.model,
      content: { type: 'text', text: response.text },
      ...(response.stopReason !== undefined ? { stopReason: response.stopReason } : {}),
    };
  };
}

/**
 * Installs {@link createSamplingHandler} on a client. The client must have been constructed with
 * the `sampling` capability (see `createClientFeatures`).
 */
export function registerSampling(client: Client, options: SamplingOptions): void {
  const handler = createSamplingHandler(options);
  client.setRequestHandler('sampling/createMessage', (request, ctx) => handler(request, { signal: ctx.mcpReq.signal }));
}
