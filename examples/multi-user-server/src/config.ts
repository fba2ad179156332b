// The command line and the files it names: users, settings, store, token keys. Every problem is a
// UsageError that names the flag, file or variable and says what to do.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { HostSettings } from '@toolhost/host';
import type { StoresEncryption } from '@toolhost/stores';

/** How to run the example (`--help`). */
export const USAGE = `Usage: node examples/multi-user-server/dist/index.js --users <file> [options]

  --users <file>          API keys and their users: { "<api key>": "<user id>" } (required unless --demo)
  --settings <file>       the MCP servers every user gets: a settings file with "mcpServers" (JSON with comments)
                          (default: the offline demo servers, the MCP reference server over stdio)
  --store <spec>          where each user's tokens, approvals and tasks are kept:
                          sqlite:<path>, redis://..., postgres://... (default: $TOOLHOST_STORE, else
                          sqlite:./toolhost-users.sqlite; a URL with a password belongs in $TOOLHOST_STORE)
  --port <n>              port (default 8787; 0 picks a free one and the URL is printed)
  --host <address>        address to listen on (default 127.0.0.1)
  --max-hosts <n>         most users with a live host at once; the least recently used idle one is closed (default 100)
  --idle-seconds <n>      close a user's host after this long without a request (default 600)
  --confirmation-ttl-seconds <n>  how long a call waits for the user's decision (default 900)
  --max-pending-calls <n> most calls waiting for one user's decision; past it the user's oldest is dropped (default 100)
  --max-body-bytes <n>    largest request body (default 65536)
  --unencrypted-dev       store OAuth tokens without encryption (development only)
  --demo                  offline demo: two users (alice, bob) with printed keys, SQLite in a temporary folder,
                          tokens unencrypted (unless TOOLHOST_TOKEN_KEYS is set), a short tour through the API on start-up

Environment:
  TOOLHOST_TOKEN_KEYS     keys encrypting the OAuth tokens: k1:<base64 of 32 bytes>,k2:<...>; the first one is
                          current (new writes), the others are still read (key rotation). Required unless
                          --unencrypted-dev or --demo. Make one with: openssl rand -base64 32
  TOOLHOST_STORE          the store, when --store is not given`;

/** A mistake in the command line, a file or the environment: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** Where the stores live. */
export type StoreSpec =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'redis'; readonly url: string }
  | { readonly kind: 'postgres'; readonly url: string };

/** Everything the server needs, checked. */
export interface ServerConfig {
  /** SHA-256 (hex) of each API key → the user id. */
  readonly users: ReadonlyMap<string, string>;
  /** The MCP servers of every user, or `undefined` for the offline demo servers. */
  readonly settings: HostSettings | undefined;
  readonly store: StoreSpec;
  readonly port: number;
  readonly host: string;
  readonly maxHosts: number;
  readonly idleMs: number;
  readonly confirmationTtlMs: number;
  /** Most calls waiting for one user's decision (the user's oldest is dropped past it). */
  readonly maxPendingCalls: number;
  readonly maxBodyBytes: number;
  /** Token encryption, or `undefined` with `--unencrypted-dev` / `--demo`. */
  readonly encryption: StoresEncryption | undefined;
  /** Run the offline demo tour after start-up. */
  readonly demo: boolean;
}

/** `sha256(key)` as hex: the users map is keyed by it, so a key is never compared character by character. */
export type KeyHasher = (apiKey: string) => string;

/** Parse `process.argv` and the environment into a {@link ServerConfig}. Returns `undefined` for `--help`. */
export function parseConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  hashKey: KeyHasher,
  demoUsers: () => { users: Record<string, string>; sqlitePath: string },
): ServerConfig | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        users: { type: 'string' },
        settings: { type: 'string' },
        store: { type: 'string' },
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        'max-hosts': { type: 'string', default: '100' },
        'idle-seconds': { type: 'string', default: '600' },
        'confirmation-ttl-seconds': { type: 'string', default: '900' },
        'max-pending-calls': { type: 'string', default: '100' },
        'max-body-bytes': { type: 'string', default: '65536' },
        'unencrypted-dev': { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return undefined;
  const demo = values.demo;
  const demoSetup = demo ? demoUsers() : undefined;
  let userMap: Record<string, string>;
  if (values.users !== undefined) userMap = readUsersFile(resolve(values.users));
  else if (demoSetup) userMap = demoSetup.users;
  else throw new UsageError('--users is required: a JSON file { "<api key>": "<user id>" } (or run the offline demo with --demo).');
  const users = new Map<string, string>();
  for (const [key, user] of Object.entries(userMap)) users.set(hashKey(key), user);

  const encryption = tokenKeys(env['TOOLHOST_TOKEN_KEYS']);
  if (encryption === undefined && !values['unencrypted-dev'] && !demo) {
    throw new UsageError(
      'TOOLHOST_TOKEN_KEYS is not set: the OAuth tokens of your users are stored encrypted with it. Set it to k1:<base64 of 32 random bytes> (openssl rand -base64 32), or pass --unencrypted-dev on a development machine.',
    );
  }
  return {
    users,
    settings: values.settings !== undefined ? readSettingsFile(resolve(values.settings)) : undefined,
    store: storeSpec(
      values.store ??
        (env['TOOLHOST_STORE'] || undefined) ??
        (demoSetup ? `sqlite:${demoSetup.sqlitePath}` : 'sqlite:./toolhost-users.sqlite'),
    ),
    port: integer(values.port, '--port', 0, 65_535),
    host: values.host,
    maxHosts: integer(values['max-hosts'], '--max-hosts', 1, 100_000),
    idleMs: integer(values['idle-seconds'], '--idle-seconds', 1, 86_400) * 1000,
    confirmationTtlMs: integer(values['confirmation-ttl-seconds'], '--confirmation-ttl-seconds', 1, 86_400) * 1000,
    maxPendingCalls: integer(values['max-pending-calls'], '--max-pending-calls', 1, 10_000),
    maxBodyBytes: integer(values['max-body-bytes'], '--max-body-bytes', 1024, 16 * 1024 * 1024),
    encryption,
    demo,
  };
}

function integer(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${text}".`);
  }
  return value;
}

/** `sqlite:<path>`, `redis://…` / `rediss://…`, `postgres://…` / `postgresql://…`. */
export function storeSpec(text: string): StoreSpec {
  if (text.startsWith('sqlite:')) {
    const path = text.slice('sqlite:'.length);
    if (path === '') throw new UsageError('--store sqlite: needs a file path, e.g. sqlite:./toolhost-users.sqlite.');
    return { kind: 'sqlite', path: resolve(path) };
  }
  if (/^rediss?:\/\//.test(text)) return { kind: 'redis', url: text };
  if (/^postgres(ql)?:\/\//.test(text)) return { kind: 'postgres', url: text };
  throw new UsageError(`--store must be sqlite:<path>, redis://<host>:<port> or postgres://<user>@<host>/<database>, not "${text}".`);
}

/**
 * `TOOLHOST_TOKEN_KEYS`: `k1:<base64>,k2:<base64>`, each key 32 bytes; the first is current.
 * `undefined` when the variable is unset or empty.
 */
export function tokenKeys(text: string | undefined): StoresEncryption | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const keys: Record<string, string> = {};
  let current: string | undefined;
  for (const item of text.split(',')) {
    const colon = item.indexOf(':');
    const id = item.slice(0, colon).trim();
    const key = item.slice(colon + 1).trim();
    if (colon <= 0 || !/^[A-Za-z0-9._-]{1,64}$/.test(id)) {
      throw new UsageError(
        `TOOLHOST_TOKEN_KEYS: "${item.trim().slice(0, 20)}…" is not <id>:<base64 key>; ids are 1 to 64 of A-Z a-z 0-9 . _ -.`,
      );
    }
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, 'base64').length !== 32) {
      throw new UsageError(`TOOLHOST_TOKEN_KEYS: the key "${id}" must be 32 bytes in base64 (openssl rand -base64 32).`);
    }
    if (id in keys) throw new UsageError(`TOOLHOST_TOKEN_KEYS: the key id "${id}" appears twice.`);
    keys[id] = key;
    current ??= id;
  }
  return { keys, current: current as string };
}

function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the ${what} ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new UsageError(`The ${what} ${path} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`The ${what} ${path} must hold a JSON object.`);
  return value;
}

/** The users file: `{ "<api key>": "<user id>" }`, keys of 16 characters or more. */
export function readUsersFile(path: string): Record<string, string> {
  const value = readJsonFile(path, 'users file') as Record<string, unknown>;
  const users: Record<string, string> = {};
  for (const [key, user] of Object.entries(value)) {
    const shown = `${key.slice(0, 4)}…`;
    if (key.length < 16 || /\s/.test(key)) {
      throw new UsageError(`The users file ${path}: the API key "${shown}" must be at least 16 characters, without spaces.`);
    }
    if (typeof user !== 'string' || user.trim() === '' || user.length > 256) {
      throw new UsageError(
        `The users file ${path}: the user of the API key "${shown}" must be a non-empty string of at most 256 characters.`,
      );
    }
    users[key] = user;
  }
  if (Object.keys(users).length === 0) throw new UsageError(`The users file ${path} has no users: add "<api key>": "<user id>" entries.`);
  return users;
}

/** The `mcpServers` (and `mcp`) of a settings file, JSON with comments. */
export function readSettingsFile(path: string): HostSettings {
  const { mcpServers, mcp } = readJsonFile(path, 'settings file') as HostSettings;
  if (mcpServers === undefined) throw new UsageError(`The settings file ${path} has no "mcpServers": every user would get no tools.`);
  return { mcpServers, ...(mcp ? { mcp } : {}) };
}
