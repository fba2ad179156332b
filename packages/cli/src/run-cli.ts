import { Command, CommanderError } from 'commander';
import { APP_DIR_ENV_VAR, ConfigError, DEFAULT_APP_DIR, formatToolhostCommand, getAppDirFromEnv } from '@toolhost/config';
import { OAuthError } from '@toolhost/oauth';
import { FileTokenStore } from '@toolhost/oauth/token-files';
import { CliError } from './cli-error.js';
import { resolveCliIo, settingsLocation, type CliIo } from './cli-io.js';
import type { CommandContext } from './commands/command-context.js';
import { registerMcpAdd } from './commands/mcp-add.js';
import { registerMcpAuth } from './commands/mcp-auth.js';
import { registerMcpEnable } from './commands/mcp-enable.js';
import { registerMcpList } from './commands/mcp-list.js';
import { registerMcpRemove } from './commands/mcp-remove.js';
import { registerTrust } from './commands/trust.js';
import { formatProblem } from './format-problem.js';
import packageJson from '../package.json' with { type: 'json' };

/**
 * Runs the `toolhost` command line and resolves to its exit code: 0 on success, 1 on failure
 * with a one-line `Error [CODE]: message` on stderr. Never calls `process.exit`.
 *
 * @param argv - The arguments after the program name, e.g. `['mcp', 'list']`.
 * @param io - Output, folders and environment; defaults come from `process`.
 * @example process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: readonly string[], io: CliIo = {}): Promise<number> {
  const resolved = resolveCliIo(io);
  let exitCode = 0;
  const program = new Command('toolhost')
    .description('Manage the MCP servers of toolhost-based programs')
    .version(packageJson.version, '-V, --version', 'print the version')
    .option(
      '--app-dir <dir>',
      `settings folder name under the home and project folders (e.g. .gemini); default: $${APP_DIR_ENV_VAR}, else ${DEFAULT_APP_DIR}`,
      getAppDirFromEnv(resolved.env) ?? DEFAULT_APP_DIR,
    )
    .addHelpText(
      'after',
      '\nGlobal option:\n  --debug  print what stdio servers write to stderr while a command connects to them\n           (escaped, as "[DEBUG] [MCP STDERR (<server>)]: <line>"), and the technical\n           detail behind a failure (the error\'s cause chain, as "Detail: ...")\n',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => resolved.stdout(text),
      writeErr: (text) => resolved.stderr(text),
      outputError: () => undefined,
    });
  // `--debug` before the command is toolhost's; after `mcp add <name> <command>` it belongs to the server.
  const { debug, rest } = takeLeadingDebug(argv);
  // Everything after `--` goes to the server untouched, so it is kept away from the option parser.
  const mcpIndex = rest.indexOf('mcp');
  const separator = rest[mcpIndex + 1] === 'add' && mcpIndex >= 0 ? rest.indexOf('--') : -1;
  const parsed = separator < 0 ? [...rest] : rest.slice(0, separator);
  const appDir = (): string => program.opts<{ appDir: string }>().appDir;
  const context: CommandContext = {
    io: resolved,
    serverArgsAfterSeparator: separator < 0 ? [] : rest.slice(separator + 1),
    debug,
    location: () => settingsLocation(resolved, appDir()),
    command: (command) => formatToolhostCommand(command, appDir()),
    tokenStore: () => new FileTokenStore({ appDir: appDir(), homeDir: resolved.homeDir, env: resolved.env }),
  };
  const setExitCode = (code: number): void => {
    exitCode = code;
  };
  const mcp = program.command('mcp').description('Manage MCP servers (add, list, remove, enable, disable, auth)');
  registerMcpAdd(mcp, context);
  registerMcpList(mcp, context, setExitCode);
  registerMcpRemove(mcp, context);
  registerMcpEnable(mcp, context);
  registerMcpAuth(mcp, context, setExitCode);
  registerTrust(program, context);

  try {
    await program.parseAsync(parsed, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.help' || error.code === 'commander.executeSubCommandAsync') return error.exitCode;
      resolved.stderr(`${formatProblem('Error', 'USAGE', error.message.replace(/^error: /, ''))}\n`);
      return 1;
    }
    resolved.stderr(`${describeFailure(error, context)}\n`);
    return 1;
  }
}

/**
 * Removes `--debug` from the options before the command word (`toolhost --debug mcp list`),
 * skipping the value of `--app-dir`. A later `--debug` is left where it is: an option of the
 * command (`mcp list --debug`), or an argument of the server on an `mcp add` line.
 */
function takeLeadingDebug(argv: readonly string[]): { debug: boolean; rest: string[] } {
  const rest: string[] = [];
  let debug = false;
  let index = 0;
  for (; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--debug') {
      debug = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '--') break;
    rest.push(arg);
    if (arg === '--app-dir' && index + 1 < argv.length) rest.push(argv[++index] ?? '');
  }
  return { debug, rest: [...rest, ...argv.slice(index)] };
}

function describeFailure(error: unknown, context: CommandContext): string {
  if (ConfigError.isInstance(error)) {
    if (error.code === 'PROJECT_SCOPE_IN_HOME')
      return formatProblem('Error', error.code, 'Please use --scope user to edit settings in the home directory.');
    if (error.code === 'SERVER_NOT_FOUND' && error.filePath === undefined) {
      return formatProblem(
        'Error',
        error.code,
        `Server '${error.serverName ?? ''}' not found. Use '${context.command('mcp list')}' to see available servers.`,
      );
    }
    return formatProblem('Error', error.code, error.message);
  }
  if (CliError.isInstance(error) || OAuthError.isInstance(error)) return formatProblem('Error', error.code, error.message);
  return formatProblem('Error', 'INTERNAL', error instanceof Error ? error.message : String(error));
}
