import { inspect } from 'node:util';
import { fixtureBinPath, startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport } from './connect-transport.js';
import { newClient } from './test-helpers.js';

// An entry given to connectTransport directly (no settings file checked it) with a header,
// environment value or URL that cannot be used: the TransportError names the header, variable or
// field, and neither its message nor anything it carries (cause chain included) holds the value.
// Against a real Streamable HTTP fixture server on loopback and a real stdio fixture.
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function refusal(config: Parameters<typeof connectTransport>[0]['config']): Promise<Error> {
  const error = await connectTransport({ serverName: 'api', config, client: newClient(), timeout: 10_000 }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('connectTransport with values that cannot be sent', () => {
  it('a header value with a line break: INVALID_CONFIG naming the header, nothing sent, the value nowhere', async () => {
    const server = await startHttpFixture({ behaviour: 'basic' });
    fixtures.push(server);
    for (const transport of [{ httpUrl: server.url }, { url: server.url, type: 'sse' as const }]) {
      const error = await refusal({ ...transport, headers: { Authorization: 'Bearer sk-SECRET-TOKEN-1234\nrest' } });
      expect(error).toMatchObject({ code: 'INVALID_CONFIG', serverName: 'api' });
      expect(error.message).toBe(
        `MCP server 'api': the header "Authorization" cannot be sent: its value has a line break or NUL character inside it (the value is not shown, it may be a secret). Fix "headers" in its settings entry.`,
      );
      expect(inspect(error, { depth: 10 })).not.toContain('sk-SECRET');
    }
    expect(server.requests).toEqual([]);
  });

  it('an environment value with a NUL character: INVALID_CONFIG naming the variable, no process started, the value nowhere', async () => {
    const error = await refusal({ command: process.execPath, args: [fixtureBinPath('basic')], env: { API_KEY: 'sk-SECRET-ENV\u0000x' } });
    expect(error).toMatchObject({ code: 'INVALID_CONFIG' });
    expect(error.message).toContain('the environment variable "API_KEY" has a NUL character');
    expect(inspect(error, { depth: 10 })).not.toContain('sk-SECRET');
  });

  it('a URL with a password or an unparsable one with a query token: INVALID_CONFIG without them', async () => {
    const withPassword = await refusal({ httpUrl: 'http://admin:sk-SECRET-PASSWORD@127.0.0.1:9/mcp' });
    expect(withPassword.message).toContain('"httpUrl" has a user name or password in it');
    const unparsable = await refusal({ url: 'http://exa mple.test/mcp?token=sk-SECRET-QUERY', type: 'http' });
    expect(unparsable.message).toContain(`"url" is not a valid URL: 'http://exa mple.test/mcp?***'`);
    expect(inspect([withPassword, unparsable], { depth: 10 })).not.toContain('sk-SECRET');
  });
});
