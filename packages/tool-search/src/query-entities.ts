/** A query with the things it names by value (addresses, file names) replaced by what they are. */
export interface QueryEntities {
  /** The query without those words, for the word-by-word analysis. */
  readonly text: string;
  /** What the removed words are, in order, each once: `url`, `file`, `image`, `directory`. */
  readonly kinds: readonly string[];
}

// Fixed patterns, applied to one whitespace-separated word at a time (each at most `maxWordChars`
// long after its edge punctuation is cut): nothing is built from the input, nothing backtracks
// beyond the word.
const URL = /^(?:[a-z][a-z\d+.-]*:\/\/|www\.)\S/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
const DOTTED = /^[\p{L}\p{N}_~-]*(?:\.[\p{L}\p{N}_-]+)+$/u;
const PATH = /^(?:~|\.{1,2})?\/|^[\p{L}\p{N}_.~-]+\/[\p{L}\p{N}_.~/-]*$/u;
const EDGE_PUNCTUATION = /^["'`([{<]+|["'`)\]}>,;:!?]+$|\.$/gu;
/** Longer words are not looked at (hostile padding is not an address). */
const MAX_ENTITY_CHARS = 300;

/** Last parts of a host name: the common top-level domains, and what people type for a local one. */
const DOMAIN_ENDINGS: ReadonlySet<string> = new Set(
  'com org net io dev app ai co edu gov info biz me us uk de fr eu ca au jp cn in nl ch se no es it ru br local localhost internal site page cloud tech xyz'.split(
    ' ',
  ),
);

/** Names of files that have no extension but are known by name (matched in lower case). */
const FILE_NAMES: ReadonlySet<string> = new Set(
  'readme license licence changelog contributing codeowners makefile dockerfile gemfile procfile jenkinsfile rakefile vagrantfile brewfile'.split(
    ' ',
  ),
);

/** File name extensions of pictures: such a file is also an image. */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set('png jpg jpeg gif webp bmp svg ico tif tiff heic avif'.split(' '));

/**
 * Endings that make a dotted word a file name. Not `js`: `next.js` and `node.js` name libraries
 * more often than files (a path, `src/app.js`, is still a file).
 */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set([
  ...IMAGE_EXTENSIONS,
  ...'json jsonc json5 yaml yml toml ini cfg conf env xml csv tsv txt md mdx rst log lock ts tsx jsx mjs cjs mts cts'.split(' '),
  ...'py rb go rs java kt kts swift c h cc cpp hpp cs php pl lua sh bash zsh ps1 bat sql graphql proto css scss less'.split(' '),
  ...'html htm vue svelte astro ipynb pdf doc docx xls xlsx ppt pptx odt zip tar gz tgz bz2 xz 7z mp3 wav ogg mp4 mov webm'.split(' '),
  ...'wasm bin exe dll so dylib db sqlite parquet avro pem crt key pub dockerfile gitignore editorconfig npmrc nvmrc'.split(' '),
]);

/**
 * Finds the words of a query that name something by value, which say what kind of thing a tool
 * must handle but whose own words mislead a search ("package" in `package.json` is not about
 * packages, "example" and "com" in `https://example.com/blog` are not about anything):
 * - an address (`https://…`, `www.…`, a host name such as `docs.example.com`) is a `url`;
 * - a file name (`package.json`, `.ts`, `cat.png`) or a path (`src/index.ts`, `/var/log/`) is a
 *   `file`, a picture also an `image`, a path ending in `/` a `directory`;
 * - an e-mail address is dropped (it names a person, not a kind of tool).
 */
export function readQueryEntities(query: string): QueryEntities {
  const kinds: string[] = [];
  const add = (kind: string): void => {
    if (!kinds.includes(kind)) kinds.push(kind);
  };
  const kept: string[] = [];
  for (const raw of query.split(/\s+/)) {
    const word = raw.length > MAX_ENTITY_CHARS ? '' : raw.replace(EDGE_PUNCTUATION, '');
    const kind = word === '' ? undefined : entityKinds(word);
    if (kind === undefined) kept.push(raw);
    else kind.forEach(add);
  }
  return { text: kept.join(' '), kinds };
}

/** The kinds of thing `word` names, or undefined when it is an ordinary word. */
function entityKinds(word: string): readonly string[] | undefined {
  if (URL.test(word)) return ['url'];
  if (FILE_NAMES.has(word.toLowerCase())) return ['file'];
  if (EMAIL.test(word)) return [];
  if (PATH.test(word)) {
    // `/var/log`, `./src/index.ts`, `docs/intro.md`, `logs/`; not `owner/repo` or `src/components`,
    // which may name a repository as well as a folder: their words are searched as words.
    if (word.endsWith('/')) return ['directory'];
    const last = word.slice(word.lastIndexOf('/') + 1);
    if (FILE_EXTENSIONS.has(extension(last))) return fileKinds(last);
    return /^(?:~|\.{1,2})?\//.test(word) ? ['file'] : undefined;
  }
  if (DOTTED.test(word)) {
    // `docs.example.com`, `example.com`; `package.json`, `.ts`, `cat.png`; not `1.5`, `e.g`,
    // `document.title` (known endings only).
    const ending = extension(word);
    if (DOMAIN_ENDINGS.has(ending) && !word.startsWith('.')) return ['url'];
    if (FILE_EXTENSIONS.has(ending) || FILE_NAMES.has(word.slice(0, word.indexOf('.')).toLowerCase())) return fileKinds(word);
  }
  return undefined;
}

function fileKinds(name: string): readonly string[] {
  return IMAGE_EXTENSIONS.has(extension(name)) ? ['file', 'image'] : ['file'];
}

/** What follows the last dot of `name`, lower case; empty without a dot. */
function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}
