// A lock shared by every process on the machine: a folder made with `mkdir` (proper-lockfile),
// kept fresh while it is held and taken over once its holder stopped refreshing it (crashed).
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * A lock whose holder stopped refreshing it this long ago (the process crashed or was killed) is
 * taken over; the holder refreshes it every half of this.
 */
const STALE_LOCK_MS = 5_000;

/** Why a lock could not be taken: another process held it too long, or the folder refused it. */
export class FileLockError extends Error {
  /** `timeout` when another process kept the lock, `failed` when the lock folder could not be made. */
  readonly reason: 'timeout' | 'failed';

  constructor(reason: 'timeout' | 'failed', message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.reason = reason;
  }
}

/**
 * Runs `work` while holding the lock folder `lockPath` (its parent folder is created with mode
 * 0700 if missing), waiting up to `timeoutMs` for another process to release it. The lock is
 * released when `work` settles, whatever it returns or throws.
 *
 * @throws FileLockError when the lock could not be taken.
 */
export async function withFileLock<T>(lockPath: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  try {
    await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new FileLockError('failed', `${(error as NodeJS.ErrnoException).code ?? String(error)}`, error);
  }
  const deadline = Date.now() + timeoutMs;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(lockPath, {
        realpath: false,
        lockfilePath: lockPath,
        stale: STALE_LOCK_MS,
        // Lost only when this process stalled for longer than the stale time and another took it
        // over; the work goes on (its writes are atomic), and the default handler would crash the process.
        onCompromised: () => undefined,
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new FileLockError('failed', `${(error as NodeJS.ErrnoException).code ?? String(error)}`, error);
      }
      if (Date.now() >= deadline) throw new FileLockError('timeout', `held by another process for ${timeoutMs / 1000} s`, error);
      await new Promise((done) => setTimeout(done, 10 + Math.random() * 40));
    }
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
