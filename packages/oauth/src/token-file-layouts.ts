// The token-file layouts FileTokenStore reads and writes: toolhost's own, and those of Gemini CLI
// and Qwen Code (plain JSON array, encrypted map, Gemini's encrypted file keychain). Each layout is
// parsed into a document that knows how to change one server's entry while keeping every other
// entry (and every field toolhost does not know) exactly as it was.
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { findCredentials, upsertCredentials, type StoredClient, type StoredOAuthCredentials } from './token-store.js';
import { canonicalResourceUri } from './well-known-urls.js';

/**
 * The layout of the token file a `FileTokenStore` uses:
 * - `toolhost`: `{ "version": 1, "entries": [...] }`, toolhost's own;
 * - `gemini`: Gemini CLI's storage in `~/.gemini` (plain JSON array, or its encrypted files when
 *   `GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true`);
 * - `qwen`: Qwen Code's storage in `~/.qwen` (plain JSON array, or its encrypted file when
 *   `QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE=true`);
 * - `auto`: `gemini` when the token file's folder is named `.gemini`, `qwen` when it is `.qwen`,
 *   otherwise `toolhost` (a JSON array found there is then read and written as Gemini's array).
 */
export type TokenFileFormat = 'auto' | 'toolhost' | 'gemini' | 'qwen';

/** The program whose files a layout belongs to. */
export type ForeignApp = 'gemini' | 'qwen';

/** Display names, for messages. */
export const APP_NAMES: Record<ForeignApp, string> = { gemini: 'Gemini CLI', qwen: 'Qwen Code' };

/** A parsed token file that can be changed and written back. */
export interface TokenDocument {
  /** The credentials readable from the file. */
  readonly entries: StoredOAuthCredentials[];
  /** Stores `credentials` (replacing the server's entry); true when something changed. */
  set(credentials: StoredOAuthCredentials): boolean;
  /** Deletes the server's entry (of `issuer`, when given); true when something changed. */
  delete(serverName: string, issuer?: string): boolean;
  /** True when nothing is left, so the file is removed rather than written. */
  readonly empty: boolean;
  /** The file's new contents. */
  serialize(): Promise<string>;
}

/** Why a file's contents were not recognised; the store turns it into `STORE_FAILED`. */
export class UnrecognisedTokenFile extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// toolhost's own layout

/** `{ "version": 1, "entries": [...] }`. */
export class ToolhostDocument implements TokenDocument {
  entries: StoredOAuthCredentials[];

  constructor(entries: StoredOAuthCredentials[] = []) {
    this.entries = entries;
  }

  /** Parses the file's JSON value; throws {@link UnrecognisedTokenFile} for any other shape. */
  static parse(value: unknown): ToolhostDocument {
    if (!isToolhostValue(value)) throw new UnrecognisedTokenFile('it is not toolhost\'s layout ({"version": 1, "entries": [...]})');
    return new ToolhostDocument(value.entries as StoredOAuthCredentials[]);
  }

  set(credentials: StoredOAuthCredentials): boolean {
    this.entries = upsertCredentials(this.entries, credentials);
    return true;
  }

  delete(serverName: string, issuer?: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !(e.serverName === serverName && (issuer === undefined || e.issuer === issuer)));
    return this.entries.length !== before;
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  serialize(): Promise<string> {
    return Promise.resolve(JSON.stringify({ version: 1, entries: this.entries }, null, 2));
  }
}

/** True for toolhost's layout: an object with `version` 1 and an `entries` array. */
export function isToolhostValue(value: unknown): value is { version: 1; entries: unknown[] } {
  return isRecord(value) && value['version'] === 1 && Array.isArray(value['entries']);
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI / Qwen Code entries

/** Name of the field in which toolhost keeps, inside a Gemini/Qwen entry, what their format has no place for. */
const EXTENSION_KEY = 'toolhost';

const CLIENT_SOURCES = new Set<StoredClient['source']>(['configured', 'metadata-document', 'dynamic-registration']);
const GRANT_TYPES = new Set<NonNullable<StoredOAuthCredentials['grantType']>>([
  'authorization_code',
  'client_credentials',
  'enterprise_managed',
  'jwt_bearer',
]);

/** The RFC 8707 resource Gemini CLI sends for a server URL (its origin and path), or `''`. */
function resourceOf(mcpServerUrl: string): string {
  if (!mcpServerUrl) return '';
  try {
    return canonicalResourceUri(mcpServerUrl);
  } catch {
    return '';
  }
}

/**
 * Reads one entry of Gemini CLI's (and Qwen Code's) `OAuthCredentials` shape
 * (`{serverName, token: {accessToken, tokenType, refreshToken?, expiresAt?, scope?}, clientId?,
 * tokenUrl?, mcpServerUrl?, updatedAt}`). What their format has no field for is taken from the
 * `toolhost` field toolhost adds, or left empty (issuer), or derived (the resource, from the
 * server URL). `undefined` when the value is not such an entry.
 */
export function fromForeignEntry(value: unknown, fallbackName?: string): StoredOAuthCredentials | undefined {
  if (!isRecord(value)) return undefined;
  const serverName = text(value['serverName']) ?? fallbackName;
  const token = value['token'];
  if (!serverName || !isRecord(token) || typeof token['accessToken'] !== 'string') return undefined;
  const extension = isRecord(value[EXTENSION_KEY]) ? value[EXTENSION_KEY] : {};
  const extensionClient = isRecord(extension['client']) ? extension['client'] : {};
  const mcpServerUrl = text(value['mcpServerUrl']) ?? '';
  const source = extensionClient['source'];
  const client: StoredClient = {
    clientId: text(value['clientId']) ?? '',
    source: CLIENT_SOURCES.has(source as StoredClient['source']) ? (source as StoredClient['source']) : 'configured',
  };
  const clientSecret = text(extensionClient['clientSecret']);
  if (clientSecret !== undefined) client.clientSecret = clientSecret;
  const authMethod = text(extensionClient['tokenEndpointAuthMethod']);
  if (authMethod !== undefined) client.tokenEndpointAuthMethod = authMethod;
  const redirectUri = text(extensionClient['redirectUri']);
  if (redirectUri !== undefined) client.redirectUri = redirectUri;
  const credentials: StoredOAuthCredentials = {
    serverName,
    issuer: text(extension['issuer']) ?? '',
    mcpServerUrl,
    resource: text(extension['resource']) ?? resourceOf(mcpServerUrl),
    tokenEndpoint: text(value['tokenUrl']) ?? '',
    client,
    token: { accessToken: token['accessToken'], tokenType: text(token['tokenType']) ?? 'Bearer' },
    updatedAt: finiteNumber(value['updatedAt']) ?? 0,
  };
  const refreshToken = text(token['refreshToken']);
  if (refreshToken !== undefined) credentials.token.refreshToken = refreshToken;
  const expiresAt = finiteNumber(token['expiresAt']);
  if (expiresAt !== undefined) credentials.token.expiresAt = expiresAt;
  const scope = typeof token['scope'] === 'string' ? token['scope'] : undefined;
  if (scope !== undefined) credentials.token.scope = scope;
  const grantType = extension['grantType'];
  if (GRANT_TYPES.has(grantType as NonNullable<StoredOAuthCredentials['grantType']>)) {
    credentials.grantType = grantType as NonNullable<StoredOAuthCredentials['grantType']>;
  }
  return credentials;
}

/**
 * Writes credentials as a Gemini CLI / Qwen Code entry. The fields they read (`serverName`,
 * `token`, `clientId`, `tokenUrl`, `mcpServerUrl`, `updatedAt`) are in their shape; the rest
 * (issuer, resource, client secret and kind, grant type) goes into a `toolhost` field, which
 * both programs ignore (they read the JSON without checking for unknown fields, keep it in
 * the other entries when they write, and drop it when they rewrite that server's entry).
 */
export function toForeignEntry(credentials: StoredOAuthCredentials): Record<string, unknown> {
  const { token: stored, client } = credentials;
  const token: Record<string, unknown> = { accessToken: stored.accessToken, tokenType: stored.tokenType };
  if (stored.refreshToken !== undefined) token['refreshToken'] = stored.refreshToken;
  if (stored.scope !== undefined) token['scope'] = stored.scope;
  if (stored.expiresAt !== undefined) token['expiresAt'] = stored.expiresAt;
  const entry: Record<string, unknown> = { serverName: credentials.serverName, token };
  if (client.clientId) entry['clientId'] = client.clientId;
  if (credentials.tokenEndpoint) entry['tokenUrl'] = credentials.tokenEndpoint;
  if (credentials.mcpServerUrl) entry['mcpServerUrl'] = credentials.mcpServerUrl;
  entry['updatedAt'] = credentials.updatedAt;
  const extensionClient: Record<string, unknown> = { source: client.source };
  if (client.clientSecret !== undefined) extensionClient['clientSecret'] = client.clientSecret;
  if (client.tokenEndpointAuthMethod !== undefined) extensionClient['tokenEndpointAuthMethod'] = client.tokenEndpointAuthMethod;
  if (client.redirectUri !== undefined) extensionClient['redirectUri'] = client.redirectUri;
  const extension: Record<string, unknown> = {};
  if (credentials.issuer) extension['issuer'] = credentials.issuer;
  if (credentials.resource) extension['resource'] = credentials.resource;
  extension['client'] = extensionClient;
  if (credentials.grantType !== undefined) extension['grantType'] = credentials.grantType;
  entry[EXTENSION_KEY] = extension;
  return entry;
}

/**
 * As Gemini CLI does when it saves a token: a new token without a refresh token keeps the one
 * already stored for the server, when it comes from the same token endpoint and client.
 */
function keepRefreshToken(credentials: StoredOAuthCredentials, previous: StoredOAuthCredentials | undefined): StoredOAuthCredentials {
  const kept = previous?.token.refreshToken;
  if (credentials.token.refreshToken !== undefined || kept === undefined || previous === undefined) return credentials;
  const sameEndpoint = !previous.tokenEndpoint || previous.tokenEndpoint === credentials.tokenEndpoint;
  const sameClient = !previous.client.clientId || previous.client.clientId === credentials.client.clientId;
  if (!sameEndpoint || !sameClient) return credentials;
  return { ...credentials, token: { ...credentials.token, refreshToken: kept } };
}

/** The server name of a raw entry, when it has one. */
function nameOf(value: unknown): string | undefined {
  return isRecord(value) ? text(value['serverName']) : undefined;
}

/**
 * Gemini CLI's and Qwen Code's plain file, `mcp-oauth-tokens.json`: a JSON array of entries, one
 * per server name (the last one wins when a name repeats, as in their reader). Entries that
 * are not credentials are kept as they are.
 */
export class ForeignArrayDocument implements TokenDocument {
  #items: unknown[];

  constructor(items: unknown[] = []) {
    this.#items = items;
  }

  /** A file toolhost wrote in its own layout where Gemini CLI / Qwen Code expect theirs: written back in theirs. */
  static fromToolhost(entries: readonly StoredOAuthCredentials[]): ForeignArrayDocument {
    return new ForeignArrayDocument(entries.map(toForeignEntry));
  }

  get entries(): StoredOAuthCredentials[] {
    // Later entries of the same name replace earlier ones, as a Map built from the array would.
    const byName = new Map<string, StoredOAuthCredentials>();
    for (const item of this.#items) {
      const credentials = fromForeignEntry(item);
      if (credentials) byName.set(credentials.serverName, credentials);
    }
    return [...byName.values()];
  }

  set(credentials: StoredOAuthCredentials): boolean {
    const previous = findCredentials(this.entries, credentials.serverName);
    const entry = toForeignEntry(keepRefreshToken(credentials, previous));
    const index = this.#items.findIndex((item) => nameOf(item) === credentials.serverName);
    if (index < 0) {
      this.#items.push(entry);
      return true;
    }
    this.#items = this.#items.flatMap((item, i) => (i === index ? [entry] : nameOf(item) === credentials.serverName ? [] : [item]));
    return true;
  }

  delete(serverName: string, issuer?: string): boolean {
    const before = this.#items.length;
    this.#items = this.#items.filter(
      (item) => !(nameOf(item) === serverName && (issuer === undefined || fromForeignEntry(item)?.issuer === issuer)),
    );
    return this.#items.length !== before;
  }

  get empty(): boolean {
    return this.#items.length === 0;
  }

  serialize(): Promise<string> {
    return Promise.resolve(JSON.stringify(this.#items, null, 2));
  }
}

// ---------------------------------------------------------------------------------------------
// Encrypted files (AES-256-GCM, key from the host and user names)

/** How Gemini CLI and Qwen Code derive the key of their encrypted token files. */
export interface EncryptionScheme {
  /** The scrypt password. */
  readonly password: string;
  /** The end of the scrypt salt, after `<hostname>-<username>-`. */
  readonly saltSuffix: string;
}

/** Gemini CLI: `scrypt('gemini-cli-oauth', '<hostname>-<username>-gemini-cli', 32)`. */
export const GEMINI_ENCRYPTION: EncryptionScheme = { password: 'gemini-cli-oauth', saltSuffix: 'gemini-cli' };
/** Qwen Code: `scrypt('qwen-code-oauth', '<hostname>-<username>-qwen-code', 32)`. */
export const QWEN_ENCRYPTION: EncryptionScheme = { password: 'qwen-code-oauth', saltSuffix: 'qwen-code' };

const keys = new Map<string, Promise<Buffer>>();

/** The 32-byte key of `scheme` on this machine, for this user (scrypt N=16384, r=8, p=1, as Node's defaults). */
export function encryptionKey(scheme: EncryptionScheme): Promise<Buffer> {
  const salt = `${hostname()}-${userInfo().username}-${scheme.saltSuffix}`;
  const cacheKey = `${scheme.password}\u0000${salt}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = new Promise<Buffer>((resolve, reject) =>
      scrypt(scheme.password, salt, 32, (error, derived) => (error ? reject(error) : resolve(derived))),
    );
    keys.set(cacheKey, key);
  }
  return key;
}

/** Encrypts as Gemini CLI and Qwen Code do: `<iv hex>:<auth tag hex>:<ciphertext hex>`, a random 16-byte IV. */
export function encryptText(plain: string, key: Buffer): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const encrypted = cipher.update(plain, 'utf8', 'hex') + cipher.final('hex');
  return `${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${encrypted}`;
}

const HEX = /^(?:[0-9a-f]{2})*$/i;

/** Decrypts {@link encryptText}'s format; throws {@link UnrecognisedTokenFile} when it is not that or the key does not fit. */
export function decryptText(data: string, key: Buffer): string {
  const parts = data.split(':');
  const [iv, tag, encrypted] = parts;
  if (
    parts.length !== 3 ||
    iv === undefined ||
    tag === undefined ||
    encrypted === undefined ||
    ![iv, tag, encrypted].every((p) => HEX.test(p))
  )
    throw new UnrecognisedTokenFile('it is not in the "<iv>:<auth tag>:<ciphertext>" hex layout of an encrypted token file');
  if (iv.length === 0 || tag.length !== 32) throw new UnrecognisedTokenFile('its IV or authentication tag has the wrong length');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'hex'));
    decipher.setAuthTag(Buffer.from(tag, 'hex'));
    return decipher.update(encrypted, 'hex', 'utf8') + decipher.final('utf8');
  } catch {
    throw new UnrecognisedTokenFile(
      "it could not be decrypted with the key derived from this machine's host name and this user's name (it may come from another machine or user, or be damaged)",
    );
  }
}

/** The decrypted text of an encrypted token file as JSON; throws {@link UnrecognisedTokenFile} when it is not JSON. */
function parseDecryptedJson(plain: string): unknown {
  try {
    return JSON.parse(plain) as unknown;
  } catch {
    throw new UnrecognisedTokenFile('its decrypted contents are not JSON');
  }
}

/**
 * The encrypted map of Gemini CLI (before its file keychain) and Qwen Code,
 * `mcp-oauth-tokens-v2.json`: a JSON object `{ "<server name>": <entry> }`, encrypted.
 */
export class EncryptedMapDocument implements TokenDocument {
  readonly #map: Record<string, unknown>;
  readonly #key: Buffer;

  constructor(map: Record<string, unknown>, key: Buffer) {
    this.#map = map;
    this.#key = key;
  }

  /** Parses the decrypted JSON; throws {@link UnrecognisedTokenFile} for any other shape. */
  static parse(plain: string, key: Buffer): EncryptedMapDocument {
    const value = parseDecryptedJson(plain);
    if (!isRecord(value)) throw new UnrecognisedTokenFile('its decrypted contents are not a JSON object of entries by server name');
    return new EncryptedMapDocument(value, key);
  }

  get entries(): StoredOAuthCredentials[] {
    return Object.entries(this.#map).flatMap(([name, value]) => fromForeignEntry(value, name) ?? []);
  }

  set(credentials: StoredOAuthCredentials): boolean {
    const previous = fromForeignEntry(this.#map[credentials.serverName], credentials.serverName);
    this.#map[credentials.serverName] = toForeignEntry(keepRefreshToken(credentials, previous));
    return true;
  }

  delete(serverName: string, issuer?: string): boolean {
    if (!Object.hasOwn(this.#map, serverName)) return false;
    if (issuer !== undefined && fromForeignEntry(this.#map[serverName], serverName)?.issuer !== issuer) return false;
    delete this.#map[serverName];
    return true;
  }

  get empty(): boolean {
    return Object.keys(this.#map).length === 0;
  }

  serialize(): Promise<string> {
    return Promise.resolve(encryptText(JSON.stringify(this.#map, null, 2), this.#key));
  }
}

/** The keychain service under which Gemini CLI keeps MCP OAuth tokens. */
export const GEMINI_KEYCHAIN_SERVICE = 'gemini-cli-oauth';
/** Accounts of that service that are not tokens (availability probes, extension secrets). */
const NON_TOKEN_ACCOUNT_PREFIXES = ['__keychain_test__', '__secret__'];

/** Gemini CLI's keychain account name for a server: characters other than letters, digits, `-`, `_` and `.` become `_`. */
export function keychainAccount(serverName: string): string {
  return serverName.replace(/[^a-zA-Z0-9-_.]/g, '_');
}

/**
 * Gemini CLI's encrypted file keychain, `gemini-credentials.json` (its stand-in for the OS
 * keychain): a JSON object `{ "<service>": { "<account>": "<secret>" } }`, encrypted. MCP
 * tokens are the accounts of the `gemini-cli-oauth` service, each secret an entry as a JSON
 * string. Other services and accounts are kept as they are.
 */
export class FileKeychainDocument implements TokenDocument {
  readonly #data: Record<string, unknown>;
  readonly #key: Buffer;

  constructor(data: Record<string, unknown>, key: Buffer) {
    this.#data = data;
    this.#key = key;
  }

  /** Parses the decrypted JSON; throws {@link UnrecognisedTokenFile} for any other shape. */
  static parse(plain: string, key: Buffer): FileKeychainDocument {
    const value = parseDecryptedJson(plain);
    if (!isRecord(value) || (value[GEMINI_KEYCHAIN_SERVICE] !== undefined && !isRecord(value[GEMINI_KEYCHAIN_SERVICE])))
      throw new UnrecognisedTokenFile('its decrypted contents are not a JSON object of secrets by service and account');
    return new FileKeychainDocument(value, key);
  }

  #accounts(): Record<string, unknown> {
    const accounts = this.#data[GEMINI_KEYCHAIN_SERVICE];
    return isRecord(accounts) ? accounts : {};
  }

  #read(account: string): StoredOAuthCredentials | undefined {
    const secret = this.#accounts()[account];
    if (typeof secret !== 'string' || NON_TOKEN_ACCOUNT_PREFIXES.some((prefix) => account.startsWith(prefix))) return undefined;
    try {
      return fromForeignEntry(JSON.parse(secret), account);
    } catch {
      return undefined;
    }
  }

  get entries(): StoredOAuthCredentials[] {
    return Object.keys(this.#accounts()).flatMap((account) => this.#read(account) ?? []);
  }

  set(credentials: StoredOAuthCredentials): boolean {
    const account = keychainAccount(credentials.serverName);
    const entry = toForeignEntry(keepRefreshToken(credentials, this.#read(account)));
    this.#data[GEMINI_KEYCHAIN_SERVICE] = { ...this.#accounts(), [account]: JSON.stringify(entry) };
    return true;
  }

  delete(serverName: string, issuer?: string): boolean {
    const account = keychainAccount(serverName);
    const accounts = this.#accounts();
    if (!Object.hasOwn(accounts, account) || NON_TOKEN_ACCOUNT_PREFIXES.some((prefix) => account.startsWith(prefix))) return false;
    if (issuer !== undefined && this.#read(account)?.issuer !== issuer) return false;
    const rest = { ...accounts };
    delete rest[account];
    if (Object.keys(rest).length === 0) delete this.#data[GEMINI_KEYCHAIN_SERVICE];
    else this.#data[GEMINI_KEYCHAIN_SERVICE] = rest;
    return true;
  }

  get empty(): boolean {
    return Object.keys(this.#data).length === 0;
  }

  serialize(): Promise<string> {
    return Promise.resolve(encryptText(JSON.stringify(this.#data, null, 2), this.#key));
  }
}
