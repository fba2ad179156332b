import { escapeControlText } from '@toolhost/contract';
import { packageRunnerOf } from './package-runner.js';

/**
 * What to do about a server that did not answer in time, as one sentence for an error message.
 * For a stdio command started through a package runner (`npx`, `uvx`, `pnpm dlx`...) it says that
 * a first start may still be downloading the package, and how to give it longer.
 *
 * @example
 * slowStartAdvice({ command: 'npx', args: ['-y', 'server-memory'] });
 * // 'It starts through npx, which may still be downloading the package on a first start: ...'
 */
export function slowStartAdvice(entry: { readonly command?: string | undefined; readonly args?: readonly string[] | undefined }): string {
  const runner = entry.command === undefined ? undefined : packageRunnerOf(entry.command, entry.args);
  if (runner !== undefined) {
    return `It starts through ${escapeControlText(runner)}, which may still be downloading the package on a first start: give it longer with "timeout" in its settings entry (for example 120000), or run the command once in a terminal.`;
  }
  return entry.command === undefined
    ? 'Check that the URL points at an MCP server; if it is slow to answer, raise "timeout" in its settings entry.'
    : 'If it needs longer to start, raise "timeout" in its settings entry.';
}
