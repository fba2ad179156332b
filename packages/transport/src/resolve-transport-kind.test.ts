import { describe, expect, it } from 'vitest';
import { resolveTransportKind } from './resolve-transport-kind.js';
import { TransportError } from './transport-error.js';

describe('resolveTransportKind', () => {
  it('follows the priority httpUrl > url (+type) > command', () => {
    expect(resolveTransportKind('s', { httpUrl: 'http://a/mcp', url: 'http://b/sse', command: 'x' })).toMatchObject({
      kind: 'http',
      detectSse: false,
    });
    expect(resolveTransportKind('s', { url: 'http://b/sse', type: 'sse' })).toMatchObject({ kind: 'sse' });
    expect(resolveTransportKind('s', { url: 'http://b/mcp', type: 'http' })).toMatchObject({ kind: 'http', detectSse: false });
    expect(resolveTransportKind('s', { url: 'http://b/mcp' })).toMatchObject({ kind: 'http', detectSse: true });
    expect(resolveTransportKind('s', { command: 'node', type: 'stdio' })).toEqual({ kind: 'stdio', command: 'node' });
  });

  it.each([
    [{}, /missing "httpUrl"/],
    [{ url: 'not a url' }, /not a valid URL/],
    [{ url: 'file:///etc/passwd' }, /must be an http/],
    [{ url: 'http://a', type: 'stdio' as const }, /no "command"/],
    [{ authProviderType: 'google_credentials' as const, command: 'x' }, /needs "url"/],
  ])('rejects %j with INVALID_CONFIG', (config, message) => {
    let caught: unknown;
    try {
      resolveTransportKind('bad-server', config);
    } catch (error) {
      caught = error;
    }
    expect(TransportError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'INVALID_CONFIG', serverName: 'bad-server' });
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toContain("'bad-server'");
  });
});
