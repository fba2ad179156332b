import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The `gc()` function of this process: `globalThis.gc` when node runs with `--expose-gc` (as
 * `pnpm bench` does), else the one V8 exposes to a new context after `--expose-gc` is set at run
 * time. Throws when neither is available.
 */
export function getGc(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('gc() is not available: run node with --expose-gc');
  return gc as () => void;
}
