#!/usr/bin/env node
// The conformance-suite client: `conformance client --command "node dist/index.js"` appends the
// scenario's server URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT).
import { runScenario } from './run-scenario.js';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const log = (line: string): void => void process.stderr.write(`[${scenario || 'client'}] ${line}\n`);

if (!serverUrl) {
  log('usage: toolhost-conformance-client <server-url>  (scenario in MCP_CONFORMANCE_SCENARIO)');
  process.exit(2);
}

const rawContext = process.env.MCP_CONFORMANCE_CONTEXT;
const context = rawContext ? (JSON.parse(rawContext) as Record<string, unknown>) : undefined;

runScenario({ serverUrl, scenario, log, ...(context ? { context } : {}) }).then(
  () => process.exit(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
