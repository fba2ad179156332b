import path from 'node:path';
import { defineConfig, mergeConfig, type Plugin } from 'vitest/config';
import shared from '../../vitest.shared.js';

// TOOLHOST_AI_SDK_MODULES=<folder>: `ai`, `@ai-sdk/openai` and their subpaths (`ai/test`,
// `ai/package.json`) resolve from <folder>/node_modules instead of the workspace's, so that the
// suite runs against another major (scripts/test-ai-sdk-7.sh: ai 7 under Node 22). Unset: unchanged.
const modules = process.env['TOOLHOST_AI_SDK_MODULES'];
const AI_PACKAGES = /^(?:ai|@ai-sdk\/openai)(?:\/|$)/;

function resolveFrom(folder: string): Plugin {
  const importer = path.join(path.resolve(folder), 'package.json');
  return {
    name: 'toolhost-ai-sdk-modules',
    enforce: 'pre',
    async resolveId(source, _importer, options) {
      if (!AI_PACKAGES.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) throw new Error(`TOOLHOST_AI_SDK_MODULES: ${source} is not installed in ${folder}/node_modules`);
      return resolved;
    },
  };
}

export default modules ? mergeConfig(shared, defineConfig({ plugins: [resolveFrom(modules)] })) : shared;
