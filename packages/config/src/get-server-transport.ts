import { formatCommandLine } from './format-command-line.js';
import type { McpServerConfig, McpTransportType } from './server-config-schema.js';

/** How a server entry is reached, for display and for choosing a transport. */
export interface ServerTransportInfo {
  /** `stdio` for `command`, `http` for `httpUrl` or an untyped `url`, else the `type` of `url`. */
  readonly transport: McpTransportType;
  /**
   * The command line (`command` and `args` joined by spaces, a word with spaces or other special
   * characters single-quoted, see `formatCommandLine`) or the URL.
   */
  readonly target: string;
  /** True for a `url` without `type`: Streamable HTTP is tried first and SSE is the fallback. */
  readonly detected: boolean;
}

/**
 * Tells which transport an entry uses, with the same priority as the transport layer:
 * `httpUrl`, then `url`, then `command`. Returns `undefined` for an entry with none of them.
 *
 * @example getServerTransport({ command: 'npx', args: ['-y', 'srv'] }) // { transport: 'stdio', target: 'npx -y srv', detected: false }
 */
export function getServerTransport(config: McpServerConfig): ServerTransportInfo | undefined {
  if (config.httpUrl) return { transport: 'http', target: config.httpUrl, detected: false };
  if (config.url) {
    const typed = config.type === 'sse' || config.type === 'http';
    return { transport: typed ? (config.type as McpTransportType) : 'http', target: config.url, detected: !typed };
  }
  if (config.command) {
    return { transport: 'stdio', target: formatCommandLine(config.command, config.args), detected: false };
  }
  return undefined;
}
