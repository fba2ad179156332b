// Words shown bare, so the usual `npx -y @scope/server --port=8080` looks as written: letters,
// digits and the marks a POSIX shell reads as they are (those Python's shlex.quote lets through),
// plus `$`, `{` and `}`, since the settings expand `$VAR` and `${VAR}` themselves.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./${}-]+$/;

/**
 * One word of a command line: bare when it holds only letters, digits and `_ @ % + = : , . / - $ { }`,
 * else in single quotes as a POSIX shell reads them (`'a b'`, `''`, a `'` inside written `'"'"'`).
 */
function quoteWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`;
}

/**
 * A stdio server's command and arguments as one line that tells the words apart: a word with a
 * space, a quote, a shell character or anything unusual is single-quoted shell-style, so
 * `["a b"]` shows as `'a b'` and `["a", "b"]` as `a b`. Plain words are shown as they are. The
 * result is not escaped for a terminal: pass it through `escapeControlText` before printing.
 *
 * @example
 * formatCommandLine('npx', ['-y', '@modelcontextprotocol/server-github']); // 'npx -y @modelcontextprotocol/server-github'
 * formatCommandLine('node', ['my server.js', '']); // "node 'my server.js' ''"
 */
export function formatCommandLine(command: string, args: readonly string[] = []): string {
  return [command, ...args].map(quoteWord).join(' ');
}
