// FileTokenStore on the token files of Gemini CLI (~/.gemini) and Qwen Code (~/.qwen). The fixtures
// are written by hand in those programs' formats, and what toolhost writes is read back here the way
// they read it (a JSON array of entries; AES-256-GCM "<iv>:<tag>:<ciphertext>" hex with the key
// scrypt('<app>-oauth', '<hostname>-<username>-<app>', 32) for the encrypted files).
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getAuthStatus, OAuthError, type StoredOAuthCredentials } from './index.js';
import { FileTokenStore } from './token-files.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'toolhost-foreign-tokens-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const FAR_FUTURE = 4_102_444_800_000; // 2100-01-01

/** An entry as Gemini CLI's `saveToken` stores it (its `OAuthCredentials`). */
const githubEntry = {
  serverName: 'github',
  token: {
    accessToken: 'gho_from_gemini',
    tokenType: 'Bearer',
    refreshToken: 'ghr_from_gemini',
    scope: 'repo read:org',
    expiresAt: FAR_FUTURE,
  },
  clientId: 'gemini-registered-client',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  mcpServerUrl: 'https://api.githubcopilot.com/mcp/',
  updatedAt: 1_750_000_000_000,
};
/** An entry of an older version, without `mcpServerUrl`, and a field of a newer one toolhost does not know. */
const linearEntry = {
  serverName: 'linear',
  token: { accessToken: 'lin_from_gemini', tokenType: 'Bearer' },
  clientId: 'linear-client',
  tokenUrl: 'https://linear.app/oauth/token',
  updatedAt: 1_740_000_000_000,
  futureField: { kept: true },
};

/** Credentials as toolhost's sign-in produces them. */
const signedIn = (serverName: string, accessToken: string, extra: Partial<StoredOAuthCredentials> = {}): StoredOAuthCredentials => ({
  serverName,
  issuer: 'https://as.example',
  mcpServerUrl: 'https://mcp.example/mcp',
  resource: 'https://mcp.example/mcp',
  tokenEndpoint: 'https://as.example/token',
  client: { clientId: 'toolhost-client', source: 'dynamic-registration', redirectUri: 'http://127.0.0.1:7777/oauth/callback' },
  token: { accessToken, tokenType: 'Bearer', refreshToken: 'rt-toolhost', expiresAt: FAR_FUTURE, scope: 'mcp:tools' },
  updatedAt: 1_760_000_000_000,
  ...extra,
});

/**
 * Reads entries the way Gemini CLI and Qwen Code do (`MCPOAuthTokenStorage.getAllCredentials`:
 * a Map by server name) and checks each has the fields their code uses, with their types.
 */
function readAsGemini(entries: unknown): Map<string, Record<string, unknown>> {
  expect(Array.isArray(entries)).toBe(true);
  const byName = new Map<string, Record<string, unknown>>();
  for (const entry of entries as Array<Record<string, unknown>>) {
    expect(typeof entry.serverName).toBe('string');
    const token = entry.token as Record<string, unknown>;
    expect(typeof token.accessToken).toBe('string');
    expect(typeof token.tokenType).toBe('string');
    for (const key of ['refreshToken', 'scope'] as const) if (key in token) expect(typeof token[key]).toBe('string');
    if ('expiresAt' in token) expect(typeof token.expiresAt).toBe('number');
    for (const key of ['clientId', 'tokenUrl', 'mcpServerUrl'] as const) if (key in entry) expect(typeof entry[key]).toBe('string');
    expect(typeof entry.updatedAt).toBe('number');
    byName.set(entry.serverName as string, entry);
  }
  return byName;
}

describe.each([
  ['Gemini CLI', '.gemini'],
  ['Qwen Code', '.qwen'],
])('FileTokenStore with the plain token file of %s (~/%s/mcp-oauth-tokens.json)', (_app, appDir) => {
  const tokenFile = () => join(home, appDir, 'mcp-oauth-tokens.json');
  /** Writes the file as Gemini CLI / Qwen Code do: `JSON.stringify(array, null, 2)`. */
  const putFixture = async (entries: unknown[], mode = 0o600) => {
    await mkdir(join(home, appDir), { recursive: true });
    await writeFile(tokenFile(), JSON.stringify(entries, null, 2), { mode });
    await chmod(tokenFile(), mode);
  };
  const store = () => new FileTokenStore({ homeDir: home, appDir, env: {} });

  it('reads the tokens the program stored', async () => {
    await putFixture([githubEntry, linearEntry]);
    const tokens = store();
    expect(await getAuthStatus({ serverName: 'github', tokenStore: tokens })).toBe('valid');
    expect(await tokens.get('github')).toEqual({
      serverName: 'github',
      issuer: '',
      mcpServerUrl: 'https://api.githubcopilot.com/mcp/',
      resource: 'https://api.githubcopilot.com/mcp/',
      tokenEndpoint: 'https://github.com/login/oauth/access_token',
      client: { clientId: 'gemini-registered-client', source: 'configured' },
      token: githubEntry.token,
      updatedAt: githubEntry.updatedAt,
    });
    expect(await tokens.get('linear')).toMatchObject({ mcpServerUrl: '', resource: '', token: { accessToken: 'lin_from_gemini' } });
    expect((await tokens.list()).map((e) => e.serverName)).toEqual(['github', 'linear']);
  });

  it("writes a sign-in in the program's array, leaving every other entry as it was, with mode 0600", async () => {
    await putFixture([githubEntry, linearEntry], 0o644);
    await store().set(signedIn('docs', 'at-docs'));
    const text = await readFile(tokenFile(), 'utf8');
    const entries = JSON.parse(text) as unknown[];
    expect(entries[0]).toEqual(githubEntry);
    expect(entries[1]).toEqual(linearEntry);
    const docs = readAsGemini(entries).get('docs');
    expect(docs).toMatchObject({
      serverName: 'docs',
      token: { accessToken: 'at-docs', tokenType: 'Bearer', refreshToken: 'rt-toolhost', scope: 'mcp:tools', expiresAt: FAR_FUTURE },
      clientId: 'toolhost-client',
      tokenUrl: 'https://as.example/token',
      mcpServerUrl: 'https://mcp.example/mcp',
      updatedAt: 1_760_000_000_000,
    });
    // Written as the program writes it, so the untouched entries keep their bytes too.
    expect(text).toBe(JSON.stringify(entries, null, 2));
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    // What the program's format has no field for comes back to toolhost.
    expect(await store().get('docs')).toEqual(signedIn('docs', 'at-docs'));
    expect(await readdir(join(home, appDir))).toEqual(['mcp-oauth-tokens.json']);
  });

  it("replaces the server's entry in place and keeps its refresh token when the new token has none", async () => {
    await putFixture([githubEntry, linearEntry]);
    const refreshed = signedIn('github', 'gho_refreshed', {
      issuer: '',
      tokenEndpoint: githubEntry.tokenUrl,
      client: { clientId: githubEntry.clientId, source: 'configured' },
      token: { accessToken: 'gho_refreshed', tokenType: 'Bearer', expiresAt: FAR_FUTURE },
    });
    await store().set(refreshed);
    const entries = readAsGemini(JSON.parse(await readFile(tokenFile(), 'utf8')));
    expect([...entries.keys()]).toEqual(['github', 'linear']);
    expect(entries.get('github')?.token).toEqual({
      accessToken: 'gho_refreshed',
      tokenType: 'Bearer',
      refreshToken: 'ghr_from_gemini',
      expiresAt: FAR_FUTURE,
    });
    expect(entries.get('linear')).toEqual(linearEntry);
  });

  it('creates the file with mode 0600 and removes it with its last entry, as the program does', async () => {
    const tokens = store();
    await tokens.set(signedIn('docs', 'at-docs'));
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    expect(readAsGemini(JSON.parse(await readFile(tokenFile(), 'utf8'))).has('docs')).toBe(true);
    await tokens.delete('docs');
    await expect(stat(tokenFile())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("deletes one server's entry and nothing else", async () => {
    await putFixture([githubEntry, linearEntry]);
    await store().delete('github');
    expect(JSON.parse(await readFile(tokenFile(), 'utf8'))).toEqual([linearEntry]);
  });

  it("rewrites a file an earlier toolhost left in its own layout in the program's layout", async () => {
    await mkdir(join(home, appDir), { recursive: true });
    await writeFile(tokenFile(), JSON.stringify({ version: 1, entries: [signedIn('docs', 'at-docs')] }, null, 2));
    const tokens = store();
    expect((await tokens.get('docs'))?.token.accessToken).toBe('at-docs');
    await tokens.set(signedIn('other', 'at-other'));
    const entries = readAsGemini(JSON.parse(await readFile(tokenFile(), 'utf8')));
    expect([...entries.keys()]).toEqual(['docs', 'other']);
    expect(await tokens.get('docs')).toEqual(signedIn('docs', 'at-docs'));
  });

  it.each([
    ['invalid JSON', '[{"serverName": "github", '],
    ['another JSON object', '{\n  "tokens": {"github": "gho_x"}\n}\n'],
    ['a JSON string', '"gho_x"'],
  ])('never writes to a file it does not recognise (%s) and says so', async (_kind, contents) => {
    await mkdir(join(home, appDir), { recursive: true });
    await writeFile(tokenFile(), contents, { mode: 0o644 });
    const tokens = store();
    const error = await tokens.set(signedIn('docs', 'at-docs')).catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as Error).message).toContain(`The OAuth token file ${tokenFile()} was not recognised`);
    expect((error as Error).message).toContain('toolhost left it unchanged and writes no token to it');
    await expect(tokens.delete('github')).rejects.toMatchObject({ code: 'STORE_FAILED' });
    await expect(tokens.get('github')).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect(await readFile(tokenFile(), 'utf8')).toBe(contents);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o644);
    expect(await readdir(join(home, appDir))).toEqual(['mcp-oauth-tokens.json']);
  });
});

describe('FileTokenStore in its own layout', () => {
  it('never writes to a file of another shape, and refuses a Gemini-style array when told the format', async () => {
    const file = join(home, '.toolhost', 'mcp-oauth-tokens.json');
    await mkdir(join(home, '.toolhost'), { recursive: true });
    for (const [contents, format] of [
      ['{"version": 2, "entries": []}', 'auto'],
      ['{"tokens": []}', 'auto'],
      [JSON.stringify([githubEntry]), 'toolhost'],
    ] as const) {
      await writeFile(file, contents);
      const error = await new FileTokenStore({ homeDir: home, format }).set(signedIn('docs', 'at')).catch((e: unknown) => e);
      expect(OAuthError.isInstance(error) && error.code).toBe('STORE_FAILED');
      expect(await readFile(file, 'utf8')).toBe(contents);
    }
  });

  it('with format auto, keeps a JSON array it finds in the array layout', async () => {
    const file = join(home, 'tokens', 'mcp-oauth-tokens.json');
    await mkdir(join(home, 'tokens'), { recursive: true });
    await writeFile(file, JSON.stringify([githubEntry], null, 2));
    const tokens = new FileTokenStore({ filePath: file });
    expect((await tokens.get('github'))?.token.accessToken).toBe('gho_from_gemini');
    await tokens.set(signedIn('docs', 'at-docs'));
    expect([...readAsGemini(JSON.parse(await readFile(file, 'utf8'))).keys()]).toEqual(['github', 'docs']);
  });
});

// ---------------------------------------------------------------------------------------------
// Encrypted files

/** The key Gemini CLI (`gemini`) or Qwen Code (`qwen`) derives for its encrypted token files on this machine. */
function keyOf(app: 'gemini' | 'qwen'): Buffer {
  const [password, suffix] = app === 'gemini' ? ['gemini-cli-oauth', 'gemini-cli'] : ['qwen-code-oauth', 'qwen-code'];
  return scryptSync(password, `${hostname()}-${userInfo().username}-${suffix}`, 32);
}

function encrypt(plain: string, key: Buffer): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = cipher.update(plain, 'utf8', 'hex') + cipher.final('hex');
  return `${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${data}`;
}

function decrypt(file: string, key: Buffer): unknown {
  const [iv, tag, data] = file.split(':') as [string, string, string];
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'hex'));
  decipher.setAuthTag(Buffer.from(tag, 'hex'));
  return JSON.parse(decipher.update(data, 'hex', 'utf8') + decipher.final('utf8'));
}

describe("FileTokenStore with Gemini CLI's encrypted storage (GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true)", () => {
  const folder = () => join(home, '.gemini');
  const keychainFile = () => join(folder(), 'gemini-credentials.json');
  const v2File = () => join(folder(), 'mcp-oauth-tokens-v2.json');
  const encryptedOnly = { GEMINI_FORCE_ENCRYPTED_FILE_STORAGE: 'true' };
  const store = (env: Record<string, string>) => new FileTokenStore({ homeDir: home, appDir: '.gemini', env });

  it('reports that the OS keychain is not supported, naming the variables, and touches no file', async () => {
    await mkdir(folder(), { recursive: true });
    await writeFile(join(folder(), 'mcp-oauth-tokens.json'), JSON.stringify([githubEntry], null, 2));
    const tokens = store(encryptedOnly);
    const error = await tokens.get('github').catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as Error).message).toBe(
      `GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true: Gemini CLI then keeps MCP OAuth tokens in the OS keychain, which toolhost cannot read or write, ` +
        `or, where no keychain is usable, in the encrypted file ${keychainFile()}, which does not exist yet. ` +
        `Set GEMINI_FORCE_FILE_STORAGE=true for both Gemini CLI and toolhost so that they share that encrypted file, ` +
        `or unset GEMINI_FORCE_ENCRYPTED_FILE_STORAGE so that they share ${join(folder(), 'mcp-oauth-tokens.json')}. No token file was read or changed.`,
    );
    await expect(tokens.set(signedIn('docs', 'at'))).rejects.toMatchObject({ code: 'STORE_FAILED' });
    await expect(tokens.storageFile()).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect(await readdir(folder())).toEqual(['mcp-oauth-tokens.json']);
  });

  it('reads and writes the file keychain gemini-credentials.json, keeping its other services and accounts', async () => {
    await mkdir(folder(), { recursive: true });
    const data = {
      'gemini-cli-oauth': {
        'main-account': JSON.stringify({ serverName: 'main-account', token: { accessToken: 'ya29', tokenType: 'Bearer' }, updatedAt: 1 }),
        github: JSON.stringify(githubEntry),
        __secret__API_KEY: 'secret-value',
      },
      'gemini-cli-extensions': { 'ext-a': 'other secret' },
    };
    await writeFile(keychainFile(), encrypt(JSON.stringify(data, null, 2), keyOf('gemini')), { mode: 0o600 });
    const tokens = store(encryptedOnly);
    expect(await tokens.storageFile()).toBe(keychainFile());
    expect(await tokens.get('github')).toMatchObject({ token: githubEntry.token, tokenEndpoint: githubEntry.tokenUrl });
    expect((await tokens.list()).map((e) => e.serverName)).toEqual(['main-account', 'github']);

    await tokens.set(signedIn('my docs', 'at-docs'));
    const written = decrypt(await readFile(keychainFile(), 'utf8'), keyOf('gemini')) as Record<string, Record<string, string>>;
    expect(written['gemini-cli-extensions']).toEqual(data['gemini-cli-extensions']);
    const accounts = written['gemini-cli-oauth']!;
    expect(Object.keys(accounts)).toEqual(['main-account', 'github', '__secret__API_KEY', 'my_docs']);
    for (const account of ['main-account', 'github', '__secret__API_KEY'] as const)
      expect(accounts[account]).toBe(data['gemini-cli-oauth'][account]);
    readAsGemini([JSON.parse(accounts['my_docs']!)]);
    expect(JSON.parse(accounts['my_docs']!)).toMatchObject({ serverName: 'my docs', token: { accessToken: 'at-docs' } });
    expect((await stat(keychainFile())).mode & 0o777).toBe(0o600);
    expect(await store(encryptedOnly).get('my docs')).toEqual(signedIn('my docs', 'at-docs'));

    await tokens.delete('github');
    const afterDelete = decrypt(await readFile(keychainFile(), 'utf8'), keyOf('gemini')) as Record<string, Record<string, string>>;
    expect(Object.keys(afterDelete['gemini-cli-oauth']!)).toEqual(['main-account', '__secret__API_KEY', 'my_docs']);
  });

  it('with GEMINI_FORCE_FILE_STORAGE=true creates the file keychain, mode 0600', async () => {
    const tokens = store({ ...encryptedOnly, GEMINI_FORCE_FILE_STORAGE: 'true' });
    await tokens.set(signedIn('docs', 'at-docs'));
    const written = decrypt(await readFile(keychainFile(), 'utf8'), keyOf('gemini')) as Record<string, Record<string, string>>;
    expect(Object.keys(written)).toEqual(['gemini-cli-oauth']);
    expect(JSON.parse(written['gemini-cli-oauth']!['docs']!)).toMatchObject({ serverName: 'docs', token: { accessToken: 'at-docs' } });
    expect((await stat(keychainFile())).mode & 0o777).toBe(0o600);
    await tokens.delete('docs');
    await expect(stat(keychainFile())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads and writes the encrypted mcp-oauth-tokens-v2.json of earlier versions', async () => {
    await mkdir(folder(), { recursive: true });
    await writeFile(v2File(), encrypt(JSON.stringify({ github: githubEntry, linear: linearEntry }, null, 2), keyOf('gemini')));
    const tokens = store(encryptedOnly);
    expect(await tokens.storageFile()).toBe(v2File());
    expect((await tokens.get('linear'))?.token.accessToken).toBe('lin_from_gemini');
    await tokens.set(
      signedIn('github', 'gho_new', {
        tokenEndpoint: githubEntry.tokenUrl,
        client: { clientId: githubEntry.clientId, source: 'configured' },
        token: { accessToken: 'gho_new', tokenType: 'Bearer' },
      }),
    );
    const written = decrypt(await readFile(v2File(), 'utf8'), keyOf('gemini')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(written)).toEqual(['github', 'linear']);
    expect(written['linear']).toEqual(linearEntry);
    expect(written['github']).toMatchObject({ token: { accessToken: 'gho_new', refreshToken: 'ghr_from_gemini' } });
    expect((await stat(v2File())).mode & 0o777).toBe(0o600);
  });

  it('never writes to an encrypted file it cannot decrypt', async () => {
    await mkdir(folder(), { recursive: true });
    const foreign = encrypt(JSON.stringify({ 'gemini-cli-oauth': {} }), randomBytes(32));
    await writeFile(keychainFile(), foreign);
    const error = await store(encryptedOnly)
      .set(signedIn('docs', 'at'))
      .catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as Error).message).toContain(`The OAuth token file ${keychainFile()} was not recognised: it could not be decrypted`);
    expect(await readFile(keychainFile(), 'utf8')).toBe(foreign);
  });
});

describe("FileTokenStore with Qwen Code's encrypted storage (QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE=true)", () => {
  const folder = () => join(home, '.qwen');
  const v2File = () => join(folder(), 'mcp-oauth-tokens-v2.json');
  const encryptedOnly = { QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE: 'true' };
  const store = (env: Record<string, string>) => new FileTokenStore({ homeDir: home, appDir: '.qwen', env });

  it('reports that the OS keychain is not supported unless QWEN_CODE_FORCE_FILE_STORAGE=true or the file exists', async () => {
    const error = await store(encryptedOnly)
      .get('github')
      .catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as Error).message).toContain(
      'QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE=true: Qwen Code then keeps MCP OAuth tokens in the OS keychain',
    );
    expect((error as Error).message).toContain('Set QWEN_CODE_FORCE_FILE_STORAGE=true for both Qwen Code and toolhost');
    await expect(stat(folder())).rejects.toMatchObject({ code: 'ENOENT' });

    const tokens = store({ ...encryptedOnly, QWEN_CODE_FORCE_FILE_STORAGE: 'true' });
    await tokens.set(signedIn('docs', 'at-docs'));
    expect(decrypt(await readFile(v2File(), 'utf8'), keyOf('qwen'))).toMatchObject({
      docs: { serverName: 'docs', token: { accessToken: 'at-docs' } },
    });
    expect((await stat(v2File())).mode & 0o777).toBe(0o600);
  });

  it('reads and writes mcp-oauth-tokens-v2.json, keeping the other entries and the refresh token', async () => {
    await mkdir(folder(), { recursive: true });
    await writeFile(v2File(), encrypt(JSON.stringify({ github: githubEntry, linear: linearEntry }, null, 2), keyOf('qwen')), {
      mode: 0o600,
    });
    const tokens = store(encryptedOnly);
    expect(await tokens.get('github')).toMatchObject({ token: githubEntry.token });
    await tokens.set(
      signedIn('github', 'gho_new', {
        tokenEndpoint: githubEntry.tokenUrl,
        client: { clientId: githubEntry.clientId, source: 'configured' },
        token: { accessToken: 'gho_new', tokenType: 'Bearer' },
      }),
    );
    const written = decrypt(await readFile(v2File(), 'utf8'), keyOf('qwen')) as Record<string, Record<string, unknown>>;
    expect(written['linear']).toEqual(linearEntry);
    expect(written['github']).toMatchObject({ serverName: 'github', token: { accessToken: 'gho_new', refreshToken: 'ghr_from_gemini' } });
    readAsGemini(Object.values(written));
    // A file encrypted with Gemini CLI's key is not Qwen Code's: refused, unchanged.
    const gemini = encrypt(JSON.stringify({}), keyOf('gemini'));
    await writeFile(v2File(), gemini);
    await expect(tokens.set(signedIn('docs', 'at'))).rejects.toMatchObject({ code: 'STORE_FAILED' });
    expect(await readFile(v2File(), 'utf8')).toBe(gemini);
  });
});
