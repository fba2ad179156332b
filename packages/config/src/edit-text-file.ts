import { ConfigError } from './config-error.js';
import { readTextFile } from './read-text-file.js';
import { writeFileAtomic } from './write-file-atomic.js';

const ATTEMPTS = 3;

/**
 * Reads a file (`undefined` when missing), lets `edit` compute the new text, and writes it
 * atomically if it changed. If the file changes on disk while the edit is computed, the edit is
 * redone on the new content, so a concurrent writer's change is not lost.
 * Errors thrown by `edit` propagate and leave the file untouched.
 */
export async function editTextFile<T>(
  filePath: string,
  edit: (text: string | undefined) => { text: string | undefined; result: T },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const before = await readTextFile(filePath);
    const { text, result } = edit(before);
    if (text === undefined || text === before) return result;
    if ((await readTextFile(filePath)) !== before) {
      if (attempt < ATTEMPTS) continue;
      throw new ConfigError({
        code: 'FILE_UNWRITABLE',
        filePath,
        message: `${filePath}: the settings file kept changing while it was being edited. Try again; the file was not changed.`,
      });
    }
    await writeFileAtomic(filePath, text);
    return result;
  }
}
