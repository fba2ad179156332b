// Start-up failures of real servers on loopback, as the user reads them: what happened to this
// server and what to do, never the SDK's internals; the technical detail stays in `cause`.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport } from './connect-transport.js';
import { describeErrorChain } from './describe-error-chain.js';
import { TransportError } from './transport-error.js';
import { newClient } from './test-helpers.js';

const posix = process.platform !== 'win32';
const folder = mkdtempSync(join(tmpdir(), 'toolhost-connect-errors-'));
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A client that negotiates the MCP revision as discovery does (the `server/discover` probe runs on the server's stdio). */
function negotiatingClient(): Client {
  return new Client(
    { name: 'toolhost-transport-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } },
  );
}

async function failure(config: McpServerConfig, client: Client = negotiatingClient(), timeout = 15_000): Promise<TransportError> {
  const error = await connectTransport({ serverName: 'broken', config, client, timeout, closeGraceMs: 300 }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(TransportError.isInstance(error)).toBe(true);
  return error as TransportError;
}

function script(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A self-signed certificate for 127.0.0.1, valid until 2126; test-only, it protects nothing. */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgn+XIg/QftIzatuS5
knQ/6YzUXA4hyZKmihMdCckL+gGhRANCAAQ+PFG0PVI7a8T1yqTVFA3ugyUS6dRl
qPzMgBIUMoAPWeGKA8ibYB16ECaQtXA4Um8umCH/XD/7SjA88DJQDFrh
-----END PRIVATE KEY-----
`;
const TEST_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBkDCCATagAwIBAgIUGKtUw8QrU7RNILahXP8sBFJ5f3MwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyOTA3NDc1NVoYDzIxMjYxMTA1
MDc0NzU1WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQ+PFG0PVI7a8T1yqTVFA3ugyUS6dRlqPzMgBIUMoAPWeGKA8ibYB16
ECaQtXA4Um8umCH/XD/7SjA88DJQDFrho2QwYjAdBgNVHQ4EFgQU77s5Rk59Ycv+
ZMcWBFIa/3SMe4swHwYDVR0jBBgwFoAU77s5Rk59Ycv+ZMcWBFIa/3SMe4swDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0gAMEUC
IQD1PL0kf3WrndU9m0qHm+GvGDihRAYpmPwynnu+6Nl1CQIgdJ3zWzr6fxscOFU/
dK9i3Op8nWMn22PknT8JZIpkvtw=
-----END CERTIFICATE-----
`;

const SDK_INTERNALS = /sibling|StdioClientTransport|Version negotiation|fetch failed|server\/discover/;

describe('a stdio server that fails to start', () => {
  const exits = script('exits-3.cjs', `process.stderr.write('starting up\\nError: DATABASE_URL is not set\\n'); process.exitCode = 3;`);

  it('that prints an error and exits with code 3 is reported as such, with its last stderr lines, while the revision is negotiated', async () => {
    const error = await failure({ command: process.execPath, args: [exits] });
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toBe(
      `MCP server 'broken' exited with code 3 before it answered: starting up | Error: DATABASE_URL is not set. Check its "command", "args" and "env", or run the command in a terminal to see all it prints.`,
    );
    expect(error.message).not.toMatch(SDK_INTERNALS);
    expect(error).toMatchObject({ exitCode: 3, exitSignal: null });
    expect(error.stderr).toContain('Error: DATABASE_URL is not set');
    // The SDK's own words stay behind the error, for a debug view.
    expect(describeErrorChain(error.cause)).toContain('disposable sibling probe');
  });

  it('that exits with code 3 is reported the same with the plain initialize handshake', async () => {
    const error = await failure({ command: process.execPath, args: [exits] }, newClient());
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toMatch(
      /^MCP server 'broken' exited with code 3 before it answered: starting up \| Error: DATABASE_URL is not set\. /,
    );
  });

  it('that writes terminal escapes to stderr before it exits has them escaped in the message', async () => {
    const hostile = script('hostile-exit.cjs', `process.stderr.write('boom\\u001b[2J\\u202e\\r[INFO] all good\\n'); process.exit(7);`);
    const error = await failure({ command: process.execPath, args: [hostile] });
    // eslint-disable-next-line no-control-regex -- raw control characters are what must not appear
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(error.message).toContain('exited with code 7 before it answered: boom\\u001b[2J\\u202e\\u000d[INFO] all good.');
  });

  it.runIf(posix)('that a signal ends is reported with the signal', async () => {
    const killed = script('killed.cjs', `process.stderr.write('out of memory\\n'); process.kill(process.pid, 'SIGKILL');`);
    const error = await failure({ command: process.execPath, args: [killed] });
    expect(error.message).toMatch(/^MCP server 'broken' was ended by signal SIGKILL before it answered: out of memory\. /);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', exitCode: null, exitSignal: 'SIGKILL' });
  });

  it('whose command does not exist is reported as not found on PATH, naming the command', async () => {
    const error = await failure({ command: 'toolhost-no-such-command-xyz', args: ['--serve'] });
    expect(error.code).toBe('SPAWN_FAILED');
    expect(error.message).toBe(
      `MCP server 'broken': could not start 'toolhost-no-such-command-xyz': the command was not found on PATH. Install it, or set "command" to its full path.`,
    );
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it.runIf(posix)('whose command is not executable is reported as permission denied', async () => {
    const file = script('not-executable.sh', '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const error = await failure({ command: file });
    expect(error.code).toBe('SPAWN_FAILED');
    expect(error.message).toContain(`could not start '${file}': permission denied`);
    expect(error.message).toContain('chmod +x');
  });
});

describe('a remote server that cannot be connected', () => {
  it('on a refused port says connection refused at host:port, not "fetch failed"', async () => {
    const port = await closedPort();
    for (const config of [{ httpUrl: `http://127.0.0.1:${port}/mcp` }, { url: `http://127.0.0.1:${port}/mcp` }]) {
      const error = await failure(config);
      expect(error.code).toBe('CONNECT_FAILED');
      expect(error.message).toMatch(
        new RegExp(
          `^MCP server 'broken' \\(http://127\\.0\\.0\\.1:${port}/mcp\\) could not be reached: connection refused at 127\\.0\\.0\\.1:${port}\\. Nothing listens there`,
        ),
      );
      expect(error.message).not.toMatch(SDK_INTERNALS);
      expect(describeErrorChain(error.cause)).toContain('ECONNREFUSED');
    }
  });

  it('whose host does not resolve says the host was not found (DNS)', async () => {
    const error = await failure({ httpUrl: 'http://toolhost-no-such-host.invalid/mcp' });
    expect(error.message).toMatch(
      /could not be reached: the host (name )?'toolhost-no-such-host\.invalid' (was not found|could not be looked up) \(DNS\)\./,
    );
    expect(error.message).not.toMatch(SDK_INTERNALS);
  });

  it('with a self-signed certificate says the certificate was not accepted and how to trust a private authority', async () => {
    const port = await listen(createTlsServer({ key: TEST_KEY, cert: TEST_CERTIFICATE }, (_request, response) => response.end()));
    const error = await failure({ httpUrl: `https://127.0.0.1:${port}/mcp` });
    expect(error.message).toContain(`could not be reached: the TLS certificate of '127.0.0.1' was not accepted: it is self-signed.`);
    expect(error.message).toContain('NODE_EXTRA_CA_CERTS');
    expect(describeErrorChain(error.cause)).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('spoken to with https:// while it speaks plain HTTP says the TLS handshake failed and to try http://', async () => {
    const port = await listen(createServer((_request, response) => response.end('plain')));
    const error = await failure({ httpUrl: `https://127.0.0.1:${port}/mcp` });
    expect(error.message).toContain(
      `could not be reached: the TLS handshake with 127.0.0.1:${port} failed. If the server does not use TLS, write its URL with http://`,
    );
  });

  it('answering 404 says to check the path, and 500 that the server failed', async () => {
    const notFound = await listen(createServer((_request, response) => response.writeHead(404).end('no such page')));
    const failing = await listen(createServer((_request, response) => response.writeHead(500).end('internal error')));
    const missing = await failure({ httpUrl: `http://127.0.0.1:${notFound}/mcp` });
    expect(missing).toMatchObject({ code: 'HTTP_STATUS', status: 404 });
    expect(missing.message).toContain('answered HTTP 404 (not found): check the path of its URL');
    const broken = await failure({ httpUrl: `http://127.0.0.1:${failing}/mcp` });
    expect(broken).toMatchObject({ code: 'HTTP_STATUS', status: 500 });
    expect(broken.message).toContain('answered HTTP 500 (a server error): the server failed; try again later, or check its logs.');
    // Untyped: the legacy SSE fallback is tried too, and says so in the same words.
    const fallback = await failure({ url: `http://127.0.0.1:${notFound}/mcp` });
    expect(fallback.message).toContain('The legacy SSE transport was tried too and answered HTTP 404.');
  });
});
