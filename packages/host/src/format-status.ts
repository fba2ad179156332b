import { escapeControlText } from '@toolhost/contract';
import { McpServerStatus } from '@toolhost/discovery';
import type { FormatStatusOptions, HostStatus, ServerStatusView } from './host-status.js';

const ICONS: Record<string, string> = {
  [McpServerStatus.CONNECTED]: '📡',
  [McpServerStatus.CONNECTING]: '🔄',
  [McpServerStatus.DISCONNECTING]: '⏏️',
  [McpServerStatus.DISCONNECTED]: '🔌',
  [McpServerStatus.BLOCKED]: '⛔',
  [McpServerStatus.DISABLED]: '○',
};

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

/** Server- or settings-supplied text on one line, control, BiDi, zero-width and tag characters escaped. */
function safe(text: string): string {
  return escapeControlText(text);
}

/**
 * A tool's input schema as indented JSON. `JSON.stringify` escapes C0 controls inside strings but
 * not DEL, C1, BiDi, zero-width or tag characters: those are escaped here; the line breaks of the
 * indentation are kept.
 */
function schemaText(schema: unknown): string {
  return escapeControlText(JSON.stringify(schema, null, 2) ?? 'undefined', { multiline: true });
}

function formatServer(server: ServerStatusView, options: FormatStatusOptions): string[] {
  const lines = [`${ICONS[server.status] ?? '•'} ${safe(server.name)} (${server.status.toUpperCase()})`];
  if (server.description) lines.push(`  Description: ${safe(server.description)}`);
  if (server.command !== undefined) lines.push(`  Command: ${safe(server.command)}`);
  if (server.url !== undefined) lines.push(`  URL: ${safe(server.url)} (${server.transport})`);
  if (server.protocolVersion !== undefined) lines.push(`  Protocol: MCP ${safe(server.protocolVersion)}`);
  if (server.cwd !== undefined) lines.push(`  Working Directory: ${safe(server.cwd)}`);
  if (server.timeoutConfigured) lines.push(`  Timeout: ${server.timeoutMs}ms`);
  if (server.trust) lines.push('  Trusted: yes (tools run without confirmation)');
  if (server.envNames.length > 0) lines.push(`  Environment: ${server.envNames.map(safe).join(', ')} (values hidden)`);
  if (server.headerNames.length > 0) lines.push(`  Headers: ${server.headerNames.map(safe).join(', ')} (values hidden)`);
  if (server.tools.length > 0) {
    if (options.descriptions || options.schemas) {
      lines.push('  Tools:');
      for (const tool of server.tools) {
        lines.push(`    - ${safe(tool.name)}${options.descriptions && tool.description ? `: ${safe(tool.description)}` : ''}`);
        if (options.schemas) lines.push(indent(schemaText(tool.inputSchema), '        '));
      }
    } else {
      lines.push(`  Tools: ${server.tools.map((tool) => safe(tool.name)).join(', ')}`);
    }
  }
  if (server.extensions.length > 0) lines.push(`  Extensions: ${server.extensions.map(safe).join(', ')}`);
  for (const tool of server.excludedTools)
    lines.push(`  ⚠ Tool ${safe(JSON.stringify(tool.serverToolName))} left out: ${safe(tool.reason)}`);
  if (server.prompts.length > 0) lines.push(`  Prompts: ${server.prompts.map((name) => `/${safe(name)}`).join(', ')}`);
  if (server.resourceCount > 0) lines.push(`  Resources: ${server.resourceCount}`);
  if (server.skillCount > 0) lines.push(`  Skills: ${server.skillCount} (${server.skills.map((name) => `/${safe(name)}`).join(', ')})`);
  for (const skill of server.excludedSkills)
    lines.push(
      `  ⚠ ${skill.name !== undefined ? `Skill "${safe(skill.name)}"` : skill.uri !== undefined ? `Skill ${safe(skill.uri)}` : 'Skills'} left out: ${safe(skill.reason)}`,
    );
  if (server.needsAuthentication) lines.push(`  Authentication: required — run /mcp auth ${safe(server.name)}`);
  if (server.lastError !== undefined) lines.push(`  Error: ${safe(server.lastError)}`);
  return lines;
}

/**
 * Render a {@link HostStatus} as the seeds' `/mcp` view: one block per server with its status
 * icon and state, command or URL, working directory, timeout, tools and last error, then the
 * discovery state. Environment and header values are never shown (only their names).
 *
 * @example
 * ```text
 * MCP Servers Status:
 *
 * 📡 pythonTools (CONNECTED)
 *   Command: python -m my_mcp_server --port 8080
 *   Working Directory: ./mcp-servers/python
 *   Timeout: 15000ms
 *   Tools: calculate_sum, file_analyzer, data_processor
 *
 * Discovery State: COMPLETED
 * ```
 */
export function formatStatus(status: HostStatus, options: FormatStatusOptions = {}): string {
  const servers = options.serverName ? status.servers.filter((server) => server.name === options.serverName) : status.servers;
  const blocks =
    servers.length === 0
      ? [options.serverName ? `No MCP server named "${safe(options.serverName)}" is configured.` : 'No MCP servers configured.']
      : servers.map((server) => formatServer(server, options).join('\n'));
  const warnings = options.serverName ? [] : status.warnings.map((warning) => `  ⚠ ${safe(warning.message)}`);
  return [
    'MCP Servers Status:',
    '',
    ...blocks.flatMap((block) => [block, '']),
    `Discovery State: ${status.discoveryState.toUpperCase()}`,
    ...(warnings.length > 0 ? ['', 'Warnings:', ...warnings] : []),
  ].join('\n');
}
