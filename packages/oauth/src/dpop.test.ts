import { describe, expect, it } from 'vitest';
import { OAuthError } from './index.js';
import { createDpopSession, dpopKeyThumbprint, generateDpopKey, planDpop } from './protocol.js';
import { accessTokenHashOf, verifyDpopProof } from '@toolhost-internal/fixtures/oauth';

describe('planDpop', () => {
  const base = { serverName: 's' };
  const offered = { offersDpop: true };

  it('in auto mode uses DPoP when both servers support it, or when the resource requires it', () => {
    expect(planDpop({ ...base, authorizationServerAlgs: ['ES256'], challenge: offered })).toEqual({ alg: 'ES256' });
    expect(planDpop({ ...base, resourceRequiresDpop: true })).toEqual({ alg: 'ES256' });
    // The authorization server alone does not decide: the MCP server may read Bearer only.
    expect(planDpop({ ...base, authorizationServerAlgs: ['ES256'], challenge: {} })).toBeUndefined();
    expect(planDpop({ ...base, authorizationServerAlgs: ['ES256'] })).toBeUndefined();
    // An MCP server that offers DPoP in front of an authorization server that does not advertise it.
    expect(planDpop({ ...base, challenge: offered })).toBeUndefined();
    expect(planDpop({ ...base, authorizationServerAlgs: [], challenge: offered })).toBeUndefined();
    expect(planDpop({ ...base, authorizationServerAlgs: ['none'], challenge: offered })).toBeUndefined();
  });

  it('follows oauth.dpop true and false', () => {
    expect(planDpop({ ...base, setting: true })).toEqual({ alg: 'ES256' });
    expect(planDpop({ ...base, setting: false, resourceRequiresDpop: true, authorizationServerAlgs: ['ES256'], challenge: offered })).toBe(
      undefined,
    );
  });

  it("picks an algorithm both servers accept, and refuses when the authorization server's are all unknown", () => {
    expect(planDpop({ ...base, setting: true, authorizationServerAlgs: ['RS256', 'PS256', 'ES384'] })).toEqual({ alg: 'ES384' });
    expect(
      planDpop({
        ...base,
        setting: true,
        authorizationServerAlgs: ['ES256', 'PS256'],
        challenge: { offersDpop: true, dpopAlgs: ['PS256'] },
      }),
    ).toEqual({ alg: 'PS256' });
    const refused = (() => {
      try {
        return planDpop({ ...base, setting: true, authorizationServerAlgs: ['HS256'] });
      } catch (error) {
        return error;
      }
    })();
    expect(OAuthError.isInstance(refused) && refused.code).toBe('INVALID_METADATA');
    expect((refused as OAuthError).message).toContain('"dpop": false');
  });
});

describe('DPoP keys and proofs', () => {
  it('generates an ES256 key that signs proofs with fresh jti, htm, htu without query, iat, ath and the nonce', async () => {
    const key = await generateDpopKey();
    expect(key.alg).toBe('ES256');
    expect(key.privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(typeof key.privateJwk['d']).toBe('string');
    const session = await createDpopSession(key, 's');
    const htu = 'https://mcp.example/mcp';
    const first = await session.buildProof({ htm: 'post', htu: `${htu}?x=1#f`, accessToken: 'token-1' });
    const second = await session.buildProof({ htm: 'POST', htu, accessToken: 'token-1' });
    const checked = await Promise.all([first, second].map((proof) => verifyDpopProof(proof, { htm: 'POST', htu, accessToken: 'token-1' })));
    const proofs = checked.map((result) => (result.ok ? result.proof : expect.fail(result.error)));
    expect(proofs[0]?.jkt).toBe(await dpopKeyThumbprint(key));
    expect(proofs[0]?.ath).toBe(accessTokenHashOf('token-1'));
    expect(proofs[0]?.jti).not.toBe(proofs[1]?.jti);
    // The public key travels in the proof; the private part never does.
    expect(JSON.stringify(proofs[0]?.payload)).not.toContain(String(key.privateJwk['d']));
    session.rememberNonce(htu, 'n-1');
    const withNonce = await verifyDpopProof(await session.buildProof({ htm: 'GET', htu }), { htm: 'GET', htu });
    expect(withNonce.ok && withNonce.proof.nonce).toBe('n-1');
  });

  it('another algorithm when asked, and STORE_FAILED naming the server for a key that is not usable', async () => {
    const key = await generateDpopKey('PS256');
    expect(key.privateJwk['kty']).toBe('RSA');
    const session = await createDpopSession(key, 's');
    const proof = await session.buildProof({ htm: 'POST', htu: 'https://as.example/token' });
    expect((await verifyDpopProof(proof, { htm: 'POST', htu: 'https://as.example/token' })).ok).toBe(true);
    for (const broken of [
      { alg: 'ES256', privateJwk: { kty: 'EC', crv: 'P-256' } },
      { alg: 'HS256', privateJwk: key.privateJwk },
    ]) {
      const refused = await createDpopSession(broken, 'bank').catch((error: unknown) => error);
      expect(OAuthError.isInstance(refused) && refused.code).toBe('STORE_FAILED');
      expect((refused as OAuthError).message).toContain("MCP server 'bank'");
    }
  });
});
