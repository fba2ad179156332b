import { describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from './www-authenticate.js';

describe('parseWwwAuthenticate', () => {
  it('reads resource_metadata, scope and error from a Bearer challenge', () => {
    expect(
      parseWwwAuthenticate(
        'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x.example/.well-known/oauth-protected-resource"',
      ),
    ).toEqual({
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      resourceMetadata: 'https://x.example/.well-known/oauth-protected-resource',
    });
  });

  it('finds the Bearer challenge among several, with unquoted values and escapes', () => {
    expect(parseWwwAuthenticate('Basic realm="a, b", Bearer error=invalid_token, error_description="say \\"hi\\""')).toEqual({
      error: 'invalid_token',
      errorDescription: 'say "hi"',
    });
  });

  it('returns undefined without a Bearer challenge and an empty challenge for a bare one', () => {
    expect(parseWwwAuthenticate('Basic realm="x"')).toBeUndefined();
    expect(parseWwwAuthenticate(null)).toBeUndefined();
    expect(parseWwwAuthenticate('Bearer')).toEqual({});
    expect(parseWwwAuthenticate('bearer realm="mcp"')).toEqual({});
  });

  it('reads a DPoP challenge (RFC 9449 §7.1): its parameters, that DPoP is offered, and its algs', () => {
    expect(parseWwwAuthenticate('DPoP error="use_dpop_nonce", resource_metadata="https://x.example/prm"')).toEqual({
      error: 'use_dpop_nonce',
      resourceMetadata: 'https://x.example/prm',
      offersDpop: true,
    });
    expect(parseWwwAuthenticate('Bearer scope="a", resource_metadata="https://x.example/prm", DPoP algs="ES256 PS256"')).toEqual({
      scope: 'a',
      resourceMetadata: 'https://x.example/prm',
      offersDpop: true,
      dpopAlgs: ['ES256', 'PS256'],
    });
    expect(parseWwwAuthenticate('Bearer scope="a"')?.offersDpop).toBeUndefined();
  });
});
