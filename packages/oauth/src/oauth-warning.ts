import { describeLookAlikeHost } from '@toolhost/config';
import { escapeControlText } from '@toolhost/contract';

/**
 * Something the user should know about a sign-in that does not stop it, reported through
 * `onWarning` of `authenticate()` (the host turns it into a `warning` event, the command line
 * prints it). `LOOK_ALIKE_HOST`: the authorization server, or the page the browser is sent to,
 * is on a host name that may imitate another (punycode, or letters of several scripts in one label).
 */
export interface OAuthWarning {
  /** Stable code. */
  readonly code: 'LOOK_ALIKE_HOST';
  /** What happened and what to do, naming the server and both forms of the host name (escaped). */
  readonly message: string;
  /** The name of the server entry. */
  readonly serverName: string;
  /** The URL whose host it is about (the host in punycode, as the URL parser writes it). */
  readonly url: string;
}

/** Receives {@link OAuthWarning}s. */
export type OAuthWarningListener = (warning: OAuthWarning) => void;

/**
 * Reports each host of an OAuth sign-in that may imitate another site, once per host name: the
 * authorization server's (before its metadata is fetched) and the authorization page's (before
 * the browser opens), since a user checks those names to know where they sign in.
 */
export function createLookAlikeHostCheck(
  serverName: string,
  onWarning: OAuthWarningListener | undefined,
): (url: string | URL | undefined, what: 'authorization server' | 'authorization page') => void {
  const reported = new Set<string>();
  return (url, what) => {
    if (!onWarning || url === undefined) return;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    if (reported.has(parsed.hostname)) return;
    const message = describeLookAlikeHost(parsed.hostname, {
      subject: `The ${what} host of MCP server '${escapeControlText(serverName)}'`,
      advice:
        what === 'authorization server'
          ? 'Check that this is the server you mean to sign in with before you sign in.'
          : 'Check the address in the browser before you sign in there.',
    });
    if (message === undefined) return;
    reported.add(parsed.hostname);
    onWarning({ code: 'LOOK_ALIKE_HOST', message, serverName, url: parsed.href });
  };
}
