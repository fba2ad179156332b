import { parseSettingsText } from '@toolhost/config';
import { describe, expect, it } from 'vitest';

// The settings a user writes for the grants of this package parse without warnings or errors,
// and wrong values are refused by the config schema (not silently ignored).
const parse = (oauth: Record<string, unknown>) =>
  parseSettingsText({
    text: JSON.stringify({ mcpServers: { s: { httpUrl: 'https://mcp.example/mcp', oauth } } }),
    filePath: '/p/settings.json',
    scope: 'project',
    env: {},
  });

describe('oauth settings of the grants', () => {
  it('accepts client credentials, private_key_jwt, metadata document and enterprise IdP fields', () => {
    const result = parse({
      grantType: 'enterprise_managed',
      clientId: 'c',
      tokenEndpointAuthMethod: 'private_key_jwt',
      privateKeyFile: '/k.pem',
      signingAlgorithm: 'ES256',
      clientMetadataUrl: 'https://app.example/client.json',
      idp: { clientId: 'ic', clientSecret: 'is', tokenUrl: 'https://idp.example/token', issuer: 'https://idp.example' },
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.servers[0]?.config?.oauth).toMatchObject({
      grantType: 'enterprise_managed',
      idp: { clientId: 'ic' },
      signingAlgorithm: 'ES256',
    });
  });

  it('refuses an unknown grant type, signing algorithm or an idp block without clientId', () => {
    expect(parse({ grantType: 'password' }).errors).not.toEqual([]);
    expect(parse({ signingAlgorithm: 'HS256' }).errors).not.toEqual([]);
    expect(parse({ idp: { tokenUrl: 'https://idp.example/token' } }).errors).not.toEqual([]);
  });
});
