// Signing in to a server whose OAuth metadata sends the user to a host name that imitates another
// (punycode, Latin and Cyrillic letters mixed): a `warning` event names the decoded host before
// anything is fetched from it and before the browser opens. Through McpToolHost against an
// OAuth-protected server on loopback whose metadata points at `pаypal.invalid` (a Cyrillic "а";
// `.invalid` never resolves, so nothing leaves the machine).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostWarning } from './host-events.js';
import { McpToolHost } from './mcp-tool-host.js';

/** `https://pаypal.invalid` as the URL parser writes it. */
const LOOK_ALIKE = 'https://xn--pypal-4ve.invalid';
const DECODED = 'p\u0430ypal.invalid';

/**
 * A protected MCP server that is its own authorization server: `/mcp` answers 401, the metadata
 * names `authorizationServer` (default: itself) and `authorizationEndpoint`; registration works.
 */
async function startProtectedServer(options: {
  readonly authorizationServer?: string;
  readonly authorizationEndpoint?: (base: string) => string;
}): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  let base = '';
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    paths.push(path);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    request.resume();
    request.on('end', () => {
      if (path === '/mcp') {
        json(401, {}, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
      } else if (path === '/.well-known/oauth-protected-resource/mcp') {
        json(200, { resource: `${base}/mcp`, authorization_servers: [options.authorizationServer ?? base] });
      } else if (path === '/.well-known/oauth-authorization-server') {
        json(200, {
          issuer: base,
          authorization_endpoint: options.authorizationEndpoint?.(base) ?? `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          code_challenge_methods_supported: ['S256'],
          response_types_supported: ['code'],
        });
      } else if (path === '/register') {
        json(201, { client_id: 'registered-client' });
      } else {
        json(404, { error: 'not_found' });
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/mcp`, paths, server };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A host for `url` that records warnings and browser openings in one timeline, and stops the sign-in when the browser would open. */
async function signIn(url: string): Promise<{ timeline: Array<HostWarning | string>; error: unknown }> {
  const timeline: Array<HostWarning | string> = [];
  const stop = new AbortController();
  const host = await McpToolHost.create({
    settings: {
      mcpServers: { shop: { httpUrl: url, oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true } } },
    },
    ui: {
      openBrowser: async (opened) => {
        timeline.push(opened);
        stop.abort();
      },
    },
  });
  cleanups.push(() => host.close());
  host.on('warning', (warning) => timeline.push(warning));
  const error = await host.servers.authenticate({ serverName: 'shop' }, { signal: stop.signal }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { timeline, error };
}

describe('a sign-in whose authorization host imitates another', () => {
  it('warns about a look-alike authorization page, naming the decoded host, before the browser opens', async () => {
    const protectedServer = await startProtectedServer({ authorizationEndpoint: () => `https://p\u0430ypal.invalid/authorize` });
    cleanups.push(() => new Promise((resolve) => protectedServer.server.close(() => resolve())));
    const { timeline, error } = await signIn(protectedServer.url);
    expect(error).toBeDefined();
    const opened = timeline.findIndex((entry) => typeof entry === 'string');
    expect(typeof timeline[opened] === 'string' && timeline[opened].startsWith(`${LOOK_ALIKE}/authorize?`)).toBe(true);
    const warnings = timeline.filter((entry): entry is HostWarning => typeof entry !== 'string');
    expect(warnings).toEqual([
      {
        code: 'LOOK_ALIKE_HOST',
        serverName: 'shop',
        message:
          `The authorization page host of MCP server 'shop' "xn--pypal-4ve.invalid" is an internationalised (punycode) name ` +
          `that reads as "${DECODED}" and mixes Latin and Cyrillic letters in one label ("p\u0430ypal"); it may imitate another ` +
          'site with look-alike letters. Check the address in the browser before you sign in there.',
      },
    ]);
    expect(timeline.indexOf(warnings[0]!)).toBeLessThan(opened);
  });

  it('warns about a look-alike authorization server before its metadata is fetched, and no plain host is warned about', async () => {
    const protectedServer = await startProtectedServer({ authorizationServer: LOOK_ALIKE });
    cleanups.push(() => new Promise((resolve) => protectedServer.server.close(() => resolve())));
    const { timeline, error } = await signIn(protectedServer.url);
    // Its metadata cannot be fetched (`.invalid` does not resolve): the sign-in fails, no browser opens.
    expect(error).toMatchObject({ code: 'DISCOVERY_FAILED' });
    expect(timeline).toEqual([
      expect.objectContaining({
        code: 'LOOK_ALIKE_HOST',
        message: expect.stringMatching(
          new RegExp(
            `^The authorization server host of MCP server 'shop' "xn--pypal-4ve\\.invalid" .* reads as "${DECODED}" and mixes Latin and Cyrillic letters`,
          ),
        ) as unknown,
      }),
    ]);

    const plain = await startProtectedServer({});
    cleanups.push(() => new Promise((resolve) => plain.server.close(() => resolve())));
    const quiet = await signIn(plain.url);
    expect(quiet.timeline.filter((entry) => typeof entry !== 'string')).toEqual([]);
  });
});
