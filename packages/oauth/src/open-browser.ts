import { spawn as nodeSpawn } from 'node:child_process';
import { OAuthError } from './oauth-error.js';
import { parseSafeHttpUrl } from './url-guard.js';

/** Opens an authorization URL for the user; hosts supply their own through `openBrowser`. */
export type OpenBrowser = (url: string) => void | Promise<void>;

// Characters a shell or `cmd.exe` would interpret; none of them belongs in an authorization URL
// we build (our own parameters are percent-encoded), so their presence means a hostile server.
const SHELL_METACHARACTERS = /[`$;|<>"'\\{}^()]/;

/**
 * Returns `url` parsed when it is safe to hand to a browser: http or https, no credentials,
 * no whitespace or control characters, no shell metacharacters. Throws `OAuthError` `UNSAFE_URL`.
 */
export function assertBrowserSafeUrl(url: string, context: { serverName?: string; what?: string } = {}): URL {
  const what = context.what ?? 'authorization URL';
  const parsed = parseSafeHttpUrl(url, { serverName: context.serverName, what });
  if (SHELL_METACHARACTERS.test(url) || SHELL_METACHARACTERS.test(parsed.href)) {
    throw new OAuthError({
      code: 'UNSAFE_URL',
      message: `Refused ${what} ${JSON.stringify(url).slice(0, 200)}${context.serverName ? ` from MCP server '${context.serverName}'` : ''}: it contains shell metacharacters. Nothing was opened or stored.`,
      serverName: context.serverName,
      url,
    });
  }
  return parsed;
}

/** Options of {@link openBrowserSafely}. */
export interface OpenBrowserSafelyOptions {
  /** Platform whose opener is used. @default process.platform */
  platform?: NodeJS.Platform;
  /** Process spawner (a seam for tests). @default child_process.spawn */
  spawn?: typeof nodeSpawn;
}

/** The command and arguments {@link openBrowserSafely} runs for a platform; the URL is always one argument. */
export function browserCommand(url: string, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd.exe built-in and would need a shell; rundll32 opens the default browser without one.
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

/**
 * The default browser opener: validates the URL with {@link assertBrowserSafeUrl}, then runs
 * `xdg-open`, `open` or `rundll32 url.dll,FileProtocolHandler` with the URL as one argument and
 * no shell. Resolves once the opener process has started.
 */
export async function openBrowserSafely(url: string, options: OpenBrowserSafelyOptions = {}): Promise<void> {
  const parsed = assertBrowserSafeUrl(url);
  const { command, args } = browserCommand(parsed.href, options.platform ?? process.platform);
  const spawn = options.spawn ?? nodeSpawn;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { shell: false, stdio: 'ignore', detached: true, windowsHide: true });
    child.once('error', (error) =>
      reject(
        new OAuthError({
          code: 'BROWSER_OPEN_FAILED',
          message: `Could not open a browser with ${command}: ${error.message}. Open the URL yourself.`,
          url: parsed.href,
          cause: error,
        }),
      ),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
