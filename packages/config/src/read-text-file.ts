import { readFile } from 'node:fs/promises';
import { ConfigError } from './config-error.js';

/**
 * Reads a settings file as UTF-8. Returns `undefined` when it does not exist; throws a
 * `FILE_UNREADABLE` {@link ConfigError} when it exists but cannot be read.
 */
export async function readTextFile(filePath: string): Promise<string | undefined> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError({
      code: 'FILE_UNREADABLE',
      filePath,
      jsonPath: '',
      cause: error,
      message: `${filePath}: the settings file cannot be read (${code ?? String(error)}). Check that it is a readable file; nothing was read from it.`,
    });
  }
}
