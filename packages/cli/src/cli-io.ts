import { homedir } from 'node:os';
import { formatToolhostCommand, getAppSettingsLocation, type LoadSettingsOptions } from '@toolhost/config';
import type { ServerConnectionCheck } from './server-status.js';

/** What the command line reads from and writes to; every field has a default taken from `process`. */
export interface CliIo {
  /** Receives normal output (whole lines, ending in a newline). @default process.stdout.write */
  readonly stdout?: (text: string) => void;
  /** Receives errors and warnings. @default process.stderr.write */
  readonly stderr?: (text: string) => void;
  /** The project folder. @default process.cwd() */
  readonly cwd?: string;
  /** The home folder. @default os.homedir() */
  readonly homeDir?: string;
  /**
   * Variables for `$VAR` expansion, `TOOLHOST_APP_DIR`, the system files
   * (`TOOLHOST_SYSTEM_SETTINGS_PATH`, ...), and with `--app-dir .gemini`/`.qwen` the trust
   * variables of those programs. @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Checks whether a server can be connected, for the status of `mcp list` and `mcp auth`.
   * @default createProbeConnectionCheck (a real connection attempt through `probeServer` of `@toolhost/discovery`)
   */
  readonly checkConnection?: ServerConnectionCheck;
}

/** {@link CliIo} with every default filled in. */
export type ResolvedCliIo = Required<Omit<CliIo, 'checkConnection'>> & Pick<CliIo, 'checkConnection'>;

/** Fills in the defaults of {@link CliIo}. */
export function resolveCliIo(io: CliIo = {}): ResolvedCliIo {
  return {
    stdout: io.stdout ?? ((text) => void process.stdout.write(text)),
    stderr: io.stderr ?? ((text) => void process.stderr.write(text)),
    cwd: io.cwd ?? process.cwd(),
    homeDir: io.homeDir ?? homedir(),
    env: io.env ?? process.env,
    ...(io.checkConnection === undefined ? {} : { checkConnection: io.checkConnection }),
  };
}

/**
 * Where the settings are for this run: the current folder is the project; the system and system
 * defaults files are those of the program of `appDir` (`getAppSettingsLocation`, as `McpToolHost`
 * finds them): `$TOOLHOST_SYSTEM_SETTINGS_PATH` or `/etc/toolhost/settings.json` for `.toolhost`,
 * Gemini CLI's for `.gemini`, Qwen Code's for `.qwen`.
 */
export function settingsLocation(io: ResolvedCliIo, appDir: string): LoadSettingsOptions {
  return {
    ...getAppSettingsLocation({ appDir, env: io.env }),
    projectDir: io.cwd,
    homeDir: io.homeDir,
    env: io.env,
    trustCommand: trustCommand(appDir),
  };
}

/** The command that trusts the current folder for this `--app-dir`: `toolhost trust`, or `toolhost --app-dir .gemini trust`. */
export function trustCommand(appDir: string | undefined): string {
  return formatToolhostCommand('trust', appDir);
}
