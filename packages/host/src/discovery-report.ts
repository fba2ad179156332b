import { formatToolhostCommand, quoteShellWord } from '@toolhost/config';
import { escapeControlText } from '@toolhost/contract';
import { McpServerStatus } from '@toolhost/discovery';
import type { HostStatus, ServerStatusView } from './host-status.js';
import { untrustedProjectMessage } from './host-warnings.js';
import type { ResolvedServer } from './resolve-servers.js';

/** Longest error text of one server quoted in its reason, before escaping (a server's error can quote what it sent). */
const MAX_ERROR_LENGTH = 600;

/** Longest line of the summary and longest reason, before escaping (server names come from settings files, which a cloned project brings). */
const MAX_LINE_LENGTH = 2000;

/** Most server names the summary's first line lists; the rest are counted. */
const MAX_LISTED_NAMES = 10;

/** Most settings warnings the summary lists; the rest are counted. */
const MAX_LISTED_WARNINGS = 10;

/** Warnings the summary does not repeat: they are the reasons of skipped servers. */
const SERVER_WARNING_CODES = new Set(['UNTRUSTED_PROJECT', 'CHANGED_SINCE_TRUSTED']);

/** A server that connected during discovery. */
export interface ConnectedServer {
  /** The server's name as configured. */
  readonly serverName: string;
  /** How many of its tools are registered. */
  readonly toolCount: number;
}

/** A configured server that is not connected after discovery, and why. */
export interface SkippedServer {
  /** The server's name as configured (not escaped: escape it before printing, or print `reason`). */
  readonly serverName: string;
  /** Its status: `BLOCKED`, `DISABLED`, `DISCONNECTED`, ... */
  readonly status: string;
  /**
   * Stable code of why: `UNTRUSTED_PROJECT`, `CHANGED_SINCE_TRUSTED`, `EXCLUDED`, `NOT_ALLOWED`
   * (blocked by the settings), `DISABLED`, `AUTH_REQUIRED` (the user must sign in), or the
   * connection error's code (`SPAWN_FAILED`, `CONNECTION_CLOSED`, `DISCOVERY_TIMEOUT`, ...), as
   * `ServerStatusView.errorCode`. Match on this, never on `reason`.
   */
  readonly code: string;
  /**
   * One line naming the server, what happened and what to do (the command that trusts the
   * folder, enables the server or signs in), escaped with `escapeControlText`: safe to print.
   */
  readonly reason: string;
}

/**
 * What `McpToolHost.discover()` found: the `/mcp` view ({@link HostStatus}), plus the tools the
 * model gets, the servers that connected, those that did not and why, and all of it as a few plain
 * lines to print (`summary`, also `String(report)`), so that a model offered no tools never goes
 * unexplained.
 */
export interface DiscoveryReport extends HostStatus {
  /** How many tools `listTools()` offers the model now (without a filter). */
  readonly toolCount: number;
  /** The servers that connected, in settings order. */
  readonly connected: readonly ConnectedServer[];
  /** The configured servers that did not connect, in settings order, each with why and what to do. */
  readonly skipped: readonly SkippedServer[];
  /**
   * A first line saying how many tools the model gets from how many servers ("the model gets no
   * tools" when none), then one line per skipped server (servers of one untrusted project folder
   * share a line) and per settings problem, each with what to do. Escaped: safe to print.
   *
   * @example
   * ```text
   * MCP: the model gets no tools (0 of 1 configured server connected); skipped:
   *   - MCP server "files" comes from the settings of the project folder /home/me/app, which is not trusted, so it is not started. If you trust this folder, run "npx @toolhost/cli trust" in /home/me/app.
   * ```
   */
  readonly summary: string;
  /** The {@link DiscoveryReport.summary}. */
  toString(): string;
}

/** Inputs of {@link buildDiscoveryReport}. */
export interface DiscoveryReportInput {
  /** The status after discovery. */
  readonly status: HostStatus;
  /** The configured servers (for the untrusted folder of a blocked one). */
  readonly servers: ReadonlyMap<string, ResolvedServer>;
  /** The number of tools offered to the model. */
  readonly toolCount: number;
  /** The settings folder the `toolhost` command line must be pointed at, when not the default. */
  readonly appDir: string | undefined;
}

/** Build the report of one `discover()`. */
export function buildDiscoveryReport(input: DiscoveryReportInput): DiscoveryReport {
  const { status, toolCount } = input;
  const connected: ConnectedServer[] = [];
  const skipped: SkippedServer[] = [];
  for (const server of status.servers) {
    if (server.status === McpServerStatus.CONNECTED) connected.push({ serverName: server.name, toolCount: server.tools.length });
    else skipped.push(skippedServer(server, input.servers.get(server.name), input.appDir));
  }
  const summary = [
    headline(status.servers.length, toolCount, connected),
    ...skippedLines(skipped, input.servers),
    ...warningLines(status),
  ].join('\n');
  const report: DiscoveryReport = { ...status, toolCount, connected, skipped, summary };
  // Not enumerable: `console.log(report)` and a deep equality keep to the data.
  Object.defineProperty(report, 'toString', { value: () => summary, enumerable: false });
  return report;
}

function headline(configured: number, toolCount: number, connected: readonly ConnectedServer[]): string {
  if (configured === 0) return 'MCP: no servers configured, so the model gets no MCP tools.';
  const names = connected.length === 0 ? '' : `: ${listNames(connected.map((server) => server.serverName))}`;
  const tools = toolCount === 0 ? 'no tools' : plural(toolCount, 'tool');
  const ending = connected.length === configured ? '.' : '; skipped:';
  return `MCP: the model gets ${tools} (${connected.length} of ${plural(configured, 'configured server')} connected${names})${ending}`;
}

/** One line per skipped server; the servers of one untrusted project folder share one. */
function skippedLines(skipped: readonly SkippedServer[], servers: ReadonlyMap<string, ResolvedServer>): string[] {
  const lines: string[] = [];
  const folders = new Set<string>();
  for (const entry of skipped) {
    const untrusted = entry.code === 'UNTRUSTED_PROJECT' ? servers.get(entry.serverName)?.untrustedProject : undefined;
    if (!untrusted) {
      lines.push(`  - ${entry.reason}`);
      continue;
    }
    if (folders.has(untrusted.folder)) continue;
    folders.add(untrusted.folder);
    const names = skipped
      .filter((other) => other.code === 'UNTRUSTED_PROJECT' && servers.get(other.serverName)?.untrustedProject?.folder === untrusted.folder)
      .map((other) => other.serverName);
    lines.push(
      `  - ${escapeControlText(untrustedProjectMessage(names, untrusted.folder, untrusted.trustCommand), { maxLength: MAX_LINE_LENGTH })}`,
    );
  }
  return lines;
}

/** The settings problems that are not a skipped server's reason (an entry that could not be read, ...). */
function warningLines(status: HostStatus): string[] {
  const warnings = status.warnings.filter((warning) => !SERVER_WARNING_CODES.has(warning.code));
  if (warnings.length === 0) return [];
  const shown = warnings
    .slice(0, MAX_LISTED_WARNINGS)
    .map((warning) => `  - ${escapeControlText(warning.message, { maxLength: MAX_LINE_LENGTH })}`);
  const more = warnings.length - shown.length;
  return [
    'MCP settings warnings:',
    ...shown,
    ...(more > 0 ? [`  - and ${plural(more, 'more warning')}: see host.servers.status().warnings.`] : []),
  ];
}

function skippedServer(server: ServerStatusView, resolved: ResolvedServer | undefined, appDir: string | undefined): SkippedServer {
  const name = `"${server.name}"`;
  const error = server.lastError === undefined ? undefined : escapeControlText(server.lastError, { maxLength: MAX_ERROR_LENGTH });
  let code: string;
  let reason: string;
  if (server.status === McpServerStatus.DISABLED) {
    code = 'DISABLED';
    const enable = formatToolhostCommand(`mcp enable ${quoteShellWord(server.name)}`, appDir, { runner: 'npx' });
    reason = `MCP server ${name} is disabled, so it is not started; run "${enable}" to enable it.`;
  } else if (server.status === McpServerStatus.BLOCKED) {
    code = server.errorCode ?? 'SERVER_BLOCKED';
    // The settings' own sentence: it names the server and, for folder trust, the command.
    reason = resolved?.blockedReason ?? error ?? `MCP server ${name} is blocked by the settings, so it is not started.`;
  } else {
    code = server.needsAuthentication ? 'AUTH_REQUIRED' : (server.errorCode ?? 'NOT_CONNECTED');
    reason =
      error === undefined
        ? `MCP server ${name} is not connected (${server.status}).`
        : error.includes(name) || error.includes(`'${server.name}'`)
          ? error
          : `MCP server ${name} is not connected: ${error}`;
  }
  return { serverName: server.name, status: server.status, code, reason: escapeControlText(reason, { maxLength: MAX_LINE_LENGTH }) };
}

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED_NAMES).map((name) => escapeControlText(`"${name}"`, { maxLength: 200 }));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
