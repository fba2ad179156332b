// The import rules of the monorepo (DESIGN.md, "Layers"), checked by `pnpm check:imports` in CI.
// Violations that existed when a rule was added are listed in .dependency-cruiser-known-violations.json;
// that file may only shrink (regenerate it with `pnpm check:imports:baseline` after removing some).

/** The packages that own MCP wire work: the only ones whose code may import the MCP SDK. */
const SDK_PACKAGES = ['transport', 'oauth', 'discovery', 'connection'];
/** Private packages that stand up MCP peers or measure the SDK side by side (never published). */
const SDK_PRIVATE_PACKAGES = ['fixtures', 'bench'];
/** Test code: co-located tests and their helpers, and the private test packages. */
const TEST_FILES = ['\\.test\\.ts$', '\\.test-helper\\.ts$', '/test-support\\.ts$', '^packages/(test-support|api-tests|browser-tests)/'];
// An SDK import resolves into node_modules, or stays the bare name when the importing package does not
// declare the dependency: both match.
/** The SDK's client side (the client class, its transports, the shared protocol core). */
const SDK_CLIENT = '(^|/node_modules/)@modelcontextprotocol/(client|core)(/|$)';
/** Every SDK library (servers included); `server-everything` and `conformance` are programs, not libraries. */
const SDK_ANY = '(^|/node_modules/)@modelcontextprotocol/(?!(server-everything|conformance)(/|$))';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle anywhere; a type-only import closes a cycle too (the files still depend on each other).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-relative-import-into-another-package',
      severity: 'error',
      comment:
        'Import another workspace package by its name and public entry (add a subpath entry if needed), never by a path into its folder.',
      from: { path: '^(packages|examples)/([^/]+)/' },
      to: { dependencyTypes: ['local'], path: '^(packages|examples)/', pathNot: '^$1/$2/' },
    },
    {
      name: 'sdk-only-in-wire-packages',
      severity: 'error',
      comment:
        'SDK classes stay in transport, oauth, discovery and connection: no other package (host included) imports the MCP SDK in its code.',
      from: {
        path: '^(packages|examples)/',
        pathNot: [`^packages/(${[...SDK_PACKAGES, ...SDK_PRIVATE_PACKAGES].join('|')})/`, '^examples/conformance-client/', ...TEST_FILES],
      },
      to: { path: SDK_ANY },
    },
    {
      name: 'sdk-client-only-in-wire-packages',
      severity: 'error',
      comment:
        "Tests of other packages may stand up real MCP servers with the SDK's server side, but reach a server only through toolhost's own API.",
      from: {
        path: TEST_FILES,
        pathNot: [`^packages/(${[...SDK_PACKAGES, ...SDK_PRIVATE_PACKAGES].join('|')})/`, '^examples/conformance-client/'],
      },
      to: { path: SDK_CLIENT },
    },
  ],
  options: {
    // Built output is kept in the graph (so an import by path into another package's dist is seen) but not walked.
    doNotFollow: { path: ['(^|/)node_modules/', '^(packages|examples)/[^/]+/dist/'] },
    exclude: { path: '(^|/)(coverage|\\.turbo)/|^\\.tmp/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'node', 'default'] },
  },
};
