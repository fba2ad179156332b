import { escapeControlText } from '@toolhost/contract';
import { redactSecrets } from './redact-secrets.js';

/** Errors of the chain shown, and the length of the whole text. */
const MAX_LINKS = 8;
const MAX_LINK_LENGTH = 500;
const MAX_LENGTH = 2000;

/**
 * The technical detail behind an error, for a debug view (`toolhost mcp list --debug`): each
 * error of its `cause` chain (and the first attempts of an `AggregateError`) as
 * `Name [code]: message`, joined with ` ← `. Secrets are taken out as in connect errors (header
 * values `fetch` quotes, values Node quotes, URL passwords and query values), control characters
 * escaped, every message and the whole bounded. The user-facing message says what happened; this
 * says how the SDK, Node.js or the network put it.
 *
 * @example
 * describeErrorChain(error);
 * // 'TransportError [CONNECT_FAILED]: MCP server … ← TypeError: fetch failed ← Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:1234'
 */
export function describeErrorChain(error: unknown): string {
  const links: string[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && links.length < MAX_LINKS) {
    const current = queue.shift();
    if (current === undefined || current === null || seen.has(current)) continue;
    seen.add(current);
    if (typeof current !== 'object') {
      links.push(escapeControlText(redactSecrets(String(current), undefined), { maxLength: MAX_LINK_LENGTH }));
      continue;
    }
    const record = current as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const name = typeof record.name === 'string' ? record.name : 'Error';
    const code = typeof record.code === 'string' || typeof record.code === 'number' ? ` [${String(record.code)}]` : '';
    const message = typeof record.message === 'string' ? redactSecrets(record.message, current) : '';
    links.push(escapeControlText(`${name}${code}${message ? `: ${message}` : ''}`, { maxLength: MAX_LINK_LENGTH }));
    queue.push(record.cause);
    if (Array.isArray(record.errors)) queue.push(...(record.errors as unknown[]).slice(0, 3));
  }
  return escapeControlText(links.join(' ← '), { maxLength: MAX_LENGTH });
}
