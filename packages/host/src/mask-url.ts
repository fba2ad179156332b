/**
 * A URL safe to show: user name, password and query values are replaced by `***`
 * (some servers take a token in the query string).
 */
export function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.replace(/\?.*$/, '?***');
  }
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '***');
  return url.toString().replace(/%2A%2A%2A/g, '***');
}
