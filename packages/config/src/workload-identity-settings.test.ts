import { describe, expect, it } from 'vitest';
import { parseSettingsText } from './parse-settings-text.js';

// The `oauth` fields of workload identity (`grantType: "jwt_bearer"`): where the workload
// identity token comes from, checked when the settings are read.
const parse = (oauth: Record<string, unknown>, env: Record<string, string> = {}) =>
  parseSettingsText({
    text: JSON.stringify({ mcpServers: { agents: { httpUrl: 'https://mcp.example/mcp', oauth } } }, null, 2),
    filePath: '/p/settings.json',
    scope: 'project',
    env,
  });

describe('oauth settings of workload identity (grantType jwt_bearer)', () => {
  it('accepts a token file, a variable name or a literal token, without a client id', () => {
    for (const source of [
      { assertionFile: '/var/run/secrets/tokens/mcp-token' },
      { assertionEnv: 'MCP_WORKLOAD_TOKEN' },
      { assertion: '$WIF' },
    ]) {
      const result = parse({ grantType: 'jwt_bearer', ...source }, { WIF: 'a.b.c' });
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.servers[0]?.config?.oauth).toMatchObject({ grantType: 'jwt_bearer' });
    }
    expect(parse({ grantType: 'jwt_bearer', assertion: '$WIF' }, { WIF: 'a.b.c' }).servers[0]?.config?.oauth?.assertion).toBe('a.b.c');
  });

  it('refuses jwt_bearer without a token source, naming the server and oauth.grantType', () => {
    const { errors, servers } = parse({ grantType: 'jwt_bearer' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'INVALID_VALUE', serverName: 'agents', jsonPath: 'mcpServers.agents.oauth.grantType' });
    expect(errors[0]?.message).toContain('set one of oauth.assertionFile');
    expect(errors[0]?.message).toContain('the server "agents" was not loaded');
    expect(servers[0]?.config).toBeUndefined();
  });

  it('refuses two token sources, a relative file, a bad variable name and an empty token, naming the field', () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ assertionFile: '/t', assertionEnv: 'T' }, 'assertionEnv', 'set only one of'],
      [{ assertionFile: 'tokens/mcp' }, 'assertionFile', 'must be an absolute path'],
      [{ assertionEnv: 'MCP-TOKEN' }, 'assertionEnv', 'must be the name of an environment variable'],
      [{ assertion: '${UNSET_TOKEN}' }, 'assertion', 'oauth.assertion is empty'],
    ];
    for (const [source, field, text] of cases) {
      const { errors } = parse({ grantType: 'jwt_bearer', ...source });
      expect(errors.map((error) => error.jsonPath)).toEqual([`mcpServers.agents.oauth.${field}`]);
      expect(errors[0]?.message).toContain(text);
      expect(errors[0]?.serverName).toBe('agents');
    }
  });

  it('does not show the token when assertionEnv was written as a $reference to it', () => {
    const { errors } = parse({ grantType: 'jwt_bearer', assertionEnv: '$WIF' }, { WIF: 'header.payload.signature' });
    expect(errors.map((error) => error.jsonPath)).toEqual(['mcpServers.agents.oauth.assertionEnv']);
    expect(errors[0]?.message).toContain('written without "$"');
    expect(errors[0]?.message).not.toContain('payload');
  });

  it('refuses a token source with another grant type, where it would go unused', () => {
    const { errors } = parse({ grantType: 'client_credentials', clientId: 'c', clientSecret: 's', assertionFile: '/t' });
    expect(errors.map((error) => error.jsonPath)).toEqual(['mcpServers.agents.oauth.assertionFile']);
    expect(errors[0]?.message).toContain('set "grantType": "jwt_bearer" to use it');
    expect(parse({ assertionEnv: 'T' }).errors[0]?.message).toContain('grantType is not set (authorization_code)');
  });
});
