import { describe, expect, it } from 'vitest';
import { OAuthError } from './oauth-error.js';
import { createUrlGuard, isPrivateAddress, parseSafeHttpUrl } from './url-guard.js';

describe('isPrivateAddress', () => {
  it('flags private, loopback, link-local, unique-local and mapped addresses', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fc00::1',
      'fd12::1',
      'fe80::1',
      '::ffff:a9fe:101',
      '::ffff:127.0.0.1',
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:10.0.0.1',
      '64:ff9b:1::a00:1',
      '2002:7f00:1::1',
      '2001:db8::1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it('passes public addresses and fails closed on non-IPs', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111'])
      expect(isPrivateAddress(address), address).toBe(false);
    expect(isPrivateAddress('example.com')).toBe(true);
  });
});

describe('parseSafeHttpUrl', () => {
  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,x',
    'vbscript:msgbox',
    'ftp://x.example/',
    'https://user:pw@x.example/',
    'https://x.example/a b',
    'https://x.example/\u0000',
    'relative/path',
    '',
  ])('refuses %j', (raw) => {
    expect(() => parseSafeHttpUrl(raw, { what: 'test URL' })).toThrow(OAuthError);
  });

  it('accepts http and https', () => {
    expect(parseSafeHttpUrl('https://x.example/a?b=c', { what: 'x' }).href).toBe('https://x.example/a?b=c');
  });
});

describe('createUrlGuard', () => {
  const resolveHost = async (host: string) => {
    const table: Record<string, string[]> = {
      'mcp.example': ['93.184.216.34'],
      'as.example': ['93.184.216.35'],
      'inside.example': ['10.0.0.1'],
      'mixed.example': ['93.184.216.36', '192.168.0.2'],
    };
    if (!table[host]) throw new Error('ENOTFOUND');
    return table[host]!;
  };

  it('lets a public server point at public https URLs only', async () => {
    const guard = createUrlGuard({ serverName: 's', mcpServerUrl: 'https://mcp.example/mcp', resolveHost });
    expect((await guard.check('https://as.example/token', 'token_endpoint')).host).toBe('as.example');
    for (const raw of [
      'http://as.example/token',
      'https://inside.example/x',
      'https://mixed.example/x',
      'https://unknown.example/x',
      'https://127.0.0.1/x',
      'https://[fe80::1]/x',
    ]) {
      await expect(guard.check(raw, 'endpoint'), raw).rejects.toMatchObject({ code: 'UNSAFE_URL' });
    }
  });

  it('lets a private server, or the opt-out, point at private addresses', async () => {
    const local = createUrlGuard({ serverName: 's', mcpServerUrl: 'http://127.0.0.1:3000/mcp', resolveHost });
    expect((await local.check('http://10.0.0.1/x', 'x')).hostname).toBe('10.0.0.1');
    const optOut = createUrlGuard({ serverName: 's', mcpServerUrl: 'https://mcp.example/mcp', resolveHost, allowPrivateNetwork: true });
    expect((await optOut.check('http://127.0.0.1:9/x', 'x')).port).toBe('9');
    await expect(optOut.check('file:///etc/passwd', 'x')).rejects.toMatchObject({ code: 'UNSAFE_URL' });
  });

  it('resolves host names with dns.lookup by default: a localhost server counts as private', async () => {
    const guard = createUrlGuard({ serverName: 's', mcpServerUrl: 'http://localhost:3000/mcp' });
    expect((await guard.check('http://10.0.0.1/x', 'x')).hostname).toBe('10.0.0.1');
    const publicServer = createUrlGuard({
      serverName: 's',
      mcpServerUrl: 'https://mcp.example/mcp',
      resolveHost: async (h) => (h === 'mcp.example' ? ['93.184.216.34'] : ['127.0.0.1']),
    });
    await expect(publicServer.check('https://localhost/x', 'x')).rejects.toBeInstanceOf(OAuthError);
  });

  it('keeps the addresses a checked URL passed with, for requests to connect to', async () => {
    const guard = createUrlGuard({ serverName: 's', mcpServerUrl: 'https://mcp.example/mcp', resolveHost });
    expect(guard.vettedAddresses?.('as.example')).toBeUndefined();
    await guard.check('https://AS.example/token', 'token_endpoint');
    expect(guard.vettedAddresses?.('as.example')).toEqual(['93.184.216.35']);
    // Refused URLs and IP literals vet nothing.
    await expect(guard.check('https://mixed.example/x', 'x')).rejects.toMatchObject({ code: 'UNSAFE_URL' });
    expect(guard.vettedAddresses?.('mixed.example')).toBeUndefined();
    await guard.check('https://93.184.216.34/x', 'x');
    expect(guard.vettedAddresses?.('93.184.216.34')).toBeUndefined();
  });

  it('vets no addresses where it restricts none (private server, allowPrivateNetwork)', async () => {
    const local = createUrlGuard({ serverName: 's', mcpServerUrl: 'http://inside.example/mcp', resolveHost });
    await local.check('https://as.example/token', 'x');
    expect(local.vettedAddresses?.('as.example')).toBeUndefined();
    const optOut = createUrlGuard({ serverName: 's', mcpServerUrl: 'https://mcp.example/mcp', resolveHost, allowPrivateNetwork: true });
    await optOut.check('https://as.example/token', 'x');
    expect(optOut.vettedAddresses?.('as.example')).toBeUndefined();
  });
});
