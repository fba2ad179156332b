// Where FileTokenStore keeps DPoP keys: inside the entry in toolhost's layout; in the side file
// toolhost-dpop-keys.json next to Gemini CLI's and Qwen Code's token files (never inside theirs);
// both with mode 0600.
import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthError, type StoredDpopKey, type StoredOAuthCredentials } from './index.js';
import { generateDpopKey } from './protocol.js';
import { DPOP_KEY_FILE_NAME, FileTokenStore } from './token-files.js';

let home: string;
let key: StoredDpopKey;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'toolhost-dpop-store-'));
  key = await generateDpopKey();
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const entry = (serverName: string, extra: Partial<StoredOAuthCredentials> = {}): StoredOAuthCredentials => ({
  serverName,
  issuer: 'https://as.example',
  mcpServerUrl: 'https://mcp.example/mcp',
  resource: 'https://mcp.example/mcp',
  tokenEndpoint: 'https://as.example/token',
  client: { clientId: 'client-1', source: 'dynamic-registration' },
  token: { accessToken: `at-${serverName}`, tokenType: 'DPoP', refreshToken: 'rt' },
  updatedAt: 1,
  ...extra,
});

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe('FileTokenStore, toolhost layout', () => {
  it('keeps the key in the entry, in the 0600 token file, and reads it back in a new store', async () => {
    await new FileTokenStore({ homeDir: home }).set(entry('bank', { dpopKey: key }));
    const file = join(home, '.toolhost', 'mcp-oauth-tokens.json');
    expect(await mode(file)).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ entries: [{ serverName: 'bank', dpopKey: key }] });
    expect(await readdir(join(home, '.toolhost'))).toEqual(['mcp-oauth-tokens.json']);
    expect((await new FileTokenStore({ homeDir: home }).get('bank'))?.dpopKey).toEqual(key);
  });
});

describe.each(['.gemini', '.qwen'])('FileTokenStore, the plain array of ~/%s', (appDir) => {
  const folder = () => join(home, appDir);
  const store = () => new FileTokenStore({ homeDir: home, appDir, env: {} });

  it('keeps the key in a 0600 side file, never in their file, and ties it to the entry', async () => {
    await store().set(entry('bank', { dpopKey: key }));
    await store().set(entry('plain'));
    const theirs = await readFile(join(folder(), 'mcp-oauth-tokens.json'), 'utf8');
    expect(theirs).not.toContain(String(key.privateJwk['d']));
    expect(theirs).not.toContain('dpop');
    const side = join(folder(), DPOP_KEY_FILE_NAME);
    expect(await mode(side)).toBe(0o600);
    expect(JSON.parse(await readFile(side, 'utf8'))).toEqual({
      version: 1,
      keys: [{ serverName: 'bank', issuer: 'https://as.example', clientId: 'client-1', ...key }],
    });
    expect((await store().get('bank'))?.dpopKey).toEqual(key);
    expect((await store().get('plain'))?.dpopKey).toBeUndefined();
  });

  it('drops the key when the entry is replaced without one or deleted, and removes the empty side file', async () => {
    await store().set(entry('bank', { dpopKey: key }));
    await store().set(entry('bank'));
    await expect(stat(join(folder(), DPOP_KEY_FILE_NAME))).rejects.toMatchObject({ code: 'ENOENT' });
    await store().set(entry('bank', { dpopKey: key }));
    await store().delete('bank');
    expect(await readdir(folder())).toEqual([]);
  });

  it('gives no key to an entry the other program rewrote (another client)', async () => {
    await store().set(entry('bank', { dpopKey: key }));
    // Gemini CLI signs in to the same server itself: its entry has its own client and no toolhost field.
    const gemini = {
      serverName: 'bank',
      token: { accessToken: 'gemini-at', tokenType: 'Bearer' },
      clientId: 'gemini-client',
      updatedAt: 2,
    };
    await writeFile(join(folder(), 'mcp-oauth-tokens.json'), JSON.stringify([gemini], null, 2));
    expect(await store().get('bank')).toMatchObject({ token: { accessToken: 'gemini-at' } });
    expect((await store().get('bank'))?.dpopKey).toBeUndefined();
  });

  it('moves the keys of a file an earlier toolhost wrote in its own layout to the side file', async () => {
    await mkdir(folder(), { recursive: true });
    // Private, as toolhost writes it (a key file others can read is refused: see below).
    await writeFile(join(folder(), 'mcp-oauth-tokens.json'), JSON.stringify({ version: 1, entries: [entry('bank', { dpopKey: key })] }), {
      mode: 0o600,
    });
    expect((await store().get('bank'))?.dpopKey).toEqual(key);
    await store().set(entry('other'));
    expect(await readFile(join(folder(), 'mcp-oauth-tokens.json'), 'utf8')).not.toContain('dpopKey');
    expect((await store().get('bank'))?.dpopKey).toEqual(key);
  });

  it('never writes over a side file it does not recognise', async () => {
    await mkdir(folder(), { recursive: true });
    await writeFile(join(folder(), DPOP_KEY_FILE_NAME), '{"keys": "?"}');
    const refused = await store()
      .set(entry('bank', { dpopKey: key }))
      .catch((error: unknown) => error);
    expect(OAuthError.isInstance(refused) && refused.code).toBe('STORE_FAILED');
    expect((refused as Error).message).toContain(join(folder(), DPOP_KEY_FILE_NAME));
    expect(await readFile(join(folder(), DPOP_KEY_FILE_NAME), 'utf8')).toBe('{"keys": "?"}');
    expect(await readdir(folder())).toEqual([DPOP_KEY_FILE_NAME]);
  });
});

describe("FileTokenStore, Qwen Code's encrypted file", () => {
  it('keeps the key in the side file, outside the encrypted file', async () => {
    const folder = join(home, '.qwen');
    await mkdir(folder, { recursive: true });
    const cryptoKey = scryptSync('qwen-code-oauth', `${hostname()}-${userInfo().username}-qwen-code`, 32);
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-gcm', cryptoKey, iv);
    const data = cipher.update('{}', 'utf8', 'hex') + cipher.final('hex');
    await writeFile(join(folder, 'mcp-oauth-tokens-v2.json'), `${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${data}`);
    const store = new FileTokenStore({ homeDir: home, appDir: '.qwen', env: { QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE: 'true' } });
    await store.set(entry('bank', { dpopKey: key }));
    expect((await readdir(folder)).sort()).toEqual(['mcp-oauth-tokens-v2.json', DPOP_KEY_FILE_NAME].sort());
    expect(await mode(join(folder, DPOP_KEY_FILE_NAME))).toBe(0o600);
    expect((await store.get('bank'))?.dpopKey).toEqual(key);
  });
});

// Another local user against the files that hold DPoP private keys: a key others could read may
// already be theirs (they can prove possession of it, so a stolen token bound to it is usable), and
// a file another user owns holds keys and tokens they chose. Refused, as ssh refuses such a key,
// with an error naming the file and what to do; nothing is read from it or written over it.
describe('FileTokenStore, key files other users can read or change', () => {
  const isRoot = process.getuid?.() === 0;
  const refusal = async (promise: Promise<unknown>): Promise<OAuthError> => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!OAuthError.isInstance(error)) throw new Error(`expected an OAuthError, got ${String(error)}`);
    return error;
  };

  it('refuses a token file holding DPoP keys that group or others can read, names it and says what to do', async () => {
    const store = () => new FileTokenStore({ homeDir: home });
    await store().set(entry('bank', { dpopKey: key }));
    const file = join(home, '.toolhost', 'mcp-oauth-tokens.json');
    const written = await readFile(file, 'utf8');
    for (const loose of [0o644, 0o640, 0o604, 0o660]) {
      await chmod(file, loose);
      const error = await refusal(store().get('bank'));
      expect(error.code).toBe('STORE_FAILED');
      expect(error.message).toContain(file);
      expect(error.message).toContain(`mode 0${loose.toString(8)}`);
      expect(error.message).toContain(`chmod 600 ${file}`);
      expect(error.message).not.toContain(String(key.privateJwk['d']));
      // Nothing is written over it either.
      expect((await refusal(store().set(entry('other')))).code).toBe('STORE_FAILED');
      expect(await readFile(file, 'utf8')).toBe(written);
    }
    await chmod(file, 0o600);
    expect((await store().get('bank'))?.dpopKey).toEqual(key);
  });

  it('refuses a side file of DPoP keys (next to Gemini CLI tokens) that group or others can read', async () => {
    const store = () => new FileTokenStore({ homeDir: home, appDir: '.gemini', env: {} });
    await store().set(entry('bank', { dpopKey: key }));
    const side = join(home, '.gemini', DPOP_KEY_FILE_NAME);
    await chmod(side, 0o644);
    const error = await refusal(store().get('bank'));
    expect(error.code).toBe('STORE_FAILED');
    expect(error.message).toContain(`The DPoP key file ${side} can be read by other users (mode 0644)`);
    await chmod(side, 0o600);
    expect((await store().get('bank'))?.dpopKey).toEqual(key);
  });

  it('still reads a token file without DPoP keys whatever its mode (bearer tokens only, as Gemini CLI may leave them)', async () => {
    const store = () => new FileTokenStore({ homeDir: home });
    await store().set(entry('plain'));
    await chmod(join(home, '.toolhost', 'mcp-oauth-tokens.json'), 0o644);
    expect((await store().get('plain'))?.token.accessToken).toBe('at-plain');
  });

  it.runIf(isRoot)('refuses a token file or a side file owned by another user, even one only that user can read', async () => {
    const nobody = 65534;
    const toolhost = () => new FileTokenStore({ homeDir: home });
    await toolhost().set(entry('plain'));
    const file = join(home, '.toolhost', 'mcp-oauth-tokens.json');
    await chown(file, nobody, nobody);
    const error = await refusal(toolhost().get('plain'));
    expect(error.code).toBe('STORE_FAILED');
    expect(error.message).toContain(`The OAuth token file ${file} is owned by another user (uid ${nobody})`);

    const gemini = () => new FileTokenStore({ homeDir: home, appDir: '.gemini', env: {} });
    await gemini().set(entry('bank', { dpopKey: key }));
    const side = join(home, '.gemini', DPOP_KEY_FILE_NAME);
    await chown(side, nobody, nobody);
    const sideError = await refusal(gemini().get('bank'));
    expect(sideError.message).toContain(`The DPoP key file ${side} is owned by another user (uid ${nobody})`);
    // A symbolic link to such a file is no way round.
    await chown(side, 0, 0);
    const planted = join(home, 'planted-keys.json');
    await writeFile(planted, await readFile(side, 'utf8'), { mode: 0o600 });
    await chown(planted, nobody, nobody);
    await rm(side);
    await symlink(planted, side);
    expect((await refusal(gemini().get('bank'))).message).toContain(`is owned by another user (uid ${nobody})`);
  });
});
