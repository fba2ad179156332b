/** A PKCE pair and the `state` of one authorization request. */
export interface PkceParameters {
  /** The secret `code_verifier` (43 base64url characters). */
  codeVerifier: string;
  /** `BASE64URL(SHA-256(code_verifier))`. */
  codeChallenge: string;
  /** The `state` sent with the request and checked on the callback. */
  state: string;
}

function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Creates a fresh PKCE S256 pair and a random `state` using Web Crypto. */
export async function createPkceParameters(): Promise<PkceParameters> {
  const codeVerifier = base64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return {
    codeVerifier,
    codeChallenge: base64Url(new Uint8Array(digest)),
    state: base64Url(globalThis.crypto.getRandomValues(new Uint8Array(16))),
  };
}
