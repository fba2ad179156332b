import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinnedFetch } from './guarded-fetch.js';
import type { UrlGuard } from './url-guard.js';

// A guard written by hand that vetted 127.0.0.1 for `pinned.example`, a name no resolver knows:
// a request to it can only arrive through the pinned lookup.
const guard: UrlGuard = {
  check: async (raw) => new URL(String(raw)),
  vettedAddresses: (hostname) => (hostname === 'pinned.example' ? ['127.0.0.1'] : undefined),
};

let server: http.Server;
let port: number;
beforeEach(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: `http://elsewhere.example:${port}/` }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host: request.headers.host }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('createPinnedFetch', () => {
  it('connects a vetted host name to its vetted address, with the host name in the Host header', async () => {
    const response = await createPinnedFetch(guard)(`http://pinned.example:${port}/metadata`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ host: `pinned.example:${port}` });
  });

  it('does not let a redirect it follows by itself reach a host name the guard did not vet', async () => {
    await expect(createPinnedFetch(guard)(`http://pinned.example:${port}/redirect`)).rejects.toMatchObject({
      cause: { code: 'ENOTFOUND', message: expect.stringContaining('the URL guard vetted no address of this host') },
    });
  });

  it('sends any other URL to globalThis.fetch as it is', async () => {
    const response = await createPinnedFetch(guard)(new URL(`http://127.0.0.1:${port}/x`));
    expect(await response.json()).toEqual({ host: `127.0.0.1:${port}` });
  });
});
