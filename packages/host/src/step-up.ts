import { challengeFromError, OAuthError, type BearerChallenge } from '@toolhost/oauth';
import { HostError } from './host-error.js';

const MAX_CAUSE_DEPTH = 6;

/** True when the error, or one in its `cause` chain, is an HTTP 403 (the SDK's `StreamableHTTPError` carries it as `code`). */
function isForbidden(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const { code, status } = current as { code?: unknown; status?: unknown };
    if (code === 403 || status === 403 || (OAuthError.isInstance(current) && current.oauthErrorCode === 'insufficient_scope')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The OAuth layer's own `STEP_UP_LIMIT` refusal anywhere in the `cause` chain. */
function stepUpLimitOf(error: unknown): OAuthError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    if (OAuthError.isInstance(current) && current.code === 'STEP_UP_LIMIT') return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The `insufficient_scope` challenge behind a failed request, if that is why it failed: from the
 * error itself (`OAuthError.oauthErrorCode`, a `WWW-Authenticate` value), else the server's last
 * challenge as the OAuth provider recorded it when the error is a 403 (the SDK's "403 after
 * trying upscoping" carries no header). The provider's record is preferred when both exist,
 * since it has the whole header (`resource_metadata` too).
 */
export function insufficientScopeChallenge(error: unknown, lastChallenge: BearerChallenge | undefined): BearerChallenge | undefined {
  const fromError = challengeFromError(error);
  const recorded = lastChallenge?.error === 'insufficient_scope' ? lastChallenge : undefined;
  if (fromError?.error === 'insufficient_scope') return recorded ?? fromError;
  return recorded && isForbidden(error) ? recorded : undefined;
}

/** Options of {@link runWithStepUp}. */
export interface RunWithStepUpOptions<T> {
  /** The server the request goes to. */
  readonly serverName: string;
  /** What is being done, for messages (`call tool "admin-op"`). */
  readonly what: string;
  /** The request; run once, and once more after a step-up. */
  readonly run: () => Promise<T>;
  /** The `insufficient_scope` challenge behind a failure, or undefined when that is not why it failed. */
  readonly challengeOf: (error: unknown) => BearerChallenge | undefined;
  /**
   * Whether a browser flow may start now: true only for a user action when the host supplied
   * `ui.openBrowser` or the entry has `oauth.enabled`.
   */
  readonly mayOpenBrowser: boolean;
  /** Re-authorize with the challenge (held scopes plus challenged ones) and store the new token. */
  readonly reauthorize: (challenge: BearerChallenge) => Promise<void>;
  /** The command named in the messages, without the server name. @default 'toolhost mcp auth' */
  readonly authCommand?: string;
}

function scopeText(challenge: BearerChallenge): string {
  return challenge.scope ? ` (scope "${challenge.scope}")` : '';
}

/**
 * Run a request; when the server refuses it with 403 `insufficient_scope`, re-authorize with the
 * union of the held and the challenged scopes and run it once more. A second refusal is not
 * retried again.
 *
 * @throws HostError `AUTH_REQUIRED` when a step-up is needed but may not open a browser now;
 * `STEP_UP_FAILED` when the re-authorization fails; `STEP_UP_LIMIT` when the server still
 * answers `insufficient_scope` after the step-up. Any other failure is rethrown unchanged.
 */
export async function runWithStepUp<T>(options: RunWithStepUpOptions<T>): Promise<T> {
  const { serverName, what } = options;
  const authCommand = options.authCommand ?? 'toolhost mcp auth';
  let challenge: BearerChallenge | undefined;
  try {
    return await options.run();
  } catch (error) {
    challenge = options.challengeOf(error);
    if (!challenge) throw error;
    const limit = stepUpLimitOf(error);
    if (limit) {
      throw new HostError({ code: 'STEP_UP_LIMIT', serverName, message: `${limit.message} The host could not ${what}.`, cause: error });
    }
    if (!options.mayOpenBrowser) {
      throw new HostError({
        code: 'AUTH_REQUIRED',
        serverName,
        message: `MCP server "${serverName}" needs more permissions${scopeText(challenge)} to ${what}, and this host does not start a sign-in by itself: run "${authCommand} ${serverName}" (or your host's equivalent, such as /mcp auth ${serverName}) and try again.`,
        cause: error,
      });
    }
  }
  try {
    await options.reauthorize(challenge);
  } catch (error) {
    throw new HostError({
      code: 'STEP_UP_FAILED',
      serverName,
      message: `MCP server "${serverName}" needs more permissions${scopeText(challenge)} to ${what}, but signing in again failed: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  try {
    return await options.run();
  } catch (error) {
    const again = options.challengeOf(error);
    if (!again) throw error;
    throw new HostError({
      code: 'STEP_UP_LIMIT',
      serverName,
      message: `MCP server "${serverName}" still refuses to ${what} with insufficient_scope${scopeText(again)} after signing in again with the scopes it asked for; not retrying. Check that your account may be granted these scopes (or add them to the entry's "oauth.scopes"), then run "${authCommand} ${serverName}" (or your host's equivalent).`,
      cause: error,
    });
  }
}
