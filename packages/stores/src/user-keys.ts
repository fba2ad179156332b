import { createHash } from 'node:crypto';
import { StoresError } from './stores-error.js';

/** Characters kept as they are in an escaped key part; every other character is percent-encoded (UTF-8). */
const PLAIN = /[A-Za-z0-9._~-]/;

/**
 * The key part for a user id or a name: letters, digits and `._~-` kept, every other character
 * (`:` and `/` included) percent-encoded as UTF-8, so the part never contains a separator and
 * two different ids never give the same part (the encoding is reversible).
 */
export function escapeKeyPart(value: string): string {
  let escaped = '';
  for (const character of value) {
    if (PLAIN.test(character)) {
      escaped += character;
      continue;
    }
    for (const byte of Buffer.from(character, 'utf8')) escaped += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return escaped;
}

/** True when `value` has no lone UTF-16 surrogate (which UTF-8 cannot encode, so two ids could collide). */
function isWellFormed(value: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

/** Checks a user id given to `createKeyvStores`. @throws StoresError `INVALID_OPTIONS` */
export function checkUserId(user: unknown): string {
  if (typeof user !== 'string' || user === '') {
    throw new StoresError({
      code: 'INVALID_OPTIONS',
      message:
        'createKeyvStores: `user` must be a non-empty string (the id of the user whose stores these are, e.g. the subject of their session).',
    });
  }
  if (!isWellFormed(user)) {
    throw new StoresError({
      code: 'INVALID_OPTIONS',
      message:
        'createKeyvStores: `user` contains a lone UTF-16 surrogate, which cannot be stored unambiguously. Pass the id as well-formed text.',
    });
  }
  return user;
}

/** Longest escaped user id kept as it is in keys; a longer one is replaced by its hash (keys stay short enough for `@keyv/postgres`'s 255). */
export const MAX_ESCAPED_USER_LENGTH = 128;

/**
 * The key part of a user id: {@link escapeKeyPart} of it, or, when that is longer than
 * {@link MAX_ESCAPED_USER_LENGTH}, `!` and the base64url SHA-256 of the id (`!` never appears in
 * an escaped part, so a hashed part cannot equal an escaped one).
 */
export function userKeyPart(user: string): string {
  const escaped = escapeKeyPart(user);
  return escaped.length <= MAX_ESCAPED_USER_LENGTH ? escaped : `!${createHash('sha256').update(user, 'utf8').digest('base64url')}`;
}

/** The Keyv key of one of a user's documents: `toolhost:v1:u:<user key part>:<kind>`. */
export function userDocumentKey(user: string, kind: UserDocumentKind): string {
  return `toolhost:v1:u:${userKeyPart(user)}:${kind}`;
}

/** The id of a lock of one user: `toolhost:v1:u:<user key part>:lock:<scope>:<escaped name>`. */
export function userLockId(user: string, scope: 'app' | 'write', name: string): string {
  return `toolhost:v1:u:${userKeyPart(user)}:lock:${scope}:${escapeKeyPart(name)}`;
}

/** What each of a user's documents holds. */
export type UserDocumentKind = 'oauth-tokens' | 'approvals' | 'trusted-folders' | 'tasks';
