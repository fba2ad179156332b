/**
 * A non-interactive "browser" for OAuth scenarios: it requests the authorization URL, and while
 * the answer is a redirect it follows it by hand, so the loopback callback server receives the
 * authorization code exactly as it would from a real browser. Conformance authorization servers
 * approve without a login page.
 */
export async function followRedirectBrowser(url: string): Promise<void> {
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return;
    next = new URL(location, next).toString();
  }
  throw new Error(`Authorization redirect chain from ${url} is longer than 10 hops`);
}
