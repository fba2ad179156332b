import { MCP_PROTOCOL_VERSIONS } from '@toolhost/config';
import { UnauthorizedError, SseError, SdkErrorCode, SdkError, SdkHttpError } from '@modelcontextprotocol/client';
import { escapeControlText } from '@toolhost/contract';
import type { TransportHandle } from './transport-options.js';
import { describeNetworkFailure } from './describe-network-failure.js';
import { findMessageTooLarge } from './message-limits.js';
import { packageRunnerOf } from './package-runner.js';
import { redactSecrets } from './redact-secrets.js';
import { slowStartAdvice } from './slow-start-advice.js';
import { StdioTransport } from './stdio-transport.js';
import { TransportError } from './transport-error.js';

/** Where the failed connection was going, for the error message and fields. */
export interface ConnectErrorContext {
  /** Name of the server entry. */
  serverName: string;
  /** The transport that failed. */
  handle: TransportHandle;
  /** Remote URL, if any. */
  url?: string;
  /** stdio command, if any. */
  command?: string;
  /** stdio arguments, if any (to recognise a package runner such as `npx -y …`). */
  args?: readonly string[];
  /** The connect timeout that applied, in ms. */
  timeoutMs: number;
  /** Extra sentence appended to the message (e.g. the SSE fallback's own failure). */
  note?: string;
  /** The revision the entry pins (`protocolVersion`), if any. */
  protocolVersion?: string | undefined;
}

/** HTTP status carried by an SDK transport error, if any. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status > 0 ? error.status : undefined;
  if (error instanceof SseError) return typeof error.code === 'number' && error.code > 0 ? error.code : undefined;
  if (TransportError.isInstance(error)) return error.status;
  return undefined;
}

/**
 * True when `error` already says, with the stable code `AUTH_REQUIRED`, that the user must sign
 * in: typically the `OAuthError` an auth provider of `@toolhost/oauth` throws instead of starting
 * a browser flow. Matched on the `code` alone, so this package does not depend on the OAuth one.
 */
export function isAuthRequiredError(error: unknown): error is Error & { code: 'AUTH_REQUIRED' } {
  return error instanceof Error && (error as { code?: unknown }).code === 'AUTH_REQUIRED';
}

/** JSON-RPC error code of "unsupported protocol version" (MCP 2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const REVISION = /^[0-9A-Za-z._-]{1,32}$/;

/** What a revision mismatch said: the revision asked for and, when the server listed them, those it speaks. */
export interface VersionMismatch {
  readonly requested: string | undefined;
  readonly supported: readonly string[];
}

function revisionsFrom(data: unknown): VersionMismatch {
  const record = typeof data === 'object' && data !== null ? (data as { requested?: unknown; supported?: unknown }) : {};
  // Server-sent values: only short revision-shaped strings, at most ten, reach a message.
  const supported = Array.isArray(record.supported)
    ? record.supported.filter((value): value is string => typeof value === 'string' && REVISION.test(value)).slice(0, 10)
    : [];
  const requested = typeof record.requested === 'string' && REVISION.test(record.requested) ? record.requested : undefined;
  return { requested, supported };
}

/**
 * Recognises the ways a revision mismatch surfaces from the SDK: the server's `-32022` error (as a
 * JSON-RPC error, or inside an HTTP 400 body), the SDK's failed era negotiation for a pinned
 * revision, and the legacy handshake's refusal of the revision a server counter-offered.
 */
export function versionMismatchOf(error: unknown, pinned: string | undefined): VersionMismatch | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, data, message } = error as { code?: unknown; data?: unknown; message?: unknown };
  if (code === UNSUPPORTED_PROTOCOL_VERSION) {
    const found = revisionsFrom(data);
    return { requested: found.requested ?? pinned, supported: found.supported };
  }
  if (error instanceof SdkHttpError && error.status === 400) {
    const text = (data as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && text.length <= 65_536) {
      try {
        const body = JSON.parse(text) as { error?: { code?: unknown; data?: unknown } };
        if (body.error?.code === UNSUPPORTED_PROTOCOL_VERSION) {
          const found = revisionsFrom(body.error.data);
          return { requested: found.requested ?? pinned, supported: found.supported };
        }
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) {
    // The SDK also ends negotiation with this code for a network failure (with a cause), an HTTP
    // 5xx answer and a transport closed mid-probe: only a server that answered without offering
    // a shared revision is a mismatch.
    const answered = error.cause === undefined && !(error instanceof SdkHttpError) && !/\bclosed\b/i.test(error.message);
    return answered ? { requested: pinned, supported: [] } : undefined;
  }
  const counterOffer =
    typeof message === 'string' ? /^Server's protocol version is not supported: ([0-9A-Za-z._-]{1,32})$/.exec(message) : null;
  if (counterOffer?.[1]) return { requested: pinned, supported: [counterOffer[1]] };
  return undefined;
}

/** Last stderr lines quoted in a message, and their length together. */
const STDERR_LINES_SHOWN = 3;
const MAX_STDERR_SHOWN = 400;

/**
 * The last non-empty stderr lines of a stdio server, escaped, joined with ` | ` and cut from the
 * front to {@link MAX_STDERR_SHOWN} characters (the last line matters most); `undefined` when none.
 */
function stderrTail(lines: readonly string[] | undefined): string | undefined {
  const kept = (lines ?? []).filter((line) => line.trim() !== '').slice(-STDERR_LINES_SHOWN);
  if (kept.length === 0) return undefined;
  const text = escapeControlText(kept.map((line) => line.trim()).join(' | '));
  return text.length > MAX_STDERR_SHOWN ? `…${text.slice(-(MAX_STDERR_SHOWN - 1))}` : text;
}

/**
 * True for the ways the SDK reports a connection that went away while connecting: a closed
 * connection, and its version probe ending because the connection closed (whose message speaks
 * of SDK internals such as the "disposable sibling probe"), or a write to a process that is gone.
 */
function closedWhileConnecting(error: unknown): boolean {
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) return true;
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) return /\bclosed\b/i.test(error.message);
  return (error as { code?: unknown } | null)?.code === 'EPIPE';
}

/** What the status of a failed HTTP answer means, and what to do. */
function describeHttpStatus(status: number): string {
  if (status === 404)
    return 'HTTP 404 (not found): check the path of its URL (servers often answer at /mcp, or /sse for the older transport)';
  if (status >= 500) return `HTTP ${status} (a server error): the server failed; try again later, or check its logs`;
  return `HTTP ${status}: check the URL and transport type`;
}

/** Turns whatever `Client.connect` threw into a {@link TransportError} naming the server. */
export function mapConnectError(error: unknown, context: ConnectErrorContext): TransportError {
  if (TransportError.isInstance(error)) return error;
  // The initialize answer (or what stood in its place) was over maxMessageBytes: say so as such.
  const tooLarge = findMessageTooLarge(error);
  if (tooLarge) return tooLarge;
  const { serverName, handle, url, command } = context;
  const exit = handle.transport instanceof StdioTransport ? handle.transport.exitStatus : undefined;
  const where = url ? `MCP server '${serverName}' (${url})` : `MCP server '${serverName}'`;
  const note = context.note ? ` ${context.note}` : '';
  const stderr = handle.stderr?.lines();
  const base = { serverName, cause: error, ...(url ? { url } : {}), ...(command ? { command } : {}), ...(stderr ? { stderr } : {}) };
  const mismatch = versionMismatchOf(error, context.protocolVersion);
  if (mismatch) {
    const asked = mismatch.requested ?? 'the revisions this client offered';
    const speaks = mismatch.supported.length > 0 ? `it speaks ${mismatch.supported.join(', ')}` : 'it did not offer it';
    const shared = mismatch.supported.find((version) => (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version));
    const fix = context.protocolVersion
      ? `remove "protocolVersion" from the entry to negotiate${mismatch.supported[0] ? `, or pin "${mismatch.supported[0]}"` : ''}`
      : shared
        ? // Both speak it, yet the older handshake was tried: the server did not answer the version probe in time.
          `pin "protocolVersion": "${shared}" in the entry: this client speaks it too, but the server did not answer the version probe (server/discover) in time (a slow start), so the older handshake was tried`
        : 'the server and this client share no revision; update one of them';
    return new TransportError({
      code: 'PROTOCOL_VERSION_MISMATCH',
      message: `${where} does not speak MCP ${asked}: ${speaks}. To connect, ${fix}.${note}`,
      ...base,
      ...(mismatch.requested ? { requestedVersion: mismatch.requested } : {}),
      ...(mismatch.supported.length > 0 ? { supportedVersions: mismatch.supported } : {}),
    });
  }
  const status = httpStatusOf(error);
  const challenge = handle.authChallenge();
  const authRequired = isAuthRequiredError(error);
  if (status === 401 || error instanceof UnauthorizedError || authRequired) {
    return new TransportError({
      code: 'AUTH_REQUIRED',
      message: authRequired
        ? `${error.message}${note}`
        : `${where} requires authentication (HTTP 401): authenticate with its OAuth flow (e.g. "toolhost mcp auth ${serverName}") or configure headers.${note}`,
      ...base,
      status: authRequired && challenge ? challenge.status : 401,
      ...(challenge?.wwwAuthenticate ? { wwwAuthenticate: challenge.wwwAuthenticate } : {}),
      ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      ...(challenge?.scope ? { scope: challenge.scope } : {}),
    });
  }
  if (status === 403) {
    return new TransportError({
      code: 'FORBIDDEN',
      message: `${where} refused access (HTTP 403): check the credentials and scopes it needs.${note}`,
      ...base,
      status,
      ...(challenge?.wwwAuthenticate ? { wwwAuthenticate: challenge.wwwAuthenticate } : {}),
      ...(challenge?.scope ? { scope: challenge.scope } : {}),
    });
  }
  if (status !== undefined) {
    return new TransportError({
      code: 'HTTP_STATUS',
      message: `${where} answered ${describeHttpStatus(status)}.${note}`,
      ...base,
      status,
    });
  }
  if (closedWhileConnecting(error)) {
    const tail = stderrTail(stderr);
    const output = tail === undefined ? ' (it wrote nothing to stderr)' : `: ${tail}`;
    const runner = command === undefined ? undefined : packageRunnerOf(command, context.args);
    const advice = runner
      ? `Check the package name and version in "args", or run the command in a terminal to see all it prints.`
      : `Check its "command", "args" and "env", or run the command in a terminal to see all it prints.`;
    const how =
      exit === undefined
        ? handle.kind === 'stdio'
          ? 'closed its output before it answered'
          : 'closed the connection while connecting'
        : exit.signal !== null
          ? `was ended by signal ${exit.signal} before it answered`
          : `exited with code ${exit.code ?? 'unknown'} before it answered`;
    return new TransportError({
      code: 'CONNECTION_CLOSED',
      message: `${where} ${how}${handle.kind === 'stdio' ? `${output}. ${advice}` : '.'}${note}`,
      ...base,
      ...(exit ? { exitCode: exit.code, exitSignal: exit.signal } : {}),
    });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new TransportError({
      code: 'CONNECT_FAILED',
      message: `${where} did not answer initialize within ${context.timeoutMs} ms. ${slowStartAdvice({ command, args: context.args })}${note}`,
      ...base,
    });
  }
  const network = url !== undefined ? describeNetworkFailure(error, URL.canParse(url) ? new URL(url) : undefined) : undefined;
  if (network) {
    return new TransportError({
      code: 'CONNECT_FAILED',
      message: `${where} could not be reached: ${network.what}. ${network.advice}${note}`,
      ...base,
    });
  }
  // The server's own words (an initialize error message): escaped, so they cannot drive the
  // terminal or forge log lines, and without secrets; when something was taken out, the original
  // error (which still holds it) is not kept as the cause.
  const original = error instanceof Error ? error.message : String(error);
  const redacted = redactSecrets(original, error);
  const reason = escapeControlText(redacted, { maxLength: 1000 });
  const stop = /[.!?]$/.test(reason) ? '' : '.';
  return new TransportError({
    code: 'CONNECT_FAILED',
    message: `${where} could not be connected: ${reason}${stop}${note}`,
    ...base,
    ...(redacted !== original ? { cause: undefined } : {}),
  });
}
