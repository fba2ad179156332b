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

function formatServer(server: ServerStatusView, options: FormatStatusOptions): string[] {
  const lines = [`${ICONS[server.status] ?? '•'} ${server.name} (${server.status.toUpperCase()})`];
  if (server.description) lines.push(`  Description: ${server.description}`);
  if (server.command !== undefined) lines.push(`  Command: ${server.command}`);
  if (server.url !== undefined) lines.push(`  URL: ${server.url} (${server.transport})`);
  if (server.protocolVersion !== undefined) lines.push(`  Protocol: MCP ${server.protocolVersion}`);
  if (server.cwd !== undefined) lines.push(`  Working Directory: ${server.cwd}`);
  if (server.timeoutConfigured) lines.push(`  Timeout: ${server.timeoutMs}ms`);
  if (server.trust) lines.push('  Trusted: yes (tools run without confirmation)');
  if (server.envNames.length > 0) lines.push(`  Environment: ${server.envNames.join(', ')} (values hidden)`);
  if (server.headerNames.length > 0) lines.push(`  Headers: ${server.headerNames.join(', ')} (values hidden)`);
  if (server.tools.length > 0) {
    if (options.descriptions || options.schemas) {
      lines.push('  Tools:');
      for (const tool of server.tools) {
        lines.push(`    - ${tool.name}${options.descriptions && tool.description ? `: ${tool.description}` : ''}`);
        if (options.schemas) lines.push(indent(JSON.stringify(tool.inputSchema, null, 2), '        '));
      }
    } else {
      lines.push(`  Tools: ${server.tools.map((tool) => tool.name).join(', ')}`);
    }
  }
  if (server.extensions.length > 0) lines.push(`  Extensions: ${server.extensions.join(', ')}`);
  for (const tool of server.excludedTools) lines.push(`  ⚠ Tool ${JSON.stringify(tool.serverToolName)} left out: ${tool.reason}`);
  if (server.prompts.length > 0) lines.push(`  Prompts: ${server.prompts.map((name) => `/${name}`).join(', ')}`);
  if (server.resourceCount > 0) lines.push(`  Resources: ${server.resourceCount}`);
  if (server.needsAuthentication) lines.push(`  Authentication: required — run /mcp auth ${server.name}`);
  if (server.lastError !== undefined) lines.push(`  Error: ${server.lastError}`);
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
      ? [options.serverName ? `No MCP server named "${options.serverName}" is configured.` : 'No MCP servers configured.']
      : servers.map((server) => formatServer(server, options).join('\n'));
  const warnings = options.serverName ? [] : status.warnings.map((warning) => `  ⚠ ${warning.message}`);
  return [
    'MCP Servers Status:',
    '',
    ...blocks.flatMap((block) => [block, '']),
    `Discovery State: ${status.discoveryState.toUpperCase()}`,
    ...(warnings.length > 0 ? ['', 'Warnings:', ...warnings] : []),
  ].join('\n');
}
