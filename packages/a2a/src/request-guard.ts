import type { IncomingMessage } from 'node:http';

/** Which `Host` names and which web page origins the server answers. */
export interface RequestGuardOptions {
  /** Host names (or `name:port`) besides the loopback names and the address the server listens on. */
  readonly allowedHosts?: readonly string[];
  /** Origins of web pages on other origins that may call the agent (they get CORS headers). */
  readonly allowedOrigins?: readonly string[];
}

/** Why a request is refused before any work: the HTTP status and a sentence for the peer. */
export interface GuardRefusal {
  readonly status: number;
  readonly text: string;
}

/** The names of this machine's loopback interface, always allowed as `Host`. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1']);

/** A `Host` header: a DNS name (underscores allowed, as container names have them) or IPv4 address, or a bracketed IPv6 address, and an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[\w.-]+)(?::(\d{1,5}))?$/i;

/** The request headers a browser may send cross-origin to an allowed origin's agent. */
const CORS_ALLOWED_HEADERS = 'authorization, content-type, accept, x-a2a-extensions, a2a-extensions';

/** How long a browser may cache a preflight answer, in seconds. */
const CORS_MAX_AGE_SECONDS = '600';

/** A host name compared case-insensitively, without IPv6 brackets or a trailing dot. */
function normaliseName(name: string): string {
  const lower = name.toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** A value shown to the peer in a refusal: quoted, without control characters, short. */
function shown(value: string): string {
  return JSON.stringify(value.slice(0, 100));
}

/**
 * The checks every request passes before the agent does any work: its `Host` header must name
 * this agent (the loopback names, the address it listens on, or `allowedHosts`), which defeats
 * DNS rebinding (a page whose own name was re-pointed at 127.0.0.1 sends its own name as `Host`);
 * and a request with an `Origin` header (a browser's, from a web page) must come from the agent's
 * own origin or an origin in `allowedOrigins`, so that no other web page can make the agent work,
 * not even with a "simple" `text/plain` POST that needs no preflight. Only `allowedOrigins` get
 * CORS headers. The port of `Host` is not compared: the name is what a rebinding page forges.
 */
export class RequestGuard {
  readonly #names = new Set(LOOPBACK_NAMES);
  readonly #hostsWithPort = new Set<string>();
  readonly #origins = new Set<string>();

  /** @throws TypeError naming the option and the entry that is not a host name or an origin. */
  constructor(options: RequestGuardOptions) {
    for (const entry of options.allowedHosts ?? []) {
      const match = typeof entry === 'string' ? HOST_HEADER.exec(entry) : null;
      if (!match?.[1])
        throw new TypeError(
          `allowedHosts: ${shown(String(entry))} is not a host name (like "agent.example.com" or "agent.example.com:8443").`,
        );
      if (match[2] !== undefined) this.#hostsWithPort.add(`${normaliseName(match[1])}:${Number(match[2])}`);
      else this.#names.add(normaliseName(match[1]));
    }
    for (const entry of options.allowedOrigins ?? []) {
      const origin = typeof entry === 'string' ? bareOriginOf(entry) : undefined;
      if (origin === undefined) {
        throw new TypeError(`allowedOrigins: ${shown(String(entry))} is not an origin (like "https://app.example.com", no path).`);
      }
      this.#origins.add(origin);
    }
  }

  /** Allow the name the server listens on (an address other than a wildcard one). */
  allowListeningName(hostname: string): void {
    const name = normaliseName(hostname);
    if (name !== '0.0.0.0' && name !== '::' && name !== '') this.#names.add(name);
  }

  /** Why `request` is refused (403 for a foreign `Host` or `Origin`, 400 for a malformed `Host`), or undefined. */
  check(request: IncomingMessage): GuardRefusal | undefined {
    const host = hostHeaderOf(request);
    if (host === undefined) return { status: 400, text: 'Refused: the request has no Host header.\n' };
    const match = HOST_HEADER.exec(host);
    if (!match?.[1]) return { status: 400, text: `Refused: the Host header ${shown(host)} is not a host name.\n` };
    const name = normaliseName(match[1]);
    if (!this.#names.has(name) && !(match[2] !== undefined && this.#hostsWithPort.has(`${name}:${Number(match[2])}`))) {
      return {
        status: 403,
        text: `Refused: the Host header ${shown(host)} does not name this agent (a page on another name re-pointed at this address?). Add the name to allowedHosts if clients really use it.\n`,
      };
    }
    const origin = request.headers.origin;
    if (origin === undefined || this.#sameOrigin(origin, host) || this.#allowedCrossOrigin(origin)) return undefined;
    return {
      status: 403,
      text: `Refused: requests from web pages on ${shown(origin)} are not allowed. Add the origin to allowedOrigins if that page should use this agent.\n`,
    };
  }

  /** The CORS headers of an answer to `request`: only for a request from an origin in `allowedOrigins`. */
  corsHeaders(request: IncomingMessage, preflight: boolean): Record<string, string> {
    const origin = request.headers.origin;
    const headers: Record<string, string> = this.#origins.size > 0 ? { vary: 'Origin' } : {};
    if (origin === undefined || !this.#allowedCrossOrigin(origin)) return headers;
    headers['access-control-allow-origin'] = origin;
    if (preflight) {
      headers['access-control-allow-methods'] = 'GET, POST';
      headers['access-control-allow-headers'] = CORS_ALLOWED_HEADERS;
      headers['access-control-max-age'] = CORS_MAX_AGE_SECONDS;
    }
    return headers;
  }

  #allowedCrossOrigin(origin: string): boolean {
    const parsed = originOf(origin);
    return parsed !== undefined && this.#origins.has(parsed);
  }

  /** The page was served by this agent: its origin's host is the `Host` the request was sent to. */
  #sameOrigin(origin: string, host: string): boolean {
    let page: URL;
    try {
      page = new URL(origin);
    } catch {
      return false;
    }
    if (page.protocol !== 'http:' && page.protocol !== 'https:') return false;
    try {
      return new URL(`${page.protocol}//${host}`).host === page.host;
    } catch {
      return false;
    }
  }
}

/** The `Host` of a request (`:authority` under HTTP/2), or undefined. */
function hostHeaderOf(request: IncomingMessage): string | undefined {
  const host = request.headers.host ?? request.headers[':authority'];
  return typeof host === 'string' && host !== '' ? host : undefined;
}

/** The serialised origin of `value` when it is an origin alone (no path, query or credentials), or undefined. */
function bareOriginOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return undefined;
    return originOf(value);
  } catch {
    return undefined;
  }
}

/** The serialised origin of an `http(s)` URL, or undefined. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}
