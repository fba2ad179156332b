import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from './config-error.js';

/** Mode of a settings file that did not exist before: it may hold tokens, so only the owner can read it. */
export const NEW_SETTINGS_FILE_MODE = 0o600;

/**
 * Writes a file so that readers see either the old or the new content, never half of it:
 * the text goes to a temporary file in the same folder, is flushed (fsync), and is renamed over
 * the target; then the folder is flushed too, so the rename survives a crash. An existing file
 * keeps its permission bits; a symbolic link keeps pointing at the file it named (that file is
 * replaced). This function takes no lock: the settings editors (`addServer`, `removeServer`,
 * `setServerEnabled`, `setFolderTrust`) lock the file around their read-modify-write.
 * Throws a `FILE_UNWRITABLE` {@link ConfigError}.
 */
export async function writeFileAtomic(filePath: string, text: string): Promise<void> {
  let target = filePath;
  let mode: number | undefined;
  try {
    target = await realpath(filePath);
    mode = (await stat(target)).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unwritable(filePath, error);
  }
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dirname(target), { recursive: true });
    const handle = await open(temporary, 'wx', mode ?? NEW_SETTINGS_FILE_MODE);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw unwritable(filePath, error);
  }
  await syncFolder(dirname(target));
}

/** Flushes a folder's entries (the rename) to disk. Platforms that cannot open or flush a folder (Windows) skip this. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // EISDIR, EPERM or EINVAL where folders cannot be flushed; the file itself was flushed.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function unwritable(filePath: string, cause: unknown): ConfigError {
  const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
  return new ConfigError({
    code: 'FILE_UNWRITABLE',
    filePath,
    cause,
    message: `${filePath}: the settings file cannot be written (${code}). Check the permissions of the file and its folder; the file was not changed.`,
  });
}
