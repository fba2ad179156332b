/**
 * Why `value` cannot be a Client ID Metadata Document URL, the `client_id` of a client that
 * publishes its own metadata (`undefined` when it can): OAuth Client ID Metadata Document
 * (draft-ietf-oauth-client-id-metadata-document §3) requires an `https` URL with a path, without
 * `.` or `..` path segments, a fragment, or a user name or password. The reason never quotes the
 * value (it may carry a password).
 *
 * @example
 * describeInvalidClientMetadataUrl('https://app.example/oauth/client.json'); // undefined
 * describeInvalidClientMetadataUrl('https://app.example/client.json#'); // 'it has a fragment ("#")'
 */
export function describeInvalidClientMetadataUrl(value: string): string | undefined {
  // The URL parser forgives and rewrites (drops "..", an empty "#", surrounding spaces, turns "\"
  // into "/"), so the rules are checked on the text as written.
  if (value.trim() === '') return 'it is empty';
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return 'it has spaces, control characters or backslashes';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL';
  }
  const written = /^https:\/\/([^/?#]*)([^?#]*)/i.exec(value);
  if (url.protocol !== 'https:' || !written) return 'it is not an https URL';
  const [, authority = '', path = ''] = written;
  if (authority.includes('@')) return 'it has a user name or password';
  if (path === '' || path === '/') return 'it has no path';
  if (path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return 'it has "." or ".." path segments';
  if (value.includes('#')) return 'it has a fragment ("#")';
  return undefined;
}
