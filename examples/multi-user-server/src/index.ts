// toolhost inside a multi-user server: one McpToolHost per user, each with that user's stores
// (OAuth tokens, approvals, tasks) in SQLite, Redis or PostgreSQL, behind a small HTTP JSON API.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { openBackend } from './backend.js';
import { parseConfig, USAGE, UsageError } from './config.js';
import { demoSettings, demoUsers, runTour } from './demo.js';
import { HostPool } from './host-pool.js';
import { PendingCalls } from './pending-calls.js';
import { hashApiKey, startApiServer } from './server.js';

async function main(): Promise<void> {
  let demo: ReturnType<typeof demoUsers> | undefined;
  const config = parseConfig(process.argv.slice(2), process.env, hashApiKey, () => (demo = demoUsers()));
  if (config === undefined) {
    console.log(USAGE);
    return;
  }
  const settings = config.settings ?? demoSettings();
  const backend = openBackend(config.store);
  const pool = new HostPool({
    keyv: backend.keyv,
    encryption: config.encryption,
    settings,
    maxHosts: config.maxHosts,
    idleMs: config.idleMs,
    onEvent: (event) =>
      console.error(
        `host ${event.kind} for user ${JSON.stringify(event.user)}${event.why ? ` (${event.why})` : ''}${event.summary ? `\n${event.summary}` : ''}`,
      ),
  });
  const pending = new PendingCalls(backend.keyv, config.confirmationTtlMs, config.maxPendingCalls);
  let api: Awaited<ReturnType<typeof startApiServer>>;
  try {
    api = await startApiServer({
      pool,
      pending,
      users: config.users,
      maxBodyBytes: config.maxBodyBytes,
      port: config.port,
      host: config.host,
      onError: (error) => console.error('Error:', error),
    });
  } catch (error) {
    await backend.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'EADDRINUSE' ? new UsageError(`Port ${config.port} is in use on ${config.host}: choose another with --port.`) : error;
  }
  // One write, so a process reading the banner never sees half of it.
  const banner = [
    `multi-user-server listening on ${api.url}`,
    `Store: ${backend.description}; OAuth tokens ${config.encryption ? `encrypted (current key ${config.encryption.current})` : 'NOT encrypted (development only)'}.`,
    `Users: ${config.users.size}; MCP servers: ${Object.keys(settings.mcpServers ?? {}).join(', ') || 'none'}${config.settings ? '' : ' (offline demo)'}.`,
    ...(demo
      ? [
          `Demo API keys: alice ${demo.keys.alice}  bob ${demo.keys.bob}`,
          `Try: curl -H 'Authorization: Bearer ${demo.keys.alice}' ${api.url}/tools`,
        ]
      : []),
  ];
  console.log(banner.join('\n'));

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void api
      .close()
      .then(() => pool.close())
      .then(() => backend.close())
      .catch((error: unknown) => console.error('Error while stopping:', error))
      .finally(() => {
        if (demo) rmSync(dirname(demo.sqlitePath), { recursive: true, force: true });
        process.exit(0);
      });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  if (config.demo && demo) {
    await runTour(api.url, demo.keys, (line) => console.log(line));
    console.log('The server keeps running: try the curl line above, Ctrl-C to stop.');
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
