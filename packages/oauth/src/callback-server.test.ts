import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IssuerMismatchError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { escapeHtml, startCallbackServer } from './callback-server.js';
import { OAuthError } from './oauth-error.js';

const redirectUri = 'http://localhost:0/oauth/callback';

describe('startCallbackServer', () => {
  it('resolves with the code when state matches, on the loopback interface only', async () => {
    const server = await startCallbackServer({ redirectUri, expectedState: 'st' });
    const url = new URL(server.redirectUri);
    expect(url.hostname).toBe('localhost');
    expect(url.port).not.toBe('0');
    const response = await fetch(`http://127.0.0.1:${url.port}/oauth/callback?code=abc&state=st`);
    expect(response.status).toBe(200);
    expect(await server.waitForCode()).toBe('abc');
    await server.close();
  });

  it('answers 404 elsewhere and keeps waiting', async () => {
    const server = await startCallbackServer({ redirectUri, expectedState: 'st' });
    const port = new URL(server.redirectUri).port;
    expect((await fetch(`http://127.0.0.1:${port}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/oauth/callback?state=st`)).status).toBe(400);
    await fetch(`http://127.0.0.1:${port}/oauth/callback?state=st&code=later`);
    expect(await server.waitForCode()).toBe('later');
    await server.close();
  });

  it('rejects a state mismatch', async () => {
    const server = await startCallbackServer({ redirectUri, expectedState: 'expected' });
    const response = await fetch(`http://127.0.0.1:${new URL(server.redirectUri).port}/oauth/callback?code=abc&state=forged`);
    expect(response.status).toBe(400);
    await expect(server.waitForCode()).rejects.toMatchObject({ code: 'STATE_MISMATCH' });
    await server.close();
  });

  it('reports an error parameter and escapes what it echoes', async () => {
    const server = await startCallbackServer({ redirectUri, expectedState: 'st', serverName: 'srv' });
    const hostile = '<script>alert(1)</script>';
    const response = await fetch(
      `http://127.0.0.1:${new URL(server.redirectUri).port}/oauth/callback?state=st&error=access_denied&error_description=${encodeURIComponent(hostile)}`,
    );
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    const error = await server.waitForCode().catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('AUTHORIZATION_DENIED');
    expect((error as OAuthError).oauthErrorCode).toBe('access_denied');
    await server.close();
  });

  it('times out with an unref-ed timer', async () => {
    const server = await startCallbackServer({ redirectUri, expectedState: 'st', timeoutMs: 50 });
    await expect(server.waitForCode()).rejects.toMatchObject({ code: 'CALLBACK_TIMEOUT' });
    await server.close();
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const idle = await startCallbackServer({ redirectUri, expectedState: 'st' });
    // The 5-minute timer exists but is unref-ed: it does not count as keeping the process alive.
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    await idle.close();
  });

  it('falls back to an OS-assigned port only when allowed', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    const busy = `http://localhost:${taken}/oauth/callback`;
    await expect(startCallbackServer({ redirectUri: busy, expectedState: 's' })).rejects.toMatchObject({ code: 'CALLBACK_PORT_IN_USE' });
    const server = await startCallbackServer({ redirectUri: busy, expectedState: 's', allowFallbackPort: true });
    expect(new URL(server.redirectUri).port).not.toBe(String(taken));
    await server.close();
    await new Promise((resolve) => blocker.close(resolve));
  });

  it('checks the RFC 9207 iss parameter when an issuer is expected', async () => {
    const server = await startCallbackServer({
      redirectUri,
      expectedState: 'st',
      expectedIssuer: 'https://as.example',
      requireIssuer: true,
    });
    const port = new URL(server.redirectUri).port;
    expect(
      (await fetch(`http://127.0.0.1:${port}/oauth/callback?state=st&code=c&iss=${encodeURIComponent('https://evil.example')}`)).status,
    ).toBe(400);
    const mismatch = (await server.waitForCode().catch((e: unknown) => e)) as OAuthError;
    expect(mismatch.code).toBe('ISSUER_MISMATCH');
    // The SDK's RFC 9207 check raised it; the attacker-controlled iss is not repeated in the message.
    expect(IssuerMismatchError.isInstance(mismatch.cause)).toBe(true);
    expect(mismatch.cause).toMatchObject({
      kind: 'authorization_response',
      expected: 'https://as.example',
      received: 'https://evil.example',
    });
    expect(mismatch.message).toContain('https://as.example');
    expect(mismatch.message).not.toContain('evil');
    await server.close();
    const missing = await startCallbackServer({
      redirectUri,
      expectedState: 'st',
      expectedIssuer: 'https://as.example',
      requireIssuer: true,
    });
    await fetch(`http://127.0.0.1:${new URL(missing.redirectUri).port}/oauth/callback?state=st&code=c`);
    await expect(missing.waitForCode()).rejects.toMatchObject({ code: 'ISSUER_MISMATCH' });
    await missing.close();
    const optional = await startCallbackServer({ redirectUri, expectedState: 'st', expectedIssuer: 'https://as.example' });
    await fetch(`http://127.0.0.1:${new URL(optional.redirectUri).port}/oauth/callback?state=st&code=c`);
    expect(await optional.waitForCode()).toBe('c');
    await optional.close();
  });

  it('escapes HTML special characters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#96;');
  });
});
