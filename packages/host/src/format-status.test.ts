import { describe, expect, it } from 'vitest';
import { formatStatus } from './format-status.js';
import type { HostStatus, ServerStatusView } from './host-status.js';

const base: ServerStatusView = {
  name: 'pythonTools',
  status: 'CONNECTED',
  transport: 'stdio',
  command: 'python -m my_mcp_server --port 8080',
  cwd: './mcp-servers/python',
  timeoutMs: 15000,
  timeoutConfigured: true,
  trust: false,
  envNames: ['API_KEY'],
  headerNames: [],
  tools: [
    { name: 'calculate_sum', serverToolName: 'calculate_sum', description: 'Adds', inputSchema: { type: 'object' } },
    { name: 'file_analyzer', serverToolName: 'file_analyzer', description: '', inputSchema: { type: 'object' } },
  ],
  extensions: [],
  excludedTools: [],
  prompts: ['poem-writer'],
  resourceCount: 0,
  skills: [],
  skillCount: 0,
  excludedSkills: [],
  needsAuthentication: false,
};

const status: HostStatus = {
  discoveryState: 'COMPLETED',
  warnings: [],
  servers: [
    base,
    {
      ...base,
      name: 'remote',
      status: 'DISCONNECTED',
      transport: 'http',
      command: undefined,
      url: 'https://example.test/mcp',
      cwd: undefined,
      timeoutConfigured: false,
      envNames: [],
      headerNames: ['Authorization'],
      tools: [],
      prompts: [],
      lastError: 'Connection refused',
      needsAuthentication: true,
    } as ServerStatusView,
  ],
};

describe('formatStatus', () => {
  it('renders the seeds\u2019 /mcp view', () => {
    const text = formatStatus(status);
    expect(text).toContain('MCP Servers Status:');
    expect(text).toContain(
      '📡 pythonTools (CONNECTED)\n  Command: python -m my_mcp_server --port 8080\n  Working Directory: ./mcp-servers/python\n  Timeout: 15000ms',
    );
    expect(text).toContain('  Tools: calculate_sum, file_analyzer');
    expect(text).toContain('🔌 remote (DISCONNECTED)\n  URL: https://example.test/mcp (http)');
    expect(text).toContain('  Authentication: required — run /mcp auth remote\n  Error: Connection refused');
    expect(text).toContain('Headers: Authorization (values hidden)');
    expect(text.endsWith('Discovery State: COMPLETED')).toBe(true);
    expect(text).not.toContain('Timeout: 15000ms\n  Tools: \n');
  });

  it('lists descriptions and schemas on request, and filters by server', () => {
    const text = formatStatus(status, { descriptions: true, schemas: true, serverName: 'pythonTools' });
    expect(text).toContain('    - calculate_sum: Adds');
    expect(text).toContain('"type": "object"');
    expect(text).not.toContain('remote');
  });

  it('says so when nothing is configured', () => {
    expect(formatStatus({ discoveryState: 'NOT_STARTED', servers: [], warnings: [] })).toContain('No MCP servers configured.');
  });
});
