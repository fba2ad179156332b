import { ConnectionError } from './connection-error.js';

const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;
const UNC = /^\\\\[^\\]+\\[^\\]+/;

function encodeSegments(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ':'))
    .join('/');
}

/**
 * Turns an absolute folder path (POSIX, Windows drive or UNC) into a `file://` URI, percent-encoding
 * each segment. A value that is already a `file://` URI is returned unchanged. Runtime-neutral:
 * does not use `node:url`.
 *
 * @example toFileUri('/home/me/my project') // 'file:///home/me/my%20project'
 * @example toFileUri('C:\\work\\app') // 'file:///C:/work/app'
 */
export function toFileUri(path: string): string {
  if (path.startsWith('file://')) return path;
  if (UNC.test(path)) {
    const [host = '', ...rest] = path.slice(2).split('\\');
    return `file://${host}/${encodeSegments(rest.join('/'))}`;
  }
  if (WINDOWS_DRIVE.test(path)) return `file:///${encodeSegments(path.replace(/\\/g, '/'))}`;
  if (path.startsWith('/')) return `file://${encodeSegments(path)}`;
  throw new ConnectionError({
    code: 'INVALID_ROOT',
    message: `Project folder '${path}' is not an absolute path, so it cannot be offered to MCP servers as a root. Give the folder's absolute path.`,
  });
}
