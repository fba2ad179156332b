import { escapeControlText } from '@toolhost/contract';
import type { McpServerConfig, McpTransportType } from '@toolhost/config';
import { CliError } from './cli-error.js';

/** The flags and arguments of `mcp add`, as typed. */
export interface AddCommandInput {
  /** `stdio`, `sse` or `http`. */
  readonly transport: McpTransportType;
  /** The command (stdio) or the URL (sse, http). */
  readonly commandOrUrl: string;
  /** Arguments of the command. */
  readonly args: readonly string[];
  /** `-e KEY=value` values. */
  readonly env: readonly string[];
  /** `-H "Name: value"` values. */
  readonly headers: readonly string[];
  /** `--timeout` value. */
  readonly timeout?: string | undefined;
  /** `--trust`. */
  readonly trust?: boolean | undefined;
  /** `--description` value. */
  readonly description?: string | undefined;
  /** `--include-tools` values (each comma-separated); empty when the flag was not given, `['']` for `--include-tools ""`. */
  readonly includeTools: readonly string[];
  /** `--exclude-tools` values (each comma-separated); empty when the flag was not given. */
  readonly excludeTools: readonly string[];
}

/**
 * Turns `mcp add` input into a server entry: stdio → `{ command, args, env }`, sse/http →
 * `{ url, type, headers }`, plus the shared fields. Throws a `USAGE` `CliError` for malformed values.
 */
export function buildServerEntry(input: AddCommandInput): McpServerConfig {
  const entry: McpServerConfig = {};
  if (input.transport === 'stdio') {
    if (input.headers.length > 0)
      throw new CliError({
        code: 'USAGE',
        message: '--header is only used by sse and http servers; pass --transport sse or --transport http.',
      });
    entry.command = input.commandOrUrl;
    if (input.args.length > 0) entry.args = [...input.args];
    if (input.env.length > 0) entry.env = Object.fromEntries(input.env.map(parseEnvAssignment));
  } else {
    if (input.args.length > 0)
      throw new CliError({
        code: 'USAGE',
        message: `Server arguments (${input.args.join(' ')}) are only used by stdio servers; a ${input.transport} server takes just a URL.`,
      });
    if (input.env.length > 0)
      throw new CliError({ code: 'USAGE', message: '--env is only used by stdio servers; send values to a remote server with --header.' });
    entry.url = input.commandOrUrl;
    entry.type = input.transport;
    if (input.headers.length > 0) entry.headers = Object.fromEntries(input.headers.map(parseHeader));
  }
  if (input.timeout !== undefined) entry.timeout = parseTimeout(input.timeout);
  if (input.trust) entry.trust = true;
  if (input.description !== undefined) entry.description = input.description;
  // A flag that was given writes its list, even an empty one: `--include-tools ""` means no tool
  // (an empty includeTools is taken literally), never "every tool"; an empty exclude list is harmless.
  if (input.includeTools.length > 0) entry.includeTools = splitList(input.includeTools);
  if (input.excludeTools.length > 0) entry.excludeTools = splitList(input.excludeTools);
  return entry;
}

/**
 * `KEY=value` → `[KEY, value]`; the value keeps any further `=` (`K=a=b` → `a=b`). A malformed
 * one is refused without echoing it: it may hold a secret (`-e "TOKEN sk-..."`, a missing `=`).
 */
export function parseEnvAssignment(text: string): [string, string] {
  const index = text.indexOf('=');
  const key = index < 0 ? '' : text.slice(0, index).trim();
  if (key === '' || /\s/.test(key)) {
    const why = index < 0 ? 'one has no "="' : key === '' ? 'one has no name before "="' : 'the name of one has a space';
    throw new CliError({ code: 'USAGE', message: `--env must look like KEY=value, but ${why} (its value is not shown here).` });
  }
  return [key, text.slice(index + 1)];
}

/**
 * `Name: value` → `[Name, value]`, split at the first colon and trimmed. A malformed one is
 * refused without echoing it: it may hold a secret (`-H "Authorization Bearer sk-..."`).
 */
export function parseHeader(text: string): [string, string] {
  const index = text.indexOf(':');
  const name = index < 0 ? '' : text.slice(0, index).trim();
  const value = index < 0 ? '' : text.slice(index + 1).trim();
  if (name === '' || value === '' || /\s/.test(name)) {
    const why =
      index < 0
        ? 'one has no ":"'
        : name === ''
          ? 'one has no name before ":"'
          : value === ''
            ? `"${escapeControlText(name, { maxLength: 100 })}" has no value`
            : 'the name of one has a space';
    throw new CliError({ code: 'USAGE', message: `--header must look like "Name: value", but ${why} (its value is not shown here).` });
  }
  return [name, value];
}

function parseTimeout(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value <= 0) {
    throw new CliError({ code: 'USAGE', message: `--timeout "${text}" must be a whole number of milliseconds greater than 0.` });
  }
  return value;
}

function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
