function trimmedPath(url: URL): string {
  return url.pathname.replace(/\/+$/, '');
}

/**
 * RFC 9728 protected-resource metadata URLs for an MCP server, in the order they are tried:
 * the path-inserted URL (`/.well-known/oauth-protected-resource/<path>`), then the root URL.
 * A server at the root gets only the root URL. The query of the server URL is kept on the
 * path-inserted URL.
 */
export function protectedResourceMetadataUrls(serverUrl: string | URL): URL[] {
  const url = new URL(serverUrl);
  const path = trimmedPath(url);
  const root = new URL('/.well-known/oauth-protected-resource', url.origin);
  if (path === '') return [root];
  const inserted = new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
  inserted.search = url.search;
  return [inserted, root];
}

/**
 * Authorization-server metadata URLs for an issuer, in the order of the MCP 2025-11-25
 * specification. With a path (`https://as.example/tenant1`): RFC 8414 path-inserted,
 * OIDC path-inserted, OIDC path-appended. Without a path: RFC 8414, then OIDC.
 */
export function authorizationServerMetadataUrls(issuer: string | URL): URL[] {
  const url = new URL(issuer);
  const path = trimmedPath(url);
  if (path === '') {
    return [new URL('/.well-known/oauth-authorization-server', url.origin), new URL('/.well-known/openid-configuration', url.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`/.well-known/openid-configuration${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
}

/** The canonical resource URI of an MCP server for RFC 8707: no fragment, no query. */
export function canonicalResourceUri(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  url.hash = '';
  url.search = '';
  return url.href;
}

/**
 * True when a protected-resource metadata `resource` identifies the server at `serverUrl`:
 * same origin, and its path equals the server's path or is a whole-segment prefix of it
 * (so `/api` covers `/api/mcp` but not `/api123`). A trailing slash on either side is ignored.
 */
export function resourceMatchesServer(resource: string, serverUrl: string | URL): boolean {
  let declared: URL;
  try {
    declared = new URL(resource);
  } catch {
    return false;
  }
  const server = new URL(serverUrl);
  if (declared.origin !== server.origin) return false;
  const declaredPath = trimmedPath(declared);
  const serverPath = trimmedPath(server);
  return declaredPath === serverPath || declaredPath === '' || serverPath.startsWith(`${declaredPath}/`);
}
