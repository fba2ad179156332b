import { createServer } from 'node:net';

/**
 * A loopback port that is free right now, for the OAuth callback: the default 7777 may be
 * taken (several scenarios, or a developer's own host, at once).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
