import { maskUrl } from '@toolhost/contract';

/**
 * The message of a connect failure without what must never reach a message or a log: the value
 * `fetch` quotes when it refuses a header (`Headers.set: "Bearer sk-…" is an invalid header
 * value`: a credential), the value Node quotes when it refuses an argument or environment
 * variable (`… Received 'sk-…'`), and the password and query values of any URL in it. The
 * entry's own headers, arguments and variables are checked before they are used (see
 * `createTransport`); this catches what comes another way (a token a provider sets, a header an
 * SDK adds).
 */
export function redactSecrets(message: string, error: unknown): string {
  let text = message.replace(/"[\s\S]*" is an invalid header value/g, 'a value (not shown, it may be a secret) is an invalid header value');
  const nodeCode = (error as { code?: unknown } | null)?.code;
  if (typeof nodeCode === 'string' && nodeCode.startsWith('ERR_INVALID_ARG')) {
    text = text.replace(/\. Received [\s\S]*$/, ' (the value is not shown, it may be a secret).');
  }
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (found) => {
    const url = URL.canParse(found) ? new URL(found) : undefined;
    return url && (url.username || url.password || url.search || url.hash) ? maskUrl(found) : found;
  });
}
