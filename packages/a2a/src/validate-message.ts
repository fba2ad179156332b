import { isAbsolute } from 'node:path';
import { stat } from 'node:fs/promises';
import type { Message } from '@a2a-js/sdk';
import type { ClaimedConfirmation } from './agent-executor.js';
import { DEVELOPMENT_TOOL_EXTENSION_URI } from './development-tool.js';

/** JSON-RPC error codes the server answers with. */
export const RPC_ERRORS = {
  /** The body is not JSON. */
  parseError: -32700,
  /** Not a JSON-RPC request, an oversized request, or a request the task's state does not allow. */
  invalidRequest: -32600,
  /** No such method. */
  methodNotFound: -32601,
  /** The params are malformed. */
  invalidParams: -32602,
  /** Something failed inside the agent. */
  internalError: -32603,
  /** A2A: the task does not exist. */
  taskNotFound: -32001,
  /** A2A: push notifications are off. */
  pushNotificationNotSupported: -32003,
  /** A2A: the content type (a FilePart) is not supported. */
  contentTypeNotSupported: -32005,
} as const;

/** A JSON-RPC error to answer with: nothing was changed. */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** Largest number of parts one message may have. */
export const MAX_MESSAGE_PARTS = 64;

const invalid = (message: string): never => {
  throw new RpcError(RPC_ERRORS.invalidParams, message);
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalId(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    invalid(`${field} must be a non-empty string of at most 200 characters`);
  return value as string;
}

/** A message checked for shape: its text, its confirmations and its settings. */
export interface CheckedMessage {
  /** The message as sent. */
  readonly message: Message;
  /** The text of its TextParts, joined by line feeds. */
  readonly text: string;
  /** Its ToolCallConfirmation DataParts. */
  readonly confirmations: readonly ClaimedConfirmation[];
  /** `workspace_path` of its AgentSettings, when it has some. */
  readonly workspacePath: string | undefined;
}

/**
 * Check the shape of `params.message` of `message/stream` and `message/send`: a user message
 * with a `messageId` and 1 to 64 parts, each a TextPart or a DataPart that is a
 * `ToolCallConfirmation` (`{ tool_call_id, selected_option_id }`); FileParts are refused.
 *
 * @throws RpcError `invalidParams` (or `contentTypeNotSupported` for a FilePart), naming the field.
 */
export function checkMessage(params: unknown): CheckedMessage {
  if (!isPlainObject(params)) invalid('params must be an object with a message');
  const message = (params as Record<string, unknown>)['message'];
  if (!isPlainObject(message)) invalid('params.message must be an object');
  const m = message as Record<string, unknown>;
  if (m['kind'] !== 'message') invalid('params.message.kind must be "message"');
  if (m['role'] !== 'user') invalid('params.message.role must be "user"');
  optionalId(m['messageId'], 'params.message.messageId');
  if (m['messageId'] === undefined) invalid('params.message.messageId is required');
  optionalId(m['taskId'], 'params.message.taskId');
  optionalId(m['contextId'], 'params.message.contextId');
  if (m['metadata'] !== undefined && !isPlainObject(m['metadata'])) invalid('params.message.metadata must be an object');
  const parts = m['parts'];
  if (!Array.isArray(parts) || parts.length === 0) invalid('params.message.parts must be a non-empty array');
  if ((parts as unknown[]).length > MAX_MESSAGE_PARTS) invalid(`params.message.parts has more than ${MAX_MESSAGE_PARTS} parts`);
  const texts: string[] = [];
  const confirmations: ClaimedConfirmation[] = [];
  (parts as unknown[]).forEach((part, index) => {
    const where = `params.message.parts[${index}]`;
    if (!isPlainObject(part)) return invalid(`${where} must be an object`);
    if (part['metadata'] !== undefined && !isPlainObject(part['metadata'])) return invalid(`${where}.metadata must be an object`);
    switch (part['kind']) {
      case 'text':
        if (typeof part['text'] !== 'string') return invalid(`${where}.text must be a string`);
        texts.push(part['text']);
        return undefined;
      case 'data': {
        const data = part['data'];
        if (!isPlainObject(data)) return invalid(`${where}.data must be an object`);
        const toolCallId = data['tool_call_id'];
        const optionId = data['selected_option_id'];
        if (typeof toolCallId !== 'string' || toolCallId === '' || typeof optionId !== 'string' || optionId === '') {
          return invalid(
            `${where} is a DataPart but not a ToolCallConfirmation: it needs "tool_call_id" and "selected_option_id" strings (the only DataPart this agent accepts)`,
          );
        }
        if (confirmations.some((claim) => claim.toolCallId === toolCallId)) {
          return invalid(`${where} answers tool call ${JSON.stringify(toolCallId).slice(0, 200)} a second time in the same message`);
        }
        confirmations.push({ toolCallId, optionId });
        return undefined;
      }
      case 'file':
        throw new RpcError(
          RPC_ERRORS.contentTypeNotSupported,
          `${where} is a FilePart; this agent takes text and ToolCallConfirmation DataParts only`,
        );
      default:
        return invalid(`${where}.kind must be "text", "data" or "file"`);
    }
  });
  const text = texts.join('\n');
  if (confirmations.length > 0 && text.trim() !== '') {
    invalid('a message that answers a confirmation carries ToolCallConfirmation DataParts only, no text');
  }
  return { message: message as unknown as Message, text, confirmations, workspacePath: readWorkspacePath(m['metadata']) };
}

/**
 * `workspace_path` of the AgentSettings in a message's metadata: `metadata[URI].workspace_path`
 * (the RFC), or Gemini CLI's `metadata.coderAgent` `{ kind: 'agent-settings', workspacePath }`.
 */
function readWorkspacePath(metadata: unknown): string | undefined {
  if (!isPlainObject(metadata)) return undefined;
  const settings = metadata[DEVELOPMENT_TOOL_EXTENSION_URI];
  if (settings !== undefined) {
    if (!isPlainObject(settings))
      return invalid(`params.message.metadata["${DEVELOPMENT_TOOL_EXTENSION_URI}"] must be an AgentSettings object`);
    const path = settings['workspace_path'];
    if (path === undefined) return undefined;
    if (typeof path !== 'string') return invalid('AgentSettings.workspace_path must be a string');
    return path;
  }
  const coderAgent = metadata['coderAgent'];
  if (isPlainObject(coderAgent) && coderAgent['kind'] === 'agent-settings' && typeof coderAgent['workspacePath'] === 'string') {
    return coderAgent['workspacePath'];
  }
  return undefined;
}

/**
 * Check a workspace path: absolute, an existing folder.
 *
 * @throws RpcError `invalidParams` naming the path.
 */
export async function checkWorkspacePath(path: string): Promise<void> {
  if (!isAbsolute(path)) invalid(`AgentSettings.workspace_path ${JSON.stringify(path).slice(0, 300)} is not an absolute path`);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory()) invalid(`AgentSettings.workspace_path ${JSON.stringify(path).slice(0, 300)} is not an existing folder`);
}
