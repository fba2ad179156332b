// Public API of @toolhost/config/files: the file utilities other packages share (a lock shared by
// every process on the machine, atomic writes). A subpath, so that the root stays about settings.
export { withFileLock } from './file-lock.js';
export type { FileLockFailure } from './file-lock.js';
export { writeFileAtomic, NEW_SETTINGS_FILE_MODE } from './write-file-atomic.js';
