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

  it('removes secret-looking names and values but keeps the basics', () => {
    expect(sanitizeEnvironment(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      SSL_CERT_FILE: '/etc/ssl/cert.pem',
      EDITOR: 'vim',
    });
  });

  it('honours allow and block lists', () => {
    const result = sanitizeEnvironment(env, { allow: ['GITHUB_TOKEN'], block: ['EDITOR'] });
    expect(result.GITHUB_TOKEN).toBe('x');
    expect(result).not.toHaveProperty('EDITOR');
  });

  it('does not mutate its input', () => {
    const input = { A_TOKEN: '1', PATH: '/bin' };
    sanitizeEnvironment(input);
    expect(input).toEqual({ A_TOKEN: '1', PATH: '/bin' });
  });
});
