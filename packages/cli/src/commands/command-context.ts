import type { LoadSettingsOptions } from '@toolhost/config';
import type { StderrEvent } from '@toolhost/discovery';
import type { TokenStore } from '@toolhost/oauth';
import type { ResolvedCliIo } from '../cli-io.js';
import { formatServerStderr } from '../format-server-stderr.js';

/** What every command needs: the output and where the settings are. */
export interface CommandContext {
  /** Output and environment of this run. */
  readonly io: ResolvedCliIo;
  /** The arguments after `--` on an `mcp add` command line. */
  readonly serverArgsAfterSeparator: readonly string[];
  /** `--debug` was given before the command (`toolhost --debug mcp list`). */
  readonly debug: boolean;
  /** Where the settings are (depends on the global `--app-dir`, read when the command runs). */
  location(): LoadSettingsOptions;
  /**
   * A `toolhost` command for a hint, with `--app-dir <dir>` when this run's settings folder is
   * not `.toolhost`: `command('mcp auth github')` gives `toolhost --app-dir .gemini mcp auth github`.
   */
  command(command: string): string;
  /** The OAuth token store, `~/<app-dir>/mcp-oauth-tokens.json` (depends on `--app-dir`; Gemini CLI's or Qwen Code's layout for `.gemini` / `.qwen`). */
  tokenStore(): TokenStore;
}

/**
 * The `onStderr` option of a connection check: with `--debug` (before the command, or the
 * command's own `--debug`), each stderr line of a stdio server goes to stderr, escaped and
 * prefixed with the server name; otherwise nothing.
 */
export function debugStderr(
  context: CommandContext,
  commandDebug: boolean | undefined,
): { onStderr?: (serverName: string, event: StderrEvent) => void } {
  if (!context.debug && commandDebug !== true) return {};
  return { onStderr: (serverName, event) => context.io.stderr(formatServerStderr(serverName, event)) };
}
