// Public API of @toolhost/oauth/google: the providers for Google-hosted MCP servers
// (authProviderType google_credentials and service_account_impersonation). They load
// google-auth-library, an optional peer dependency, on first use: install it to use them.
export {
  GoogleCredentialProvider,
  GOOGLE_CREDENTIALS_ALLOWED_HOSTS,
  type GoogleCredentialProviderOptions,
} from './google-credential-provider.js';
export {
  ServiceAccountImpersonationProvider,
  generateIdTokenUrl,
  type ServiceAccountImpersonationProviderOptions,
} from './service-account-impersonation-provider.js';
export type { GoogleAuthLike, GoogleAuthClientLike } from './google-auth-client.js';
