import type { LoadSettingsOptions } from '@toolhost/config';
import type { TokenStore } from '@toolhost/oauth';
import type { ResolvedCliIo } from '../cli-io.js';

/** What every command needs: the output and where the settings are. */
export interface CommandContext {
  /** Output and environment of this run. */
  readonly io: ResolvedCliIo;
  /** The arguments after `--` on an `mcp add` command line. */
  readonly serverArgsAfterSeparator: readonly string[];
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
