import type { ConfirmationOption, ConfirmationOutcome, ConfirmationRequest } from '@toolhost/contract';
import { ConfirmationError } from './confirmation-error.js';

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The outcome a `confirm` hook's answer stands for: the id of one of the request's options, or
 * one of the option objects (the very object, or an object with the same `id`).
 *
 * @throws ConfirmationError `INVALID_CONFIRMATION_ANSWER` for anything else, naming the accepted values.
 */
export function resolveConfirmationAnswer(request: ConfirmationRequest, answer: unknown): ConfirmationOutcome {
  const id = typeof answer === 'object' && answer !== null ? (answer as Partial<ConfirmationOption>).id : answer;
  const option = request.options.find((candidate) => candidate.id === id);
  if (option) return option.id;
  const accepted = request.options.map((candidate) => `'${candidate.id}'`).join(', ');
  throw new ConfirmationError({
    code: 'INVALID_CONFIRMATION_ANSWER',
    serverName: request.mcpDetails.serverName,
    toolName: request.mcpDetails.toolName,
    message:
      `The confirm hook answered ${describe(answer).slice(0, 200)} for tool '${request.mcpDetails.toolName}' of MCP server '${request.mcpDetails.serverName}', ` +
      `which is not one of the offered options. Answer with an option id (${accepted}) or with one of request.options; the tool was not called.`,
  });
}
