import { generateKeyPairSync, verify, constants, type KeyObject } from 'node:crypto';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClientAssertion, loadClientAssertionKey } from './client-assertion.js';
import type { OAuthError } from './oauth-error.js';

const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

function decode(jwt: string) {
  const [header, payload, signature] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>,
    input: Buffer.from(`${header}.${payload}`),
    signature: Buffer.from(signature!, 'base64url'),
  };
}

describe('private_key_jwt client assertions', () => {
  it('signs ES256 (P-256 default) with iss = sub = client id, aud = issuer, a 5-minute lifetime and a jti', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = await loadClientAssertionKey('s', { privateKey: pem(privateKey) });
    expect(key?.algorithm).toBe('ES256');
    const jwt = createClientAssertion({ clientId: 'svc', audience: 'https://as.example', key: key!, now: () => 1_700_000_000_000 });
    const { header, payload, input, signature } = decode(jwt);
    expect(header).toEqual({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toMatchObject({ iss: 'svc', sub: 'svc', aud: 'https://as.example', iat: 1_700_000_000, exp: 1_700_000_300 });
    expect(typeof payload.jti).toBe('string');
    expect(signature).toHaveLength(64); // JWS raw r||s, not DER
    expect(verify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    const other = createClientAssertion({ clientId: 'svc', audience: 'https://as.example', key: key!, now: () => 1_700_000_000_000 });
    expect(decode(other).payload.jti).not.toBe(payload.jti);
  });

  it('signs RS256 and PS256 with an RSA key read from privateKeyFile', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dir = await mkdtemp(join(tmpdir(), 'toolhost-oauth-key-'));
    try {
      const file = join(dir, 'key.pem');
      await writeFile(file, pem(privateKey));
      const rs = await loadClientAssertionKey('s', { privateKeyFile: file });
      expect(rs?.algorithm).toBe('RS256');
      const rsJwt = decode(createClientAssertion({ clientId: 'c', audience: 'a', key: rs! }));
      expect(verify('sha256', rsJwt.input, publicKey, rsJwt.signature)).toBe(true);
      const ps = await loadClientAssertionKey('s', { privateKeyFile: file, signingAlgorithm: 'PS384' });
      const psJwt = decode(createClientAssertion({ clientId: 'c', audience: 'a', key: ps! }));
      expect(psJwt.header.alg).toBe('PS384');
      expect(
        verify(
          'sha384',
          psJwt.input,
          { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
          psJwt.signature,
        ),
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('returns undefined without a key and refuses unreadable, unparsable or mismatched keys with INVALID_CONFIG', async () => {
    expect(await loadClientAssertionKey('s', {})).toBeUndefined();
    const codes = await Promise.all([
      loadClientAssertionKey('s', { privateKey: 'not a key' }).catch((e: OAuthError) => e.code),
      loadClientAssertionKey('s', { privateKeyFile: '/nonexistent/toolhost-key.pem' }).catch((e: OAuthError) => e.code),
      loadClientAssertionKey('s', {
        privateKey: pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey),
        signingAlgorithm: 'RS256',
      }).catch((e: OAuthError) => e.code),
      loadClientAssertionKey('s', {
        privateKey: pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey),
        signingAlgorithm: 'ES256',
      }).catch((e: OAuthError) => e.code),
    ]);
    expect(codes).toEqual(['INVALID_CONFIG', 'INVALID_CONFIG', 'INVALID_CONFIG', 'INVALID_CONFIG']);
  });
});
