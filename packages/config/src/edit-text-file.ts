import { mkdir, realpath } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { loadProperLockfile } from './load-proper-lockfile.js';
import { readTextFile } from './read-text-file.js';
import { writeFileAtomic } from './write-file-atomic.js';

const ATTEMPTS = 3;

/** How long an edit waits for another process's lock on the same file before it gives up. */
export const SETTINGS_LOCK_TIMEOUT_MS = 10_000;

/**
 * A lock whose holder stopped refreshing it (the process crashed or was killed) this long ago is
 * taken over. The holder refreshes it every half of this; it is shorter than
 * {@link SETTINGS_LOCK_TIMEOUT_MS}, so a crashed writer never blocks the next one for good.
 */
const STALE_LOCK_MS = 5_000;

/**
 * Reads a file (`undefined` when missing), lets `edit` compute the new text, and writes it
 * atomically if it changed. The write is a read-modify-write under an exclusive lock
 * (`<file>.lock`, a folder made with `mkdir`, shared by every toolhost process), so concurrent
 * edits of one file by several processes are serialized and none is lost. The lock is taken only
 * when there is something to write; a lock held by another process for longer than
 * {@link SETTINGS_LOCK_TIMEOUT_MS} gives a `FILE_UNWRITABLE` error naming the file.
 * Errors thrown by `edit` propagate and leave the file untouched.
 */
export async function editTextFile<T>(
  filePath: string,
  edit: (text: string | undefined) => { text: string | undefined; result: T },
): Promise<T> {
  // A first look without the lock: an edit that changes nothing (or fails) takes no lock and
  // creates no folder.
  const before = await readTextFile(filePath);
  const first = edit(before);
  if (first.text === undefined || first.text === before) return first.result;
  const lock = await lockFile(filePath);
  try {
    return await editLocked(filePath, edit, lock.assertHeld);
  } finally {
    await lock.release();
  }
}

async function editLocked<T>(
  filePath: string,
  edit: (text: string | undefined) => { text: string | undefined; result: T },
  assertHeld: () => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const before = await readTextFile(filePath);
    const { text, result } = edit(before);
    if (text === undefined || text === before) return result;
    // Another program (an editor, an older toolhost) may write without the lock: redo the edit then.
    if ((await readTextFile(filePath)) !== before) {
      if (attempt < ATTEMPTS) continue;
      throw new ConfigError({
        code: 'FILE_UNWRITABLE',
        filePath,
        message: `${filePath}: the settings file kept changing while it was being edited. Try again; the file was not changed.`,
      });
    }
    assertHeld();
    await writeFileAtomic(filePath, text);
    return result;
  }
}

/** Takes the lock of `filePath` (the file a symbolic link points to, if it is one), waiting up to {@link SETTINGS_LOCK_TIMEOUT_MS}. */
async function lockFile(filePath: string): Promise<{ assertHeld: () => void; release: () => Promise<void> }> {
  const target = await realpath(filePath).catch(() => resolve(filePath));
  const lockPath = `${target}.lock`;
  const lockfile = await loadProperLockfile();
  const deadline = Date.now() + SETTINGS_LOCK_TIMEOUT_MS;
  let compromised: Error | undefined;
  try {
    await mkdir(dirname(target), { recursive: true });
  } catch (error) {
    throw lockError(filePath, lockPath, error);
  }
  for (;;) {
    try {
      const release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath: lockPath,
        stale: STALE_LOCK_MS,
        onCompromised: (error) => {
          compromised = error;
        },
      });
      return {
        // The lock is lost only when this process stalled for longer than the stale time and another took it over.
        assertHeld: () => {
          if (compromised !== undefined) throw lockError(filePath, lockPath, compromised);
        },
        release: () => release().catch(() => undefined),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw lockError(filePath, lockPath, error);
      if (Date.now() >= deadline) {
        throw new ConfigError({
          code: 'FILE_UNWRITABLE',
          filePath,
          cause: error,
          message: `${filePath}: the settings file is locked by another process (lock ${lockPath}), still after ${SETTINGS_LOCK_TIMEOUT_MS / 1000} s. Try again when that process has finished; the file was not changed.`,
        });
      }
      await new Promise((done) => setTimeout(done, 10 + Math.random() * 40));
    }
  }
}

function lockError(filePath: string, lockPath: string, cause: unknown): ConfigError {
  const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
  return new ConfigError({
    code: 'FILE_UNWRITABLE',
    filePath,
    cause,
    message: `${filePath}: the settings file cannot be locked for writing (${code}, lock ${lockPath}). Check the permissions of its folder; the file was not changed.`,
  });
}
