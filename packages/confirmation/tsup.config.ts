import { defineConfig } from 'tsup';

// As the other packages (their config is in package.json), plus the two files package.json's
// "imports" picks between for `#load-ajv`: load-ajv-node (plain Node: ajv required on first use) and
// load-ajv (bundlers and other runtimes: ajv imported with the package). The config is a file for
// the CommonJS build of load-ajv-node, which requires from its own path (`__filename`) where the ES
// module build uses `import.meta.url`: tsup's own shim would make a `file:` URL of the path without
// escaping it, which breaks in a folder named with `#` or `%`.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'load-ajv': 'src/load-ajv.ts',
    'load-ajv-node': 'src/load-ajv-node.ts',
  },
  external: ['#load-ajv'],
  format: ['esm', 'cjs'],
  // Type declarations for the public entries only.
  dts: { entry: { index: 'src/index.ts', 'node/index': 'src/node/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': '__filename' };
  },
});
