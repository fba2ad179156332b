/** One line for stderr: `Error [CODE]: message`, with line breaks of the message folded. */
export function formatProblem(kind: 'Error' | 'Warning', code: string, message: string): string {
  return `${kind} [${code}]: ${message.replace(/\s*\r?\n\s*/g, ' ')}`;
}
