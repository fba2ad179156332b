import { EventEmitter } from 'node:events';
import type { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OAuthError } from './oauth-error.js';
import { assertBrowserSafeUrl, browserCommand, openBrowserSafely } from './open-browser.js';
import { createRedirectFollowingOpener } from './redirect-following-opener.js';
import { startJsonRoutesServer } from '@toolhost-internal/fixtures/oauth';

function fakeSpawn(event: 'spawn' | 'error') {
  return vi.fn(() => {
    const child = Object.assign(new EventEmitter(), { unref: vi.fn() });
    setImmediate(() => (event === 'spawn' ? child.emit('spawn') : child.emit('error', new Error('ENOENT'))));
    return child;
  }) as unknown as typeof spawn & ReturnType<typeof vi.fn>;
}

describe('the default browser opener', () => {
  it('runs the platform opener without a shell, the URL as one argument', async () => {
    const spawnSpy = fakeSpawn('spawn');
    const url = 'https://as.example/authorize?client_id=a&scope=x%20y';
    await openBrowserSafely(url, { platform: 'linux', spawn: spawnSpy });
    expect(spawnSpy).toHaveBeenCalledWith('xdg-open', [url], expect.objectContaining({ shell: false }));
    expect(browserCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(browserCommand(url, 'win32')).toEqual({ command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] });
  });

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://as.example/$(calc.exe)',
    'https://as.example/a`id`',
    'https://as.example/a;rm',
    'https://as.example/a|b',
    "http://127.0.0.1:8080/?param=example#$(Invoke-Expression('x'))",
    'https://as.example/a\nb',
    'https://as.example/%0a\u0007',
  ])('refuses %j without spawning anything', async (url) => {
    const spawnSpy = fakeSpawn('spawn');
    await expect(openBrowserSafely(url, { platform: 'win32', spawn: spawnSpy })).rejects.toMatchObject({ code: 'UNSAFE_URL' });
    expect(spawnSpy).not.toHaveBeenCalled();
  });

  it('reports a missing opener as BROWSER_OPEN_FAILED', async () => {
    await expect(openBrowserSafely('https://as.example/', { platform: 'linux', spawn: fakeSpawn('error') })).rejects.toMatchObject({
      code: 'BROWSER_OPEN_FAILED',
    });
    expect(() => assertBrowserSafeUrl('https://as.example/authorize?state=a-b_c.d~e&scope=x+y*')).not.toThrow();
  });
});

describe('createRedirectFollowingOpener', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('follows the redirects to the redirect_uri, and fails when they end elsewhere', async () => {
    const server = await startJsonRoutesServer((request, base) => {
      if (request.path.startsWith('/authorize')) return { status: 302, headers: { location: `${base}/callback?code=c&state=s` } };
      if (request.path.startsWith('/login')) return { status: 200, body: 'login page' };
      if (request.path.startsWith('/callback')) return { status: 200, body: 'ok' };
      return undefined;
    });
    servers.push(server);
    const open = createRedirectFollowingOpener();
    await open(`${server.url}/authorize?redirect_uri=${encodeURIComponent(`${server.url}/callback`)}`);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/authorize?redirect_uri=' + encodeURIComponent(`${server.url}/callback`),
      '/callback?code=c&state=s',
    ]);
    const error = await Promise.resolve(open(`${server.url}/login?redirect_uri=${encodeURIComponent(`${server.url}/callback`)}`)).catch(
      (e: unknown) => e,
    );
    expect(OAuthError.isInstance(error) && error.code).toBe('BROWSER_OPEN_FAILED');
  });

  it('refuses a redirect to another origin than the authorization server and the callback, without fetching it', async () => {
    const internal = await startJsonRoutesServer(() => ({ status: 200, body: 'internal' }));
    servers.push(internal);
    const server = await startJsonRoutesServer((request) => {
      if (request.path.startsWith('/authorize')) return { status: 302, headers: { location: `${internal.url}/latest/meta-data` } };
      if (request.path.startsWith('/callback')) return { status: 200, body: 'ok' };
      return undefined;
    });
    servers.push(server);
    const error = await Promise.resolve(
      createRedirectFollowingOpener()(`${server.url}/authorize?redirect_uri=${encodeURIComponent(`${server.url}/callback`)}`),
    ).catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('UNSAFE_URL');
    expect(internal.requests).toHaveLength(0);
  });
});
