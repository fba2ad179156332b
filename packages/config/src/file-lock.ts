// A lock shared by every process on the machine: a folder made with `mkdir` (proper-lockfile),
// kept fresh while it is held and taken over once its holder stopped refreshing it (crashed).
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadProperLockfile } from './load-proper-lockfile.js';

/**
 * A lock whose holder stopped refreshing it this long ago (the process crashed or was killed) is
 * taken over; the holder refreshes it every half of this.
 */
const STALE_LOCK_MS = 5_000;

/** Why {@link withFileLock} could not take its lock; `work` did not run. */
export interface FileLockFailure {
  /** `timeout` when another process kept the lock, `failed` when the lock folder could not be made. */
  readonly reason: 'timeout' | 'failed';
  /** What happened, in a few words (`held by another process for 10 s`, `EACCES`). */
  readonly detail: string;
  /** The error of the file system, when there is one. */
  readonly cause: unknown;
}

/**
 * Runs `work` while holding the lock folder `lockPath`, a lock shared by every process on the
 * machine (its parent folder is created with mode 0700 if missing), waiting up to `timeoutMs` for
 * another process to release it. A holder that crashed loses the lock 5 s after it stopped
 * refreshing it. The lock is released when `work` settles; what `work` returns or throws is passed
 * on as it is. When the lock cannot be taken, `work` does not run and the error `onLockFailure`
 * makes of the failure is thrown (so each package reports it in its own error family).
 *
 * @example
 * ```ts
 * import { withFileLock } from '@toolhost/config/files';
 *
 * const answer = await withFileLock('/tmp/app/data.json.lock', 10_000, async () => 42, (failure) =>
 *   new Error(`data.json is locked (${failure.detail})`),
 * );
 * ```
 */
export async function withFileLock<T>(
  lockPath: string,
  timeoutMs: number,
  work: () => Promise<T>,
  onLockFailure: (failure: FileLockFailure) => Error,
): Promise<T> {
  const failed = (reason: FileLockFailure['reason'], detail: string, cause: unknown): Error => onLockFailure({ reason, detail, cause });
  try {
    await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw failed('failed', (error as NodeJS.ErrnoException).code ?? String(error), error);
  }
  const lockfile = await loadProperLockfile();
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
        throw failed('failed', (error as NodeJS.ErrnoException).code ?? String(error), error);
      }
      if (Date.now() >= deadline) throw failed('timeout', `held by another process for ${timeoutMs / 1000} s`, error);
      await new Promise((done) => setTimeout(done, 10 + Math.random() * 40));
    }
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
