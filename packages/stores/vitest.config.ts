import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// A real redis-server and PostgreSQL on loopback for the whole run (src/testing/database-servers.ts).
export default mergeConfig(shared, defineConfig({ test: { globalSetup: ['src/testing/database-servers.ts'] } }));
