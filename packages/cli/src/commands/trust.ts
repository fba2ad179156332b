import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { formatServerLaunch, getFolderTrust, getTrustStore, setFolderTrust, type SetFolderTrustResult } from '@toolhost/config/trust';
import { escapeControlText } from '@toolhost/contract';
import type { CommandContext } from './command-context.js';

/** A path, server name or command line from the settings, escaped for the terminal (a cloned repository's settings may hold anything). */
const safe = (text: string): string => escapeControlText(text);

/**
 * Registers `trust [folder]` and `untrust [folder]` (default: the current folder). A trusted
 * folder's project settings (`<folder>/<app-dir>/settings.json`, and those of its subfolders) may
 * start MCP servers; the decision is stored in `~/<app-dir>/trusted-folders.json`, or with
 * `--app-dir .gemini`/`.qwen` in that program's own `trustedFolders.json` (`TRUST_FOLDER`,
 * `DO_NOT_TRUST`), the pins then in `toolhost-pinned-servers.json` next to it. Trusting pins
 * the servers of the folder's project settings as they are now and lists each one, its command
 * line JSON-quoted argument by argument and escaped: a server added or changed later is blocked
 * until the folder is trusted again.
 */
export function registerTrust(program: Command, context: CommandContext): void {
  for (const trusted of [true, false]) {
    program
      .command(trusted ? 'trust' : 'untrust')
      .description(
        trusted
          ? 'Trust a folder (default: the current one): MCP servers of its project settings, and of its subfolders, may start'
          : 'Stop trusting a folder (default: the current one): MCP servers of its project settings are blocked again',
      )
      .argument('[folder]', 'the folder (default: the current folder)')
      .action(async (folder: string | undefined) => {
        const location = context.location();
        const homeDir = location.homeDir;
        const target = resolve(context.io.cwd, folder ?? '.');
        const result = await setFolderTrust({ ...location, folder: target, trusted });
        const through = result.decidedBy !== undefined && result.decidedBy !== result.folder ? ` (through ${safe(result.decidedBy)})` : '';
        if (trusted) {
          context.io.stdout(
            result.changed
              ? `Trusted ${safe(result.folder)}.\n`
              : result.pinsChanged
                ? `${safe(result.folder)} is already trusted${through}; its MCP servers are pinned again as they are now.\n`
                : `${safe(result.folder)} is already trusted${through}.\n`,
          );
          if (result.format === 'gemini' && result.changed) context.io.stdout(describeGeminiRecord(result, 'TRUST_FOLDER', location));
          context.io.stdout(describePinned(result, location.trustCommand ?? context.command('trust')));
          const home = homeDir === undefined ? undefined : await realpath(homeDir).catch(() => resolve(homeDir));
          if (result.folder === home || resolve(result.folder, '..') === result.folder) {
            context.io.stdout(
              `Note: this trusts every folder under ${safe(result.folder)}, including repositories you clone there later.\n`,
            );
          }
        } else {
          context.io.stdout(
            result.changed
              ? `${safe(result.folder)} is no longer trusted: MCP servers in its project settings are blocked.\n`
              : `${safe(result.folder)} is not trusted.\n`,
          );
          if (result.format === 'gemini' && result.changed) context.io.stdout(describeGeminiRecord(result, 'DO_NOT_TRUST', location));
          if (result.replacedLevel === 'TRUST_PARENT') {
            context.io.stdout(
              `Note: this replaces its entry "TRUST_PARENT", so ${safe(resolve(result.folder, '..'))} is no longer trusted through it (as Gemini CLI's own "Don't trust" does).\n`,
            );
          }
        }
        if (result.format === 'gemini') {
          const now = await getFolderTrust({ ...location, folder: target });
          if (now.overriddenBy !== undefined) {
            context.io.stdout(
              now.trusted
                ? `Note: ${now.overriddenBy} turns folder trust off, so for now every folder is trusted and pinned servers are not checked.\n`
                : `Note: ${now.overriddenBy} distrusts every folder, so for now no project server starts.\n`,
            );
          }
        }
      });
  }
}

/** Where a Gemini-format decision and the pins went. */
function describeGeminiRecord(
  result: SetFolderTrustResult,
  level: 'TRUST_FOLDER' | 'DO_NOT_TRUST',
  location: Parameters<typeof getTrustStore>[0],
): string {
  const { program } = getTrustStore(location);
  const pins = level === 'TRUST_FOLDER' ? `; its MCP servers are pinned in ${safe(result.pinsFilePath)}` : '';
  return `Recorded as "${level}" in ${safe(result.filePath)} (${program}'s trusted folders)${pins}.\n`;
}

/** The servers a trust allows to start, one per line, and what happens when they change. */
function describePinned(result: SetFolderTrustResult, command: string): string {
  const rule = `A server added to its project settings later, or whose command, arguments, working folder, environment, URL, headers or trust change, is blocked until you run "${command}" in ${safe(result.folder)} again.\n`;
  if (result.pinned.length === 0) return `Its project settings have no MCP servers. ${rule}`;
  const lines = result.pinned.map((server) => `  ${safe(server.name)}: ${safe(formatServerLaunch(server.configAsWritten))}\n`);
  return `MCP servers of its project settings that may start, exactly as listed:\n${lines.join('')}${rule}`;
}
