import { describe, expect, it } from 'vitest';
import { applicationTypeFor } from './register-client.js';

describe('applicationTypeFor', () => {
  it('is native for loopback and custom-scheme redirect URIs, web for a remote host', () => {
    for (const uri of [
      'http://localhost:7777/oauth/callback',
      'http://127.0.0.1:0/callback',
      'http://[::1]:8080/cb',
      'com.example.app:/oauth2redirect',
    ]) {
      expect(applicationTypeFor(uri)).toBe('native');
    }
    expect(applicationTypeFor('https://app.example.com/oauth/callback')).toBe('web');
    expect(applicationTypeFor('not a url')).toBe('web');
  });
});
