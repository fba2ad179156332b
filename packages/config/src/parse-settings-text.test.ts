import { describe, expect, it } from 'vitest';
import { parseSettingsText } from './parse-settings-text.js';

const parse = (text: string, env: Record<string, string> = {}) =>
  parseSettingsText({ text, filePath: '/p/settings.json', scope: 'project', env });

describe('parseSettingsText', () => {
  it('reads every field of the seeds and expands variables in every string, command and oauth included, not in keys', () => {
    const result = parse(
      `{
      "mcpServers": {
        "s": {
          "command": "$CMD", "args": ["--token", "$T"], "env": { "K": "\${T}" }, "cwd": "$D/x",
          "timeout": 1000, "trust": true, "includeTools": ["a"], "excludeTools": ["b"], "description": "$T",
          "type": "stdio", "authProviderType": "google_credentials", "targetAudience": "aud", "targetServiceAccount": "sa@p.iam.gserviceaccount.com",
          "oauth": { "enabled": true, "clientId": "$CID", "clientSecret": "\${SECRET:-none}", "authorizationUrl": "https://a", "tokenUrl": "https://t",
                     "scopes": ["x", "$T"], "redirectUri": "http://localhost:7777/oauth/callback", "tokenParamName": "tok", "audiences": ["y"] }
        },
        "h": { "httpUrl": "https://h/\${PATH_PART:-mcp}", "headers": { "Authorization": "Bearer $T" } }
      }
    }`,
      { T: 'tok', D: '/d', CMD: 'node', CID: 'client-1' },
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const [s, h] = result.servers;
    expect(s?.config).toMatchObject({
      command: 'node',
      args: ['--token', 'tok'],
      env: { K: 'tok' },
      cwd: '/d/x',
      description: 'tok',
      oauth: { tokenParamName: 'tok', clientId: 'client-1', clientSecret: 'none', scopes: ['x', 'tok'] },
    });
    // The entry as written keeps the references (for display and for pinning).
    expect(s?.configAsWritten).toMatchObject({ command: '$CMD', oauth: { clientId: '$CID' } });
    expect(h?.config).toMatchObject({ httpUrl: 'https://h/mcp', headers: { Authorization: 'Bearer tok' } });
  });

  it('keeps file order and names unknown fields in warnings', () => {
    const result = parse('{"mcpServers": {"z": {"command": "a", "comand": "typo"}, "a": {"url": "http://x", "oauth": {"clientld": "x"}}}}');
    expect(result.servers.map((server) => server.name)).toEqual(['z', 'a']);
    expect(result.warnings.map((warning) => [warning.code, warning.jsonPath])).toEqual([
      ['UNKNOWN_FIELD', 'mcpServers.z.comand'],
      ['UNKNOWN_FIELD', 'mcpServers.a.oauth.clientld'],
    ]);
    expect(result.warnings[0]?.message).toContain('"comand"');
  });

  it('reports a malformed file with line and column and reads nothing from it', () => {
    const result = parse('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}');
    expect(result.servers).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ code: 'FILE_MALFORMED', filePath: '/p/settings.json', line: 4, column: 5 });
    expect(result.errors[0]?.message).toContain('/p/settings.json:4:5');
  });

  it('reports a wrong type with its JSON path and still loads the other entries', () => {
    const text =
      '{"mcpServers": {"bad": {"command": "x", "args": "--flag"}, "good": {"command": "y"}, "worse": {"command": 5, "timeout": -1}}}';
    const result = parse(text);
    expect(result.servers.map((server) => [server.name, server.config !== undefined])).toEqual([
      ['bad', false],
      ['good', true],
      ['worse', false],
    ]);
    expect(result.errors.map((error) => [error.code, error.jsonPath, error.serverName])).toEqual([
      ['INVALID_TYPE', 'mcpServers.bad.args', 'bad'],
      ['INVALID_TYPE', 'mcpServers.worse.command', 'worse'],
      ['INVALID_VALUE', 'mcpServers.worse.timeout', 'worse'],
    ]);
    expect(result.errors[0]).toMatchObject({ line: 1, column: text.indexOf('"--flag"') + 1 });
    expect(result.errors[0]?.message).toContain('was not loaded');
  });

  it('accepts a pinned protocolVersion, and names the known revisions for an unknown one', () => {
    const result = parse(
      '{"mcpServers": {"pinned": {"command": "x", "protocolVersion": "2025-11-25"}, "typo": {"command": "y", "protocolVersion": "2026-07-29"}}}',
    );
    expect(result.servers.find((server) => server.name === 'pinned')?.config?.protocolVersion).toBe('2025-11-25');
    expect(result.servers.find((server) => server.name === 'typo')?.config).toBeUndefined();
    expect(result.errors[0]).toMatchObject({ code: 'INVALID_VALUE', jsonPath: 'mcpServers.typo.protocolVersion', serverName: 'typo' });
    expect(result.errors[0]?.message).toContain('2026-07-28');
    expect(result.errors[0]?.message).toContain('2024-11-05');
  });

  it('refuses an oauth.clientMetadataUrl that is not an https URL with a path, naming the field and the rule', () => {
    const entry = (url: string) => JSON.stringify({ httpUrl: 'https://mcp.example.test/mcp', oauth: { clientMetadataUrl: url } });
    const result = parse(
      `{"mcpServers": {"ok": ${entry('https://app.example.test/oauth/client.json')}, "plain": ${entry('http://app.example.test/client.json')}, "root": ${entry('https://app.example.test/')}, "junk": ${entry('not a url')}}}`,
    );
    expect(result.servers.find((server) => server.name === 'ok')?.config?.oauth?.clientMetadataUrl).toBe(
      'https://app.example.test/oauth/client.json',
    );
    expect(result.errors.map((error) => [error.serverName, error.code, error.jsonPath])).toEqual([
      ['plain', 'INVALID_VALUE', 'mcpServers.plain.oauth.clientMetadataUrl'],
      ['root', 'INVALID_VALUE', 'mcpServers.root.oauth.clientMetadataUrl'],
      ['junk', 'INVALID_VALUE', 'mcpServers.junk.oauth.clientMetadataUrl'],
    ]);
    expect(result.errors[0]?.message).toContain('must be an https URL with a path');
  });

  it('accepts oauth.dpop true, false and "auto", and refuses another value naming them', () => {
    const entry = (dpop: unknown) => JSON.stringify({ httpUrl: 'https://mcp.example.test/mcp', oauth: { dpop } });
    const result = parse(
      `{"mcpServers": {"on": ${entry(true)}, "off": ${entry(false)}, "auto": ${entry('auto')}, "typo": ${entry('yes')}}}`,
    );
    expect(result.servers.filter((server) => server.config).map((server) => [server.name, server.config?.oauth?.dpop])).toEqual([
      ['on', true],
      ['off', false],
      ['auto', 'auto'],
    ]);
    expect(result.errors.map((error) => [error.serverName, error.code, error.jsonPath])).toEqual([
      ['typo', 'INVALID_VALUE', 'mcpServers.typo.oauth.dpop'],
    ]);
    expect(result.errors[0]?.message).toContain('oauth.dpop must be true, false or "auto"');
  });

  it('reports an entry that is not an object, and an mcpServers that is not an object', () => {
    expect(parse('{"mcpServers": {"a": "npx"}}').errors[0]).toMatchObject({ code: 'INVALID_TYPE', jsonPath: 'mcpServers.a' });
    const list = parse('{"mcpServers": [{"command": "x"}]}');
    expect(list.servers).toEqual([]);
    expect(list.errors[0]).toMatchObject({ code: 'INVALID_TYPE', jsonPath: 'mcpServers' });
    expect(parse('[1]').errors[0]).toMatchObject({ code: 'INVALID_TYPE', jsonPath: '' });
  });

  it('reports an entry with none of command, url and httpUrl', () => {
    const result = parse('{"mcpServers": {"empty": {"args": ["x"]}, "blank": {"command": ""}, "ok": {"url": "http://x"}}}');
    expect(result.errors.map((error) => [error.code, error.jsonPath])).toEqual([
      ['MISSING_TRANSPORT', 'mcpServers.empty'],
      ['MISSING_TRANSPORT', 'mcpServers.blank'],
    ]);
    expect(result.servers.find((server) => server.name === 'ok')?.config).toEqual({ url: 'http://x' });
  });

  it('ignores __proto__, constructor and prototype keys at every depth', () => {
    const result = parse(
      '{"mcpServers": {"__proto__": {"command": "evil"}, "constructor": {"command": "x"}, "a": {"command": "x", "env": {"__proto__": {"polluted": "yes"}, "prototype": "p"}}}}',
    );
    expect(result.servers.map((server) => server.name)).toEqual(['a']);
    expect(result.servers[0]?.config?.env).toEqual({});
    expect(Object.getPrototypeOf(result.servers[0]?.config?.env)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(result.warnings.filter((warning) => warning.code === 'IGNORED_KEY')).toHaveLength(4);
  });

  it('warns about an unset variable and about conflicting transports', () => {
    const result = parse('{"mcpServers": {"a": {"url": "http://x/$NOPE", "httpUrl": "http://y", "command": "c"}}}');
    expect(result.servers[0]?.config?.url).toBe('http://x/');
    expect(result.warnings.map((warning) => [warning.code, warning.jsonPath])).toEqual([
      ['UNSET_ENV_VAR', 'mcpServers.a.url'],
      ['CONFLICTING_TRANSPORT', 'mcpServers.a'],
    ]);
  });

  it('expands a nested default in a settings field, warning about an unset variable inside it with the field', () => {
    const text = '{"mcpServers": {"a": {"httpUrl": "${API_URL:-${BASE_URL}/mcp}", "headers": {"X": "${A:-${NOPE}}"}}}}';
    const result = parse(text, { BASE_URL: 'https://h' });
    expect(result.servers[0]?.config).toMatchObject({ httpUrl: 'https://h/mcp', headers: { X: '' } });
    expect(result.warnings.map((warning) => [warning.code, warning.jsonPath])).toEqual([['UNSET_ENV_VAR', 'mcpServers.a.headers.X']]);
    expect(result.warnings[0]?.message).toContain('"NOPE"');
  });

  it('reads mcp.allowed and mcp.excluded, the Gemini v1 names, and fails closed on a malformed list', () => {
    expect(parse('{"mcp": {"allowed": ["a"], "excluded": []}}')).toMatchObject({ allowed: ['a'], excluded: [], invalidList: false });
    const legacy = parse('{"allowMCPServers": ["a"], "excludeMCPServers": ["b"]}');
    expect(legacy).toMatchObject({ allowed: ['a'], excluded: ['b'] });
    expect(legacy.warnings.map((warning) => warning.code)).toEqual(['DEPRECATED_KEY', 'DEPRECATED_KEY']);
    const bad = parse('{"mcp": {"excluded": "github"}}');
    expect(bad.invalidList).toBe(true);
    expect(bad.errors[0]).toMatchObject({ code: 'INVALID_TYPE', jsonPath: 'mcp.excluded' });
  });

  it('accepts comments, trailing commas and an empty file', () => {
    expect(parse('// nothing yet\n').errors).toEqual([]);
    expect(parse('{ /* c */ "mcpServers": { "a": { "command": "x", }, }, }').servers).toHaveLength(1);
  });
});
