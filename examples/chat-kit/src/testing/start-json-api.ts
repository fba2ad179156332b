import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fake vendor API on loopback. */
export interface JsonApi {
  /** Its port on 127.0.0.1. */
  readonly port: number;
  /** Stop listening. */
  close(): Promise<void>;
}

/**
 * Serve a fake model API on 127.0.0.1 (a free port): every request's JSON body is handed to
 * `respond`, whose result is sent back as JSON.
 */
export async function startJsonApi(respond: (body: unknown) => unknown): Promise<JsonApi> {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const answer = respond(JSON.parse(raw) as unknown);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(answer));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
