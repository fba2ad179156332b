/**
 * Words that mean the same to the people who ask for developer tools, as data a ranker reads.
 * Every entry is a plain word or a short phrase in lower case; the index splits, stems and
 * matches them exactly as it does tool text, so `'pull request'` also covers `pull_request` in a
 * tool name and "pull requests" in a description.
 */
export interface ToolVocabulary {
  /**
   * Groups of words or phrases with one meaning: a request that says one of them also finds tools
   * that say another (`['pull request', 'pr']`: "bump the PR branch" finds
   * `update_pull_request_branch`). A word may be in several groups.
   */
  readonly synonyms: ReadonlyArray<readonly string[]>;
  /**
   * One way and weaker: a word or phrase of a request (the key) that also finds tools described
   * with these words ("bump" a branch means to update it; "update" does not mean "bump").
   */
  readonly related: Readonly<Record<string, readonly string[]>>;
}

/**
 * The built-in vocabulary of developer tools: files, version control and code hosting, browsers,
 * databases, documents and notes, memory, web scraping and documentation lookup. It holds the
 * abbreviations (`PR`, `repo`, `db`, `ls`, `dir`) and everyday words ("take a picture", "go to",
 * "bump") people use instead of the words tool authors write. Extend it for your own domain:
 *
 * @example
 * ```ts
 * const index = createToolIndex(tools, {
 *   vocabulary: { ...DEVELOPER_VOCABULARY, synonyms: [...DEVELOPER_VOCABULARY.synonyms, ['invoice', 'bill']] },
 * });
 * ```
 */
export const DEVELOPER_VOCABULARY: ToolVocabulary = {
  synonyms: [
    // Version control and code hosting.
    ['pull request', 'pr', 'prs', 'merge request', 'mr'],
    ['repository', 'repo', 'repos'],
    ['issue', 'ticket', 'bug'],
    ['branch', 'ref'],
    ['commit', 'changeset'],
    ['fork', 'copy of the repository', 'own copy'],
    // Generic verbs of tool names.
    ['delete', 'remove', 'erase', 'rm', 'del', 'destroy', 'drop', 'trash', 'get rid of', 'wipe'],
    ['get', 'fetch', 'read', 'retrieve', 'load'],
    ['list', 'ls', 'enumerate'],
    ['create', 'make', 'add', 'new'],
    ['update', 'edit', 'modify', 'change', 'patch'],
    ['search', 'find', 'look up', 'lookup', 'query', 'grep'],
    ['write', 'save', 'store', 'persist'],
    ['move', 'rename', 'mv'],
    ['copy', 'duplicate', 'cp'],
    ['run', 'execute', 'exec', 'invoke'],
    ['start', 'trigger', 'launch', 'kick off', 'begin'],
    ['task', 'operation', 'job'],
    ['multiple', 'several', 'many', 'batch', 'bulk', 'at once'],
    ['monitor', 'watch', 'keep an eye on', 'track changes'],
    ['explain', 'query plan', 'execution plan'],
    ['close', 'quit', 'exit', 'shut down'],
    ['insert', 'add'],
    ['count', 'how many', 'number of', 'total'],
    ['download', 'export'],
    ['import', 'load into', 'ingest', 'bulk insert'],
    ['disconnect', 'log out', 'logout', 'sign out', 'log off'],
    ['upload', 'attach'],
    // Files.
    ['directory', 'dir', 'dirs', 'folder'],
    ['file', 'document on disk'],
    ['tree', 'hierarchy', 'structure'],
    ['information', 'info', 'details', 'metadata', 'stats', 'properties'],
    ['content', 'contents', 'text', 'body'],
    ['size', 'bytes', 'disk space', 'disk usage', 'storage size'],
    // Browsers.
    ['screenshot', 'screen shot', 'screen capture', 'screengrab'],
    ['image', 'picture', 'photo', 'img'],
    ['click', 'press', 'tap'],
    ['navigate', 'go to', 'visit', 'browse to', 'open url'],
    ['web page', 'webpage', 'website', 'site'],
    ['url', 'link', 'address'],
    ['type', 'fill', 'enter text', 'input'],
    ['hover', 'mouse over', 'mouseover'],
    ['drag', 'drag and drop'],
    ['wait', 'sleep', 'pause'],
    ['evaluate', 'run javascript', 'execute script', 'eval'],
    ['javascript', 'js', 'script'],
    ['typescript', 'ts'],
    ['tab', 'browser page'],
    ['dialog', 'alert', 'popup', 'confirm box'],
    ['select', 'choose', 'pick', 'dropdown'],
    ['console', 'console log', 'devtools log'],
    ['network', 'http requests', 'xhr', 'api calls', 'api requests', 'fetch calls'],
    ['performance', 'perf', 'speed', 'slow'],
    ['emulate', 'simulate', 'throttle'],
    ['resize', 'viewport', 'window size'],
    ['keyboard', 'key', 'keystroke'],
    ['element', 'button', 'node on the page'],
    ['accessibility', 'a11y'],
    // Databases.
    ['database', 'db', 'dbs', 'data source'],
    ['collection', 'table'],
    ['document', 'record', 'row'],
    ['index', 'indexes', 'indices'],
    ['schema', 'fields', 'columns'],
    ['aggregate', 'aggregation', 'group by', 'pipeline'],
    ['connect', 'connection string', 'log in to'],
    // Documents, notes, memory, knowledge.
    ['page', 'note'],
    ['block', 'paragraph'],
    ['comment', 'reply'],
    ['user', 'person', 'people', 'member'],
    ['entity', 'entities'],
    ['relation', 'relationship', 'link between'],
    ['observation', 'fact', 'remember'],
    ['knowledge graph', 'memory', 'knowledge base', 'kb'],
    // Documentation, libraries, the web.
    ['documentation', 'docs', 'manual', 'api reference'],
    ['library', 'package', 'lib', 'framework', 'sdk', 'module'],
    ['scrape', 'scraping', 'extract content'],
    ['crawl', 'spider', 'whole site'],
    ['map', 'sitemap', 'list urls'],
    // Reasoning.
    ['think', 'reason', 'step by step', 'chain of thought'],
    // Everyday abbreviations.
    ['configuration', 'config', 'settings'],
    ['environment', 'env'],
    ['authentication', 'auth', 'login', 'log in', 'sign in'],
    ['message', 'msg'],
    ['application', 'app'],
    ['identifier', 'id'],
    ['description', 'desc'],
    ['parameter', 'param', 'argument', 'arg'],
    ['previous', 'prev', 'back'],
    ['error', 'exception', 'failure'],
  ],
  related: {
    bump: ['update', 'upgrade'],
    add: ['sum', 'plus'],
    mark: ['update', 'set'],
    every: ['many', 'all'],
    'pull up': ['get', 'open', 'show'],
    who: ['user', 'member'],
    new: ['create'],
    open: ['navigate', 'read', 'create', 'new'],
    show: ['get', 'list', 'read', 'view'],
    see: ['get', 'read', 'list', 'view'],
    view: ['get', 'read'],
    check: ['get', 'status', 'verify'],
    look: ['search', 'get'],
    tell: ['get'],
    picture: ['screenshot'],
    photo: ['screenshot'],
    capture: ['screenshot'],
    grab: ['get', 'screenshot'],
    hit: ['press', 'click'],
    enter: ['key', 'type'],
    load: ['import', 'insert', 'navigate'],
    dump: ['export', 'read', 'list'],
    'speed up': ['index', 'performance'],
    remember: ['save', 'create', 'add', 'observation', 'entity', 'memory', 'knowledge graph'],
    forget: ['delete'],
    note: ['observation'],
    fact: ['entity'],
    code: ['source', 'file'],
    fetch: ['scrape'],
    login: ['authenticate'],
    slow: ['trace'],
    start: ['create'],
    stop: ['close', 'end'],
    history: ['commits', 'log'],
    changes: ['diff', 'commits'],
    diff: ['changes', 'compare'],
    mongo: ['mongodb'],
    gh: ['github'],
  },
};
