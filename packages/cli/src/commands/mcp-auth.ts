import type { Command } from 'commander';
import { loadSettings, type LoadedServer, type LoadedSettings } from '@toolhost/config';
import { authenticate, type OpenBrowser } from '@toolhost/oauth';
import { FileTokenStore } from '@toolhost/oauth/token-files';
import { escapeControlText } from '@toolhost/contract';
import { collectAuthStatuses, formatAuthRow, usesOAuthSignIn } from '../auth-status-rows.js';
import { CliError } from '../cli-error.js';
import { formatProblem } from '../format-problem.js';
import { createProbeConnectionCheck } from '../probe-connection-check.js';
import { selectBrowserOpener } from '../select-browser-opener.js';
import { formatServerTarget } from '../server-status.js';
import type { CommandContext } from './command-context.js';

/**
 * Registers `mcp auth [name]`. Without a name it lists the remote servers, whether each needs
 * authentication (a live connection attempt, skipped with `--no-connect`) and what token is
 * stored. With a name it runs the OAuth flow of `@toolhost/oauth` for that server: the
 * authorization URL is always printed, the browser opens unless `--no-browser`, and the token is
 * stored in `~/<app-dir>/mcp-oauth-tokens.json` (mode 0600), in Gemini CLI's or Qwen Code's
 * layout (or their encrypted file) for `--app-dir .gemini` / `.qwen` (see `FileTokenStore`).
 */
export function registerMcpAuth(mcp: Command, context: CommandContext, setExitCode: (code: number) => void): void {
  mcp
    .command('auth')
    .description('List the remote servers and whether they need authentication, or authenticate with one (OAuth)')
    .argument('[name]', 'server to authenticate with; without it, list the remote servers')
    .option('--no-browser', 'do not open a browser: only print the URL to open')
    .option('--no-connect', 'when listing, do not connect: show the stored tokens only')
    .action(async (name: string | undefined, options: { browser: boolean; connect: boolean }) => {
      const settings = await loadSettings(context.location());
      for (const error of settings.errors) context.io.stderr(`${formatProblem('Error', error.code, error.message)}\n`);
      if (name === undefined) {
        await listAuthStatuses(context, settings, options.connect);
        if (settings.errors.length > 0) setExitCode(1);
        return;
      }
      await signIn(context, findServer(context, settings, name), options.browser);
    });
}

async function listAuthStatuses(context: CommandContext, settings: LoadedSettings, connect: boolean): Promise<void> {
  if (!settings.servers.some(usesOAuthSignIn)) {
    context.io.stdout('No remote MCP servers configured; OAuth applies to sse and http servers.\n');
    return;
  }
  const tokenStore = context.tokenStore();
  const authCommand = context.command('mcp auth');
  const check = connect
    ? (context.io.checkConnection ?? createProbeConnectionCheck({ tokenStore, env: context.io.env, authCommand }))
    : undefined;
  const rows = await collectAuthStatuses({ settings, tokenStore, check });
  context.io.stdout(`Remote MCP servers:\n\n${rows.flatMap((row) => formatAuthRow(row, authCommand)).join('\n')}\n`);
}

function findServer(context: CommandContext, settings: LoadedSettings, name: string): LoadedServer {
  const server = settings.getServer(name);
  if (!server)
    throw new CliError({
      code: 'SERVER_NOT_FOUND',
      message: `Server '${name}' not found. Use '${context.command('mcp auth')}' to see the remote servers.`,
    });
  if (server.transport.transport === 'stdio') {
    throw new CliError({
      code: 'NOT_A_REMOTE_SERVER',
      message: `MCP server "${server.name}" is a local (stdio) server; OAuth applies to remote (sse, http) servers only.`,
    });
  }
  if (!usesOAuthSignIn(server)) {
    throw new CliError({
      code: 'NO_BROWSER_SIGN_IN',
      message: `MCP server "${server.name}" uses "authProviderType": "${server.config.authProviderType ?? ''}", which takes its credentials from Google Application Default Credentials (run "gcloud auth application-default login"), not from a browser sign-in.`,
    });
  }
  if (server.blockReason !== undefined) {
    throw new CliError({
      code: 'SERVER_BLOCKED',
      message: `${server.blockReason.message} A blocked server is never connected, so there is nothing to authenticate.`,
    });
  }
  return server;
}

async function signIn(context: CommandContext, server: LoadedServer, useBrowser: boolean): Promise<void> {
  const { io } = context;
  const opener = selectBrowserOpener(io.env);
  const tokenStore = context.tokenStore();
  const openBrowser: OpenBrowser = async (url) => {
    if (!useBrowser) {
      io.stdout('Waiting for the authorization (up to 5 minutes); press Ctrl+C to cancel.\n');
      return;
    }
    io.stdout('Opening your browser. Waiting for the authorization (up to 5 minutes); press Ctrl+C to cancel.\n');
    try {
      await opener(url);
    } catch (error) {
      io.stderr(
        `${formatProblem('Warning', 'BROWSER_OPEN_FAILED', `Could not open a browser (${(error as Error).message}); open the URL above yourself.`)}\n`,
      );
    }
  };
  io.stdout(`Authenticating with MCP server "${escapeControlText(server.name)}" (${formatServerTarget(server)})...\n`);
  await authenticate(server.name, server.config, {
    tokenStore,
    openBrowser,
    onWarning: (warning) => io.stderr(`${formatProblem('Warning', warning.code, warning.message)}\n`),
    onAuthorizationUrl: (url) =>
      io.stdout(
        `Open this URL in a browser to authorize access to MCP server "${escapeControlText(server.name)}":\n\n  ${escapeControlText(url)}\n\n`,
      ),
  });
  const where = tokenStore instanceof FileTokenStore ? ` The token is stored in ${await tokenStore.storageFile()}.` : '';
  io.stdout(
    `MCP server "${escapeControlText(server.name)}" authenticated.${where} Run "${context.command('mcp list')}" to check the connection.\n`,
  );
}
