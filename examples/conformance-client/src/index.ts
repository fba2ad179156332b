#!/usr/bin/env node
// The conformance-suite client: `conformance client --command "node dist/index.js"` appends the
// scenario's server URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT; 0.2 of
// the suite also MCP_CONFORMANCE_PROTOCOL_VERSION, the revision to speak).
import { requestedProtocolVersion } from './protocol-version.js';
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
const rawVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const protocolVersion = requestedProtocolVersion(rawVersion);
if (rawVersion !== undefined && protocolVersion === undefined)
  log(`ignoring MCP_CONFORMANCE_PROTOCOL_VERSION=${JSON.stringify(rawVersion)}: not a dated revision`);
if (protocolVersion) log(`MCP ${protocolVersion} requested: pinned in the server entry`);

runScenario({ serverUrl, scenario, log, ...(context ? { context } : {}), ...(protocolVersion ? { protocolVersion } : {}) }).then(
  () => process.exit(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
