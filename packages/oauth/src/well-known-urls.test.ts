import { describe, expect, it } from 'vitest';
import {
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  protectedResourceMetadataUrls,
  resourceMatchesServer,
} from './well-known-urls.js';

const hrefs = (urls: URL[]) => urls.map((u) => u.href);

describe('well-known URLs', () => {
  it('inserts the path for protected-resource metadata, then falls back to the root', () => {
    expect(hrefs(protectedResourceMetadataUrls('https://x.example/api/mcp/'))).toEqual([
      'https://x.example/.well-known/oauth-protected-resource/api/mcp',
      'https://x.example/.well-known/oauth-protected-resource',
    ]);
    expect(hrefs(protectedResourceMetadataUrls('https://x.example/'))).toEqual(['https://x.example/.well-known/oauth-protected-resource']);
  });

  it('orders authorization-server metadata URLs as the 2025-11-25 specification does', () => {
    expect(hrefs(authorizationServerMetadataUrls('https://as.example/tenant1/'))).toEqual([
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(hrefs(authorizationServerMetadataUrls('https://as.example'))).toEqual([
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as.example/.well-known/openid-configuration',
    ]);
  });

  it('builds the canonical resource URI without query or fragment, keeping the port', () => {
    expect(canonicalResourceUri('https://X.example:8443/mcp?a=1#frag')).toBe('https://x.example:8443/mcp');
  });

  it('matches resources by origin and whole path segments, tolerating trailing slashes', () => {
    expect(resourceMatchesServer('https://x.example/mcp/', 'https://x.example/mcp')).toBe(true);
    expect(resourceMatchesServer('https://x.example/mcp', 'https://x.example/mcp/')).toBe(true);
    expect(resourceMatchesServer('https://x.example', 'https://x.example/')).toBe(true);
    expect(resourceMatchesServer('https://x.example/', 'https://x.example/a/mcp')).toBe(true);
    expect(resourceMatchesServer('https://x.example/api', 'https://x.example/api/mcp')).toBe(true);
    expect(resourceMatchesServer('https://x.example/api', 'https://x.example/api123')).toBe(false);
    expect(resourceMatchesServer('https://x.example/other', 'https://x.example/mcp')).toBe(false);
    expect(resourceMatchesServer('https://evil.example/mcp', 'https://x.example/mcp')).toBe(false);
    expect(resourceMatchesServer('http://x.example/mcp', 'https://x.example/mcp')).toBe(false);
    expect(resourceMatchesServer('https://x.example:444/mcp', 'https://x.example/mcp')).toBe(false);
    expect(resourceMatchesServer('not a url', 'https://x.example/mcp')).toBe(false);
  });
});
