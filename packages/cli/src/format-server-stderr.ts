import { escapeControlText } from '@toolhost/contract';
import type { StderrEvent } from '@toolhost/discovery';

/** Longest stderr line printed by `--debug`, before escaping. */
const MAX_PRINTED_LINE = 1000;

/**
 * One stderr event of a stdio server as `--debug` prints it, in Gemini CLI's debug format:
 * `[DEBUG] [MCP STDERR (<server>)]: <line>`, with the server name and the line escaped (a server
 * cannot move the cursor, clear the screen or forge another line) and the line cut at 1000
 * characters. A count of dropped lines says so instead.
 *
 * @example
 * formatServerStderr('fs', { kind: 'line', line: 'listening' }); // '[DEBUG] [MCP STDERR (fs)]: listening\n'
 */
export function formatServerStderr(serverName: string, event: StderrEvent): string {
  const prefix = `[DEBUG] [MCP STDERR (${escapeControlText(serverName, { maxLength: 100 })})]:`;
  return event.kind === 'line'
    ? `${prefix} ${escapeControlText(event.line, { maxLength: MAX_PRINTED_LINE })}\n`
    : `${prefix} (${event.count} more line${event.count === 1 ? '' : 's'} dropped: the server wrote too many in one second)\n`;
}
