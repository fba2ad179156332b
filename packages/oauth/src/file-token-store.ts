import { createHash, randomBytes } from 'node:crypto';
import { access, chmod, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { withFileLock } from '@toolhost/config/files';
import { OAuthError } from './oauth-error.js';
import {
  APP_NAMES,
  decryptText,
  EncryptedMapDocument,
  encryptionKey,
  FileKeychainDocument,
  ForeignArrayDocument,
  GEMINI_ENCRYPTION,
  isToolhostValue,
  QWEN_ENCRYPTION,
  ToolhostDocument,
  UnrecognisedTokenFile,
  type EncryptionScheme,
  type ForeignApp,
  type TokenDocument,
  type TokenFileFormat,
} from './token-file-layouts.js';
import { findCredentials, type StoredDpopKey, type StoredOAuthCredentials, type TokenStore } from './token-store.js';

export type { TokenFileFormat } from './token-file-layouts.js';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** Full path of the (plain) token file; wins over `appDir`. */
  filePath?: string;
  /** Directory under the home directory. @default '.toolhost' */
  appDir?: string;
  /** Home directory. @default os.homedir() */
  homeDir?: string;
  /**
   * Whose layout the file has. With `auto`, a folder named `.gemini` gives `gemini` and one
   * named `.qwen` gives `qwen` (so `--app-dir .gemini` shares Gemini CLI's tokens); see
   * {@link TokenFileFormat}. @default 'auto'
   */
  format?: TokenFileFormat;
  /**
   * Environment read for Gemini CLI's and Qwen Code's storage switches
   * (`GEMINI_FORCE_ENCRYPTED_FILE_STORAGE`, `GEMINI_FORCE_FILE_STORAGE`,
   * `QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE`, `QWEN_CODE_FORCE_FILE_STORAGE`). @default process.env
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Where the tokens are and how to read them, worked out for each operation. */
type Storage =
  | { kind: 'toolhost'; file: string }
  | { kind: 'array'; file: string; app: ForeignApp | undefined }
  | { kind: 'encrypted-map'; file: string; app: ForeignApp; scheme: EncryptionScheme }
  | { kind: 'file-keychain'; file: string };

/** The environment switches of a program's encrypted storage. */
const ENCRYPTED_STORAGE: Record<ForeignApp, { encrypted: string; fileOnly: string }> = {
  gemini: { encrypted: 'GEMINI_FORCE_ENCRYPTED_FILE_STORAGE', fileOnly: 'GEMINI_FORCE_FILE_STORAGE' },
  qwen: { encrypted: 'QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE', fileOnly: 'QWEN_CODE_FORCE_FILE_STORAGE' },
};

/**
 * The side file that holds the DPoP keys of entries kept in Gemini CLI's or Qwen Code's token
 * file, next to it: their entries have no place for a key, and toolhost never puts one in
 * their file.
 */
export const DPOP_KEY_FILE_NAME = 'toolhost-dpop-keys.json';

/** One key of the side file: the entry it belongs to (server, issuer, client) and the key. */
interface DpopKeyRecord extends StoredDpopKey {
  serverName: string;
  issuer: string;
  clientId: string;
}

function isDpopKeyRecord(value: unknown): value is DpopKeyRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['serverName'] === 'string' &&
    typeof record['issuer'] === 'string' &&
    typeof record['clientId'] === 'string' &&
    typeof record['alg'] === 'string' &&
    typeof record['privateJwk'] === 'object' &&
    record['privateJwk'] !== null
  );
}

function keyRecordOf(credentials: StoredOAuthCredentials): DpopKeyRecord | undefined {
  const key = credentials.dpopKey;
  if (!key) return undefined;
  return {
    serverName: credentials.serverName,
    issuer: credentials.issuer,
    clientId: credentials.client.clientId,
    alg: key.alg,
    privateJwk: key.privateJwk,
  };
}

/** A loaded token file, with the DPoP keys of its entries when they live in the side file. */
interface Loaded {
  storage: Storage;
  document: TokenDocument;
  /** The side file's keys (`undefined` for toolhost's layout, which keeps each key in its entry). */
  keys: DpopKeyRecord[] | undefined;
  /** True when `keys` holds keys the side file does not have yet (moved out of a file in toolhost's layout). */
  keysMoved?: boolean;
}

/** How long a write waits for another process's lock on the token file (10 seconds). */
const WRITE_LOCK_TIMEOUT_MS = 10_000;

/**
 * How long {@link FileTokenStore.withLock} waits for another process to finish its refresh of the
 * same entry (60 seconds: a refresh gives up after 30).
 */
const REFRESH_LOCK_TIMEOUT_MS = 60_000;

/** A credential file as read: its text, and the mode and owner of the file the read went to. */
interface ReadFile {
  readonly text: string;
  /** Permission bits. */
  readonly mode: number;
  /** Owner's uid. */
  readonly uid: number;
}

/**
 * Reads a credential file through one handle, so that the mode and owner checked are those of
 * the file read (a symbolic link is followed, and checked as its target). `undefined` when it
 * does not exist.
 */
async function readCredentialFile(file: string): Promise<ReadFile | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    return { text: await handle.readFile('utf8'), mode: stats.mode & 0o777, uid: stats.uid };
  } finally {
    await handle.close();
  }
}

/**
 * The user this process runs as, or `undefined` where files have no POSIX owner (Windows): the
 * owner and mode checks apply only where there is one.
 */
function currentUid(): number | undefined {
  return process.getuid?.();
}

/**
 * Refuses a credential file another user owns: they could have chosen its tokens and keys, and
 * can change them (root may own it: root can change any file anyway). `what` names it in the
 * error (`The OAuth token file <path>`).
 */
function checkOwner(file: string, read: ReadFile, what: string): void {
  const uid = currentUid();
  if (uid === undefined || read.uid === uid || read.uid === 0) return;
  throw new OAuthError({
    code: 'STORE_FAILED',
    message: `${what} ${file} is owned by another user (uid ${read.uid}), not by the user running toolhost (uid ${uid}): toolhost does not use credentials another user can change, and left it unchanged. If the file is yours, give it back to yourself (chown) and make it private (chmod 600 ${file}); otherwise remove it and sign in again.`,
  });
}

/**
 * Refuses a file holding DPoP private keys that group or others may access (as ssh refuses such
 * a private key): a key others could read may be theirs, and with it they can use a token bound
 * to it. toolhost writes these files with mode 0600.
 */
function checkPrivate(file: string, read: ReadFile, what: string): void {
  if (currentUid() === undefined || (read.mode & 0o077) === 0) return;
  throw new OAuthError({
    code: 'STORE_FAILED',
    message: `${what} ${file} can be read by other users (mode 0${read.mode.toString(8)}), and it holds DPoP private keys: toolhost does not use keys others may have copied, and left it unchanged. If nobody else could have read it, make it private with chmod 600 ${file}; otherwise delete it and sign in again (new keys are made).`,
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A {@link TokenStore} in one file, `~/<appDir>/mcp-oauth-tokens.json` by default. The file is
 * written with mode 0600 (its directory 0700) through a temporary file and a rename, so a crash
 * never leaves a half-written file; writes within a process are serialised. The file is removed
 * when its last entry is deleted.
 *
 * The layout follows the folder (see {@link FileTokenStoreOptions.format}): toolhost's own
 * `{ "version": 1, "entries": [...] }`, or, in `~/.gemini` and `~/.qwen`, the storage of
 * Gemini CLI and Qwen Code, so both programs keep seeing each other's tokens:
 * - their plain JSON array `mcp-oauth-tokens.json` (the default);
 * - with `GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true`, Gemini CLI's encrypted file keychain
 *   `gemini-credentials.json`, or the encrypted `mcp-oauth-tokens-v2.json` of earlier versions
 *   (whichever exists, the keychain file first);
 * - with `QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE=true`, Qwen Code's encrypted `mcp-oauth-tokens-v2.json`.
 *
 * The OS keychain those programs use when the encrypted switch is on is not supported: unless
 * `GEMINI_FORCE_FILE_STORAGE=true` / `QWEN_CODE_FORCE_FILE_STORAGE=true` is set or the
 * encrypted file exists, every call throws `STORE_FAILED` naming the variables. A file whose
 * contents are not recognised (not JSON, another shape, not decryptable) is never written:
 * reads and writes throw `STORE_FAILED` naming it and saying it was left unchanged. So is, as ssh
 * refuses such a private key, a file another user owns (root may own it) and a file holding DPoP
 * private keys that group or others may read (POSIX systems only).
 *
 * DPoP keys (`dpopKey`) are kept in toolhost's layout inside their entries; with Gemini CLI's and
 * Qwen Code's layouts, whose entries have no place for them, in the side file
 * `toolhost-dpop-keys.json` next to their file ({@link DPOP_KEY_FILE_NAME}, mode 0600, written
 * before the token file), never inside their file. A key there belongs to the entry of the same
 * server, issuer and client id; an entry the other program rewrote has none.
 *
 * Several processes may share the file (several instances of one app on a machine): each write
 * is a read-modify-write under the lock `<file>.lock` (a folder, shared by every toolhost
 * process), so no process's entry is lost to another's write, and {@link FileTokenStore.withLock}
 * makes a refresh exclusive across them (a lock folder `<file>.<hash of the name>.lock`). A lock
 * whose holder crashed is taken over after 5 seconds.
 */
export class FileTokenStore implements TokenStore {
  /** Path of the plain token file (`mcp-oauth-tokens.json`); {@link FileTokenStore.storageFile} names the file in use. */
  readonly filePath: string;
  /** The layout asked for (`auto` until a file is read). */
  readonly format: TokenFileFormat;
  readonly #env: Readonly<Record<string, string | undefined>> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  /** Creates a store; nothing is read or written until the first call. */
  constructor(options: FileTokenStoreOptions = {}) {
    this.filePath = options.filePath ?? join(options.homeDir ?? homedir(), options.appDir ?? '.toolhost', 'mcp-oauth-tokens.json');
    this.format = options.format ?? 'auto';
    this.#env = options.env;
  }

  // `index!`: TokenStore is on the package root and this class on ./token-files; TypeDoc names each
  // entry module after its file.
  /** {@inheritDoc index!TokenStore.get} */
  async get(serverName: string, issuer?: string): Promise<StoredOAuthCredentials | undefined> {
    return findCredentials(FileTokenStore.#entries(await this.#load()), serverName, issuer);
  }

  /** {@inheritDoc index!TokenStore.set} */
  set(credentials: StoredOAuthCredentials): Promise<void> {
    return this.#update(
      (document) => document.set(credentials),
      // Their layouts keep one entry per server name: its key replaces the server's keys.
      (keys) => {
        const others = keys.filter((k) => k.serverName !== credentials.serverName);
        const record = keyRecordOf(credentials);
        return record ? [...others, record] : others;
      },
    );
  }

  /** {@inheritDoc index!TokenStore.delete} */
  delete(serverName: string, issuer?: string): Promise<void> {
    return this.#update(
      (document) => document.delete(serverName, issuer),
      (keys) => keys.filter((k) => !(k.serverName === serverName && (issuer === undefined || k.issuer === issuer))),
    );
  }

  /** {@inheritDoc index!TokenStore.list} */
  async list(): Promise<StoredOAuthCredentials[]> {
    return FileTokenStore.#entries(await this.#load());
  }

  /**
   * Runs `work` while holding the lock `name`, exclusive across every process sharing the token
   * file (used around refreshes). Here a lock folder next to the token file,
   * `<file>.<hash of name>.lock`, shared by every process on the machine; it waits up to 60
   * seconds for another process's refresh.
   *
   * @throws OAuthError `STORE_FAILED` when the lock cannot be taken (another process kept it, or
   * the folder is not writable); `work` then did not run.
   */
  async withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
    const hash = createHash('sha256').update(name).digest('hex').slice(0, 16);
    return this.#locked(`${this.filePath}.${hash}.lock`, REFRESH_LOCK_TIMEOUT_MS, 'refresh a token', work);
  }

  /** Runs `work` under the lock folder `lockPath`, turning a lock failure into `STORE_FAILED` naming the file. */
  #locked<T>(lockPath: string, timeoutMs: number, purpose: string, work: () => Promise<T>): Promise<T> {
    return withFileLock(lockPath, timeoutMs, work, ({ reason, detail, cause }) => {
      return new OAuthError({
        code: 'STORE_FAILED',
        message:
          reason === 'timeout'
            ? `Could not ${purpose}: the OAuth token file ${this.filePath} is locked by another process (lock ${lockPath}), ${detail}. Try again when that process has finished; nothing was changed.`
            : `Could not ${purpose}: the lock ${lockPath} of the OAuth token file ${this.filePath} cannot be made (${detail}). Check the permissions of its folder; nothing was changed.`,
        cause,
      });
    });
  }

  /** The entries of a loaded file, each with its DPoP key from the side file when there is one. */
  static #entries({ document, keys }: Loaded): StoredOAuthCredentials[] {
    const entries = document.entries;
    if (!keys || keys.length === 0) return entries;
    return entries.map((entry) => {
      const record = keys.find(
        (k) => k.serverName === entry.serverName && k.issuer === entry.issuer && k.clientId === entry.client.clientId,
      );
      return record ? { ...entry, dpopKey: { alg: record.alg, privateJwk: record.privateJwk } } : entry;
    });
  }

  /**
   * The file the tokens are read from and written to now: {@link FileTokenStore.filePath}, or
   * Gemini CLI's / Qwen Code's encrypted file when their encrypted storage is switched on.
   *
   * @throws OAuthError `STORE_FAILED` when that storage is the OS keychain, which is not supported.
   */
  async storageFile(): Promise<string> {
    return (await this.#storage()).file;
  }

  /** The app whose layout the folder asks for, or `undefined` for toolhost's. */
  #app(): ForeignApp | undefined {
    if (this.format === 'gemini' || this.format === 'qwen') return this.format;
    if (this.format === 'toolhost') return undefined;
    const folder = basename(dirname(this.filePath));
    return folder === '.gemini' ? 'gemini' : folder === '.qwen' ? 'qwen' : undefined;
  }

  async #storage(): Promise<Storage> {
    const app = this.#app();
    if (app === undefined) return { kind: 'toolhost', file: this.filePath };
    const env = this.#env ?? process.env;
    const switches = ENCRYPTED_STORAGE[app];
    if (env[switches.encrypted] !== 'true') return { kind: 'array', file: this.filePath, app };
    const folder = dirname(this.filePath);
    const v2 = join(folder, 'mcp-oauth-tokens-v2.json');
    const fileOnly = env[switches.fileOnly] === 'true';
    if (app === 'gemini') {
      const keychain = join(folder, 'gemini-credentials.json');
      if (await exists(keychain)) return { kind: 'file-keychain', file: keychain };
      if (await exists(v2)) return { kind: 'encrypted-map', file: v2, app, scheme: GEMINI_ENCRYPTION };
      if (fileOnly) return { kind: 'file-keychain', file: keychain };
      throw this.#keychainError(app, keychain);
    }
    if (fileOnly || (await exists(v2))) return { kind: 'encrypted-map', file: v2, app, scheme: QWEN_ENCRYPTION };
    throw this.#keychainError(app, v2);
  }

  #keychainError(app: ForeignApp, encryptedFile: string): OAuthError {
    const { encrypted, fileOnly } = ENCRYPTED_STORAGE[app];
    return new OAuthError({
      code: 'STORE_FAILED',
      message:
        `${encrypted}=true: ${APP_NAMES[app]} then keeps MCP OAuth tokens in the OS keychain, which toolhost cannot read or write, ` +
        `or, where no keychain is usable, in the encrypted file ${encryptedFile}, which does not exist yet. ` +
        `Set ${fileOnly}=true for both ${APP_NAMES[app]} and toolhost so that they share that encrypted file, ` +
        `or unset ${encrypted} so that they share ${this.filePath}. No token file was read or changed.`,
    });
  }

  async #load(known?: Storage): Promise<Loaded> {
    const storage = known ?? (await this.#storage());
    const { document, carriedKeys } = await this.#loadDocument(storage);
    if (document instanceof ToolhostDocument) return { storage, document, keys: undefined };
    const keys = await this.#readKeys(storage);
    let keysMoved = false;
    // Keys of a file an earlier toolhost wrote in its own layout, now written in the other program's.
    for (const carried of carriedKeys) {
      if (keys.some((k) => k.serverName === carried.serverName && k.issuer === carried.issuer)) continue;
      keys.push(carried);
      keysMoved = true;
    }
    return { storage, document, keys, keysMoved };
  }

  #keyFile(storage: Storage): string {
    return join(dirname(storage.file), DPOP_KEY_FILE_NAME);
  }

  async #readKeys(storage: Storage): Promise<DpopKeyRecord[]> {
    const file = this.#keyFile(storage);
    let read: ReadFile | undefined;
    try {
      read = await readCredentialFile(file);
    } catch (error) {
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `Could not read the DPoP key file ${file}: ${(error as Error).message}`,
        cause: error,
      });
    }
    if (read === undefined) return [];
    checkOwner(file, read, 'The DPoP key file');
    checkPrivate(file, read, 'The DPoP key file');
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch {
      value = undefined;
    }
    const keys = isToolhostKeyFile(value) ? value.keys : undefined;
    if (!keys || !keys.every(isDpopKeyRecord)) {
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `The DPoP key file ${file} was not recognised (expected {"version": 1, "keys": [...]}). toolhost left it unchanged and writes no token; move it away or repair it, then sign in again.`,
      });
    }
    return keys;
  }

  async #loadDocument(storage: Storage): Promise<{ document: TokenDocument; carriedKeys: DpopKeyRecord[] }> {
    let read: ReadFile | undefined;
    try {
      read = await readCredentialFile(storage.file);
    } catch (error) {
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `Could not read the OAuth token file ${storage.file}: ${(error as Error).message}`,
        cause: error,
      });
    }
    if (read === undefined) return { document: await this.#emptyDocument(storage), carriedKeys: [] };
    checkOwner(storage.file, read, 'The OAuth token file');
    let loaded: { document: TokenDocument; carriedKeys: DpopKeyRecord[] };
    try {
      loaded = await this.#parse(storage, read.text);
    } catch (error) {
      if (!(error instanceof UnrecognisedTokenFile)) throw error;
      throw new OAuthError({
        code: 'STORE_FAILED',
        message:
          `The OAuth token file ${storage.file} was not recognised: ${error.message}. ` +
          `toolhost left it unchanged and writes no token to it; move it away or repair it, then sign in again.`,
        cause: error,
      });
    }
    // toolhost's layout keeps DPoP keys in the entries (and a file moved to another layout carries them).
    const holdsKeys = loaded.carriedKeys.length > 0 || loaded.document.entries.some((entry) => entry.dpopKey !== undefined);
    if (holdsKeys) checkPrivate(storage.file, read, 'The OAuth token file');
    return loaded;
  }

  async #emptyDocument(storage: Storage): Promise<TokenDocument> {
    switch (storage.kind) {
      case 'toolhost':
        return new ToolhostDocument();
      case 'array':
        return new ForeignArrayDocument();
      case 'encrypted-map':
        return new EncryptedMapDocument({}, await encryptionKey(storage.scheme));
      case 'file-keychain':
        return new FileKeychainDocument({}, await encryptionKey(GEMINI_ENCRYPTION));
    }
  }

  async #parse(storage: Storage, data: string): Promise<{ document: TokenDocument; carriedKeys: DpopKeyRecord[] }> {
    const plain = (document: TokenDocument) => ({ document, carriedKeys: [] });
    if (storage.kind === 'encrypted-map') {
      const key = await encryptionKey(storage.scheme);
      return plain(EncryptedMapDocument.parse(decryptText(data.trim(), key), key));
    }
    if (storage.kind === 'file-keychain') {
      const key = await encryptionKey(GEMINI_ENCRYPTION);
      return plain(FileKeychainDocument.parse(decryptText(data.trim(), key), key));
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw new UnrecognisedTokenFile('it is not valid JSON');
    }
    if (storage.kind === 'toolhost') {
      // With `auto`, a JSON array is the plain layout of Gemini CLI and Qwen Code: kept as such.
      if (Array.isArray(value) && this.format === 'auto') return plain(new ForeignArrayDocument(value));
      if (Array.isArray(value))
        throw new UnrecognisedTokenFile("it is a JSON array (the layout of Gemini CLI and Qwen Code), not toolhost's layout");
      return plain(ToolhostDocument.parse(value));
    }
    if (Array.isArray(value)) return plain(new ForeignArrayDocument(value));
    // A file an earlier toolhost wrote in its own layout where Gemini CLI / Qwen Code expect theirs:
    // written back in theirs, its DPoP keys moved to the side file.
    if (isToolhostValue(value)) {
      const entries = value.entries as StoredOAuthCredentials[];
      return {
        document: ForeignArrayDocument.fromToolhost(entries),
        carriedKeys: entries.flatMap((entry) => keyRecordOf(entry) ?? []),
      };
    }
    const app = storage.app === undefined ? 'Gemini CLI / Qwen Code' : APP_NAMES[storage.app];
    throw new UnrecognisedTokenFile(`it is not a JSON array of entries, the layout ${app} uses`);
  }

  #update(change: (document: TokenDocument) => boolean, changeKeys: (keys: DpopKeyRecord[]) => DpopKeyRecord[]): Promise<void> {
    const run = this.#queue.then(async () => {
      const storage = await this.#storage();
      // A first look without the lock: a change that changes nothing (deleting what is not there) takes no lock and makes no folder.
      if (!FileTokenStore.#changes(await this.#load(storage), change, changeKeys)) return;
      // Other processes may write the same file: read, change and write under its lock.
      await this.#locked(`${storage.file}.lock`, WRITE_LOCK_TIMEOUT_MS, 'write a token', () => this.#write(storage, change, changeKeys));
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** True when `change` and `changeKeys` would change the loaded file (or move keys out of it). */
  static #changes(
    { document, keys, keysMoved }: Loaded,
    change: (document: TokenDocument) => boolean,
    changeKeys: (keys: DpopKeyRecord[]) => DpopKeyRecord[],
  ): boolean {
    if (change(document) || keysMoved === true) return true;
    return keys !== undefined && JSON.stringify(changeKeys(keys)) !== JSON.stringify(keys);
  }

  async #write(
    storage: Storage,
    change: (document: TokenDocument) => boolean,
    changeKeys: (keys: DpopKeyRecord[]) => DpopKeyRecord[],
  ): Promise<void> {
    const { document, keys, keysMoved } = await this.#load(storage);
    const changed = change(document);
    if (keys !== undefined) {
      // The key goes first: a token bound to a key that was never written could not be used.
      const next = changeKeys(keys);
      if (keysMoved === true || JSON.stringify(next) !== JSON.stringify(keys)) {
        const keyFile = this.#keyFile(storage);
        if (next.length === 0) await rm(keyFile, { force: true });
        else await this.#writeAtomically(keyFile, JSON.stringify({ version: 1, keys: next }, null, 2));
      }
    }
    if (!changed) return;
    if (document.empty) {
      await rm(storage.file, { force: true });
      return;
    }
    await this.#writeAtomically(storage.file, await document.serialize());
  }

  async #writeAtomically(file: string, text: string): Promise<void> {
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
      await chmod(temporary, 0o600);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `Could not write the OAuth ${basename(file) === DPOP_KEY_FILE_NAME ? 'DPoP key' : 'token'} file ${file}: ${(error as Error).message}`,
        cause: error,
      });
    }
  }
}

/** The side file's layout: `{ "version": 1, "keys": [...] }`. */
function isToolhostKeyFile(value: unknown): value is { version: 1; keys: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<string, unknown>)['version'] === 1 &&
    Array.isArray((value as Record<string, unknown>)['keys'])
  );
}
