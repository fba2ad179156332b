// Nothing a server sends may throw out of a transport's message callback (issue 23, item 2): a
// handler behind the transport that fails on a message (a host filter, the SDK's dispatch) must
// become that server's error, never an uncaught exception that ends the process. Real fixture
// servers over stdio, Streamable HTTP and legacy SSE; the failing handler stands for any code
// the host puts behind the transport.
import { Client, type JSONRPCResponse } from '@modelcontextprotocol/client';
import { fixtureBinPath, startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { firstText } from './test-helpers.js';
import { TransportError } from './transport-error.js';

const escaped: unknown[] = [];
const record = (error: unknown): void => {
  escaped.push(error);
};
beforeAll(() => {
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
});
afterAll(() => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
});

const fixtures: HttpFixture[] = [];
const connections: ConnectedTransport[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  escaped.length = 0;
});

type Config = Parameters<typeof connectTransport>[0]['config'];

const TRANSPORTS: ReadonlyArray<readonly [string, () => Promise<Config>]> = [
  ['stdio', () => Promise.resolve({ command: process.execPath, args: [fixtureBinPath('basic')] })],
  [
    'Streamable HTTP',
    async () => {
      const fixture = await startHttpFixture({ behaviour: 'basic' });
      fixtures.push(fixture);
      return { httpUrl: fixture.url };
    },
  ],
  [
    'legacy SSE',
    async () => {
      const fixture = await startHttpFixture({ behaviour: 'basic', transport: 'sse' });
      fixtures.push(fixture);
      return { url: fixture.url, type: 'sse' };
    },
  ],
];

/**
 * A client whose response dispatch fails on the answer to an `echo` call whose text is `boom`, as
 * any code behind a transport may fail on a hostile message; it runs inside the transport's
 * message callback.
 */
class FragileClient extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    if ('result' in response && JSON.stringify(response.result).includes('"boom"')) throw new Error('the handler failed\non this answer');
    super._onresponse(response);
  }
}

describe.each(TRANSPORTS)('a message handler that throws (%s)', (_label, config) => {
  it('fails the request it answered with an error naming the server, reports it, and keeps the connection', async () => {
    const client = new FragileClient({ name: 'toolhost-transport-test', version: '1.0.0' });
    const connection = await connectTransport({ serverName: 'fragile', config: await config(), client, timeout: 60_000 });
    connections.push(connection);
    const errors: unknown[] = [];
    client.onerror = (error) => errors.push(error);
    const started = Date.now();
    // The timeout is far longer than the test: the call must fail at once, not time out.
    await expect(client.callTool({ name: 'echo', arguments: { message: 'boom' } }, { timeout: 600_000 })).rejects.toThrow(
      /MCP server 'fragile' sent an answer to request \d+ that could not be processed, so it was dropped: the handler failed\\u000aon this answer$/,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    const reported = errors.find((error) => TransportError.isInstance(error));
    expect(reported).toMatchObject({ code: 'INVALID_RESPONSE', serverName: 'fragile' });
    expect(escaped).toEqual([]);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { message: 'fine' } }))).toBe('fine');
  });
});
