import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// A real redis-server and PostgreSQL on loopback for the whole run (the database set-up of the private fixtures package).
export default mergeConfig(shared, defineConfig({ test: { globalSetup: ['@toolhost-internal/fixtures/databases'] } }));
