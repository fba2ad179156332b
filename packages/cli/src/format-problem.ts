import { escapeControlText } from '@toolhost/contract';

/**
 * One line for stderr: `Error [CODE]: message`, with line breaks of the message folded and any
 * other control, BiDi or zero-width character (server-sent text) written as a `\uXXXX` escape.
 */
export function formatProblem(kind: 'Error' | 'Warning', code: string, message: string): string {
  return `${kind} [${code}]: ${escapeControlText(message.replace(/\s*\r?\n\s*/g, ' '))}`;
}
