import { describeLookAlikeHost } from '@toolhost/config';
import { escapeControlText } from '@toolhost/contract';

/** The parts of a URL-mode elicitation request that come from the URL. */
export interface UrlElicitationTarget {
  /** The full URL, normalised by the URL parser (host in punycode, the rest percent-encoded) and escaped. */
  readonly url: string;
  /** The host name as the URL parser gives it (ASCII; an internationalised name in punycode). */
  readonly domain: string;
  /** Set when the host name is internationalised (punycode) or mixes scripts in one label. */
  readonly hostWarning?: string;
}

/**
 * Reads the URL of a URL-mode elicitation: `undefined` when it is not an `http(s)` URL (the
 * elicitation is then declined without asking); otherwise the full URL, its host name and, for a
 * host that may imitate another, a warning (see `describeLookAlikeHost` of `@toolhost/config`).
 */
export function readElicitationUrl(raw: unknown): UrlElicitationTarget | undefined {
  let url: URL;
  try {
    url = new URL(typeof raw === 'string' ? raw : '');
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const hostWarning = describeLookAlikeHost(url.hostname, {
    subject: "The link's host",
    advice: 'Check the address before opening it.',
  });
  return {
    url: escapeControlText(url.href),
    domain: escapeControlText(url.hostname),
    ...(hostWarning !== undefined ? { hostWarning } : {}),
  };
}
