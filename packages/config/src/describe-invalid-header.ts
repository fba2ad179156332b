// RFC 9110 §5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What the Fetch standard refuses in a header value, after trimming spaces, tabs, CR and LF at its
// ends: NUL, CR and LF inside it; and any character above U+00FF, which is not a byte.
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const BREAK_OR_NUL = /[\u0000\r\n]/;
const ABOVE_LATIN1 = /[\u0100-\u{10ffff}]/u;

/**
 * Why an HTTP header cannot be sent as configured (`undefined` when it can): a name that is not an
 * RFC 9110 token, or a value `fetch` would refuse (a line break or NUL inside it, a character above
 * U+00FF). The reason names the header only, never its value: header values are credentials
 * (`Authorization`, API keys), and `fetch`'s own error quotes the whole value.
 *
 * @example
 * describeInvalidHeader('Authorization', 'Bearer sk-1\nX-Injected: 1'); // 'its value has a line break or NUL character inside it'
 */
export function describeInvalidHeader(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return "its name is not a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~- only)";
  const trimmed = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (BREAK_OR_NUL.test(trimmed)) return 'its value has a line break or NUL character inside it';
  if (ABOVE_LATIN1.test(trimmed)) return 'its value has a character HTTP cannot carry (above U+00FF)';
  return undefined;
}
