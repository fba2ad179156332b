import { describe, expect, it } from 'vitest';
import { sanitizeEnvironment } from './sanitize-environment.js';

describe('sanitizeEnvironment', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    GITHUB_TOKEN: 'x',
    GEMINI_API_KEY: 'y',
    OPENAI_API_KEY: 'z',
    AWS_SECRET_ACCESS_KEY: 's',
    DB_PASSWORD: 'p',
    GOOGLE_APPLICATION_CREDENTIALS: '/creds.json',
    SSL_CERT_FILE: '/etc/ssl/cert.pem',
    DATABASE_URL: 'postgres://db',
    HARMLESS_NAME: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    PROXY: 'http://user:hunter2@proxy:8080',
    EDITOR: 'vim',
    BASH_FUNC_x: '() { echo hi; }',
    UNDEFINED: undefined,
  };

  it('keeps only the listed basics: secrets and everything else stay out', () => {
    expect(sanitizeEnvironment(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      SSL_CERT_FILE: '/etc/ssl/cert.pem',
    });
  });

  it('drops code-loading variables, keeps LC_* and drops a listed proxy with a password', () => {
    const result = sanitizeEnvironment({
      PATH: '/bin',
      NODE_OPTIONS: '--require=/tmp/x.js',
      LD_PRELOAD: '/tmp/x.so',
      DYLD_INSERT_LIBRARIES: '/tmp/x.dylib',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://user:hunter2@proxy:8080',
      NO_PROXY: 'localhost',
    });
    expect(result).toEqual({ PATH: '/bin', LC_ALL: 'C.UTF-8', NO_PROXY: 'localhost' });
  });

  it('compares names without case on Windows only', () => {
    expect(sanitizeEnvironment({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', Node_Options: 'x' }, { platform: 'win32' })).toEqual({
      Path: 'C:\\bin',
      SystemRoot: 'C:\\Windows',
    });
    expect(sanitizeEnvironment({ SystemRoot: 'C:\\Windows' }, { platform: 'linux' })).toEqual({});
  });

  it('honours allow and block lists', () => {
    const result = sanitizeEnvironment(env, { allow: ['GITHUB_TOKEN', 'EDITOR'], block: ['HOME'] });
    expect(result.GITHUB_TOKEN).toBe('x');
    expect(result.EDITOR).toBe('vim');
    expect(result).not.toHaveProperty('HOME');
  });

  it('does not mutate its input', () => {
    const input = { A_TOKEN: '1', PATH: '/bin' };
    sanitizeEnvironment(input);
    expect(input).toEqual({ A_TOKEN: '1', PATH: '/bin' });
  });
});
