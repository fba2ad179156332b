// proper-lockfile (with graceful-fs, retry and signal-exit, 13 modules) is loaded the first time a
// file is locked, not when @toolhost/config is imported: most programs read settings at start-up
// and write none.
import type { lock } from 'proper-lockfile';

/** What this package uses of proper-lockfile. */
interface ProperLockfile {
  readonly lock: typeof lock;
}

let loading: Promise<ProperLockfile> | undefined;

/** proper-lockfile, imported on the first call (later calls share that import). */
export function loadProperLockfile(): Promise<ProperLockfile> {
  if (loading === undefined) loading = import('proper-lockfile').then((module): ProperLockfile => module.default);
  return loading;
}
