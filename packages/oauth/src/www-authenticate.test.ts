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
});
