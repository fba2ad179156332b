/**
 * A URL safe to show or log: the user name, the password, every query value and the fragment are
 * replaced by `***` (some servers take a token in the query string, some pages pass one in the
 * fragment); the scheme, host, port, path and query names stay, so the user can still tell which
 * server it is. Text that does not parse as a URL is masked the same way, as far as it can be
 * told apart (`user:password@`, `?...`, `#...`).
 *
 * @example
 * ```ts
 * maskUrl('https://user:sk-1@mcp.example.com/mcp?token=sk-2&region=eu'); // 'https://***:***@mcp.example.com/mcp?token=***&region=***'
 * ```
 */
export function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw
      .replace(/^([^/?#]*\/\/)[^/?#]*@/, '$1***@')
      .replace(/#.*$/s, '#***')
      .replace(/\?.*$/s, '?***');
  }
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  for (const key of new Set(url.searchParams.keys())) url.searchParams.set(key, '***');
  if (url.hash) url.hash = '***';
  return url.toString().replace(/%2A%2A%2A/g, '***');
}
