import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { OAuthError } from './oauth-error.js';

/** Resolves a host name to all of its IP addresses (a seam for tests and custom resolvers). */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** Options of {@link createUrlGuard}. */
export interface UrlGuardOptions {
  /** Name of the server entry, for error messages. */
  serverName: string;
  /** URL of the MCP server; whether it is public decides whether learned URLs may be private. */
  mcpServerUrl: string | URL;
  /** Let learned URLs point at private, loopback or link-local addresses (local development). @default false */
  allowPrivateNetwork?: boolean;
  /** Host resolver. @default every address of `dns.lookup(host, { all: true })` */
  resolveHost?: HostResolver;
}

/** Checks URLs learned from a server before they are fetched or opened. */
export interface UrlGuard {
  /** Returns the parsed URL, or throws `OAuthError` `UNSAFE_URL`; `what` names the URL in the message. */
  check(raw: unknown, what: string): Promise<URL>;
  /**
   * The addresses {@link UrlGuard.check} resolved `hostname` (a `URL.hostname`) to and found
   * public, which requests to that host must connect to instead of resolving the name again: a
   * second DNS answer could be a private address (DNS rebinding). `undefined` when the guard
   * vetted no address of that host name: it has not checked a URL on it, the host is an IP
   * literal, or the guard restricts nothing (a private MCP server, or `allowPrivateNetwork`).
   * `createPinnedFetch` connects by it. Optional, so that a guard written by hand needs
   * only `check` (its requests then resolve host names themselves).
   */
  vettedAddresses?(hostname: string): readonly string[] | undefined;
}

// Ranges from the MCP security best practices (SSRF section) plus the other special-purpose blocks.
// Two lists: Node's BlockList matches IPv4 addresses against IPv6 rules through their mapped form,
// so `::ffff:0:0/96` in a shared list would block every IPv4 address.
const PRIVATE_IPV4 = new BlockList();
const PRIVATE_IPV6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE_IPV4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // the unspecified address, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address that may be private
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE_IPV6.addSubnet(net, prefix, 'ipv6'); // every IPv4-mapped address counts as private

/** True when `address` (an IP literal) is private, loopback, link-local or otherwise not publicly routable. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an IP: fail closed
  return family === 4 ? PRIVATE_IPV4.check(address, 'ipv4') : PRIVATE_IPV6.check(address, 'ipv6');
}

// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/**
 * Parses `raw` as an absolute http(s) URL without credentials or control characters.
 * Throws `OAuthError` `UNSAFE_URL` otherwise.
 */
export function parseSafeHttpUrl(raw: unknown, context: { serverName?: string; what: string }): URL {
  const refuse = (reason: string): never => {
    throw new OAuthError({
      code: 'UNSAFE_URL',
      message: `Refused ${context.what} ${JSON.stringify(String(raw)).slice(0, 200)}${context.serverName ? ` from MCP server '${context.serverName}'` : ''}: ${reason}. Nothing was opened or stored.`,
      serverName: context.serverName,
      url: typeof raw === 'string' ? raw : undefined,
    });
  };
  if (typeof raw !== 'string' || raw.length === 0) return refuse('it is not a URL string');
  if (UNSAFE_CHARACTERS.test(raw)) return refuse('it contains whitespace or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('it is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(`the scheme ${url.protocol} is not http or https`);
  if (url.username || url.password) return refuse('it carries user credentials');
  return url;
}

function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

async function defaultResolveHost(hostname: string): Promise<string[]> {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((r) => r.address);
}

/**
 * Creates the guard for one MCP server: every URL learned from it must be http(s); when the MCP
 * server itself resolves to public addresses only, learned URLs must also be https and must not
 * resolve to a private, loopback or link-local address (DNS failures fail closed). The addresses
 * a URL passed with are kept ({@link UrlGuard.vettedAddresses}) so that the request connects to
 * them and not to whatever the host name resolves to next (`createPinnedFetch`).
 */
export function createUrlGuard(options: UrlGuardOptions): UrlGuard {
  const resolveHost = options.resolveHost ?? defaultResolveHost;
  const resolveAll = async (hostname: string): Promise<string[] | undefined> => {
    if (isIP(hostname)) return [hostname];
    try {
      const addresses = await resolveHost(hostname);
      return addresses.length > 0 ? addresses : undefined;
    } catch {
      return undefined;
    }
  };
  // Host name -> the addresses its last passing check resolved it to (all public).
  const vetted = new Map<string, readonly string[]>();
  let serverIsPublic: Promise<boolean> | undefined;
  const isServerPublic = (): Promise<boolean> => {
    serverIsPublic ??= (async () => {
      const addresses = await resolveAll(bareHostname(new URL(options.mcpServerUrl)));
      // An unresolvable server is treated as public: the stricter rule applies.
      return addresses === undefined || addresses.every((a) => !isPrivateAddress(a));
    })();
    return serverIsPublic;
  };
  return {
    async check(raw, what) {
      const url = parseSafeHttpUrl(raw, { serverName: options.serverName, what });
      if (options.allowPrivateNetwork || !(await isServerPublic())) return url;
      const fail = (reason: string): never => {
        throw new OAuthError({
          code: 'UNSAFE_URL',
          message: `Refused ${what} ${url.href} from public MCP server '${options.serverName}': ${reason}. Set "oauth.allowPrivateNetwork": true only for local development.`,
          serverName: options.serverName,
          url: url.href,
        });
      };
      if (url.protocol !== 'https:') fail('a public server may only point at https URLs');
      const addresses = await resolveAll(bareHostname(url));
      if (addresses === undefined) fail('its host name does not resolve');
      if (addresses!.some(isPrivateAddress)) fail('it points at a private, loopback or link-local address');
      const hostname = bareHostname(url);
      if (!isIP(hostname)) vetted.set(hostname, Object.freeze([...addresses!]));
      return url;
    },
    vettedAddresses(hostname) {
      return vetted.get(hostname.toLowerCase());
    },
  };
}
