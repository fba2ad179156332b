import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// A real redis-server and PostgreSQL on loopback for the whole run: the test setup of
// @toolhost/stores (not exported by that package, so used by path). A missing binary fails the run
// and names the Debian package to install.
export default mergeConfig(shared, defineConfig({ test: { globalSetup: ['../../packages/stores/src/testing/database-servers.ts'] } }));
