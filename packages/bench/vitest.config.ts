import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The image copy check measures retained memory after gc(): the test workers run with --expose-gc.
export default mergeConfig(shared, defineConfig({ test: { execArgv: ['--expose-gc'] } }));
