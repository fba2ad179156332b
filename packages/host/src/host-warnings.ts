import type { ConfigError, ConfigWarning } from '@toolhost/config';
import { escapeControlText } from '@toolhost/contract';
import type { HostWarning } from './host-events.js';
import type { ResolvedServer } from './resolve-servers.js';

/**
 * What the host tells its user about the settings it was given: each entry or file that could
 * not be used, each warning, and one warning per untrusted project folder whose servers are
 * blocked, naming the command that trusts it (so a host with project servers only never comes up
 * empty without saying why), and one per project server blocked because its entry changed since
 * the folder was trusted (`CHANGED_SINCE_TRUSTED`, with what changed). Messages quote what a
 * settings file says (server names, fields, paths), so they are escaped (`escapeControlText`).
 */
export function buildHostWarnings(input: {
  readonly servers: readonly ResolvedServer[];
  readonly errors: readonly ConfigError[];
  readonly warnings: readonly ConfigWarning[];
}): HostWarning[] {
  const result: HostWarning[] = [];
  const byFolder = new Map<string, { trustCommand: string; names: string[] }>();
  for (const server of input.servers) {
    if (!server.untrustedProject) continue;
    const entry = byFolder.get(server.untrustedProject.folder) ?? { trustCommand: server.untrustedProject.trustCommand, names: [] };
    entry.names.push(server.name);
    byFolder.set(server.untrustedProject.folder, entry);
  }
  for (const [folder, { trustCommand, names }] of byFolder) {
    result.push({ code: 'UNTRUSTED_PROJECT', message: untrustedProjectMessage(names, folder, trustCommand) });
  }
  for (const server of input.servers) {
    if (server.blockedCode === 'CHANGED_SINCE_TRUSTED' && server.blockedReason !== undefined) {
      result.push({ code: 'CHANGED_SINCE_TRUSTED', message: server.blockedReason, serverName: server.name });
    }
  }
  for (const error of input.errors) result.push(fromConfig(error.code, error.message, error.serverName, error.filePath));
  for (const warning of input.warnings) result.push(fromConfig(warning.code, warning.message, warning.serverName, warning.filePath));
  return result.map((warning) => ({ ...warning, message: escapeControlText(warning.message) }));
}

/**
 * Why the servers of one untrusted project folder are not started, and the command that trusts
 * it. Not escaped: the caller escapes the whole message.
 */
export function untrustedProjectMessage(names: readonly string[], folder: string, trustCommand: string): string {
  const list = names.map((name) => `"${name}"`).join(', ');
  return (
    `${names.length === 1 ? 'MCP server' : `${names.length} MCP servers`} ${list} ${names.length === 1 ? 'comes' : 'come'} from the settings of the project folder ${folder}, ` +
    `which is not trusted, so ${names.length === 1 ? 'it is' : 'they are'} not started. If you trust this folder, run "${trustCommand}" in ${folder}.`
  );
}

function fromConfig(code: string, message: string, serverName: string | undefined, filePath: string | undefined): HostWarning {
  return { code, message, ...(serverName !== undefined ? { serverName } : {}), ...(filePath !== undefined ? { filePath } : {}) };
}
