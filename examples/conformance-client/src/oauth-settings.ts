import type { ScenarioInput } from './scenario-input.js';

/**
 * The Client ID Metadata Document URL the suite expects (`auth/basic-cimd` checks that this URL is
 * the `client_id` when the authorization server supports metadata documents; the suite does not
 * fetch it). Other scenarios' servers do not advertise support, so they register dynamically.
 */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

function contextString(input: ScenarioInput, key: string): string | undefined {
  const value = input.context?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The `oauth` block for the scenario, as a user would write it in settings: pre-registered
 * credentials come from the runner's context; `auth/client-credentials-*` scenarios use the
 * client credentials grant (a `private_key_pem` means `private_key_jwt`), a context with an
 * IdP ID token means enterprise-managed authorization (cross-app access), and one with a workload
 * JWT (`valid_jwt`, `auth/wif-jwt-bearer`) means workload identity: the `jwt_bearer` grant with that
 * token as `oauth.assertion`.
 */
export function oauthSettings(input: ScenarioInput, callbackPort: number): Record<string, unknown> {
  const clientId = contextString(input, 'client_id');
  const clientSecret = contextString(input, 'client_secret');
  const privateKey = contextString(input, 'private_key_pem');
  const signingAlgorithm = contextString(input, 'signing_algorithm');
  const idpIdToken = contextString(input, 'idp_id_token');
  const idpClientId = contextString(input, 'idp_client_id');
  const workloadToken = contextString(input, 'valid_jwt');
  const grantType = idpIdToken
    ? 'enterprise_managed'
    : workloadToken
      ? 'jwt_bearer'
      : input.scenario.startsWith('auth/client-credentials')
        ? 'client_credentials'
        : undefined;
  return {
    enabled: true,
    redirectUri: `http://localhost:${callbackPort}/oauth/callback`,
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    ...(grantType ? { grantType } : {}),
    ...(clientId ? { clientId } : {}),
    ...(clientSecret ? { clientSecret } : {}),
    ...(privateKey ? { privateKey } : {}),
    ...(signingAlgorithm ? { signingAlgorithm } : {}),
    ...(grantType === 'jwt_bearer' ? { assertion: workloadToken } : {}),
    ...(idpIdToken && idpClientId
      ? {
          idp: {
            clientId: idpClientId,
            idToken: idpIdToken,
            ...(contextString(input, 'idp_token_endpoint') ? { tokenUrl: contextString(input, 'idp_token_endpoint') } : {}),
            ...(contextString(input, 'idp_issuer') ? { issuer: contextString(input, 'idp_issuer') } : {}),
          },
        }
      : {}),
  };
}
