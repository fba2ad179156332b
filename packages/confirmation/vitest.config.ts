import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// `#load-ajv` (package.json "imports") points at the built files; the tests run the source, as
// tsconfig.json's "paths" does for the type-checker.
export default mergeConfig(
  shared,
  defineConfig({ resolve: { alias: { '#load-ajv': fileURLToPath(new URL('src/load-ajv-node.ts', import.meta.url)) } } }),
);
