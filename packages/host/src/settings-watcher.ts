import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Options of {@link SettingsWatcher}. */
export interface SettingsWatcherOptions {
  /** The files to watch; they need not exist, nor their folders. */
  readonly files: readonly string[];
  /** Quiet time after the last change before `onChange` runs, so one save (or a burst) gives one call. */
  readonly debounceMs: number;
  /** Called once the files have been quiet for `debounceMs` after a change. */
  readonly onChange: () => void;
}

interface WatchedFolder {
  readonly watcher: FSWatcher;
  /** The folder's inode when the watch started: a folder deleted and created again is watched anew. */
  readonly inode: number;
  /** Names in the folder whose changes count (a settings file, or a folder on the way to one). */
  names: Set<string>;
}

function inodeOf(folder: string): number | undefined {
  try {
    const stats = statSync(folder);
    return stats.isDirectory() ? stats.ino : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Watches settings files with `fs.watch` on their folders, not on the files: an editor or
 * `writeFileAtomic` that writes a temporary file and renames it over the settings file, a file
 * that is created or deleted, and a settings folder that appears or goes away are all seen. Each
 * file's folder and the folder above it are watched (when a folder does not exist yet, the
 * nearest existing one above it); after every change the watches are set up again for the
 * folders as they are now. Only events about the files (or the folders leading to them) count.
 */
export class SettingsWatcher {
  readonly #options: SettingsWatcherOptions;
  readonly #watched = new Map<string, WatchedFolder>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** Create a watcher; nothing is watched until {@link SettingsWatcher.start}. */
  constructor(options: SettingsWatcherOptions) {
    this.#options = options;
  }

  /** Start watching. */
  start(): void {
    this.#arm();
  }

  /** Stop watching; a pending change is dropped. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const { watcher } of this.#watched.values()) watcher.close();
    this.#watched.clear();
  }

  /** Watch the folders that lead to each file as they are now; stop watching the others. */
  #arm(): void {
    if (this.#closed) return;
    const wanted = new Map<string, Set<string>>();
    const want = (folder: string, name: string): void => {
      const names = wanted.get(folder) ?? new Set<string>();
      names.add(name);
      wanted.set(folder, names);
    };
    for (const file of this.#options.files) {
      let name = basename(file);
      let folder = dirname(file);
      let found = false;
      for (;;) {
        if (inodeOf(folder) !== undefined) {
          want(folder, name);
          if (found) break;
          found = true;
        }
        const parent = dirname(folder);
        if (parent === folder) break;
        name = basename(folder);
        folder = parent;
      }
    }
    for (const [folder, entry] of this.#watched) {
      if (!wanted.has(folder) || inodeOf(folder) !== entry.inode) {
        entry.watcher.close();
        this.#watched.delete(folder);
      }
    }
    for (const [folder, names] of wanted) {
      const existing = this.#watched.get(folder);
      if (existing) {
        existing.names = names;
        continue;
      }
      const inode = inodeOf(folder);
      if (inode === undefined) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(folder, { persistent: false }, (_event, filename) => this.#onEvent(folder, filename));
      } catch {
        // A folder that cannot be watched (gone meanwhile, no permission): the one above still is.
        continue;
      }
      watcher.on('error', () => {
        watcher.close();
        if (this.#watched.get(folder)?.watcher === watcher) this.#watched.delete(folder);
        this.#schedule();
      });
      this.#watched.set(folder, { watcher, inode, names });
    }
  }

  #onEvent(folder: string, filename: string | Buffer | null): void {
    const names = this.#watched.get(folder)?.names;
    if (filename !== null && names !== undefined && !names.has(filename.toString())) return;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed) return;
      this.#arm();
      this.#options.onChange();
    }, this.#options.debounceMs);
    this.#timer.unref?.();
  }
}
