import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { DEFAULT_MCP_TIMEOUT_MS, describeInvalidHeader } from '@toolhost/config';
import { escapeControlText, maskUrl } from '@toolhost/contract';
import { createHttpFetch, type HttpObservations } from './create-http-fetch.js';
import { LegacySseTransport } from './legacy-sse-transport.js';
import { resolveTransportKind } from './resolve-transport-kind.js';
import { packageRunnerOf } from './package-runner.js';
import { PACKAGE_RUNNER_INHERITED_ENV_VARS, sanitizeEnvironment, type SanitizeEnvironmentOptions } from './sanitize-environment.js';
import { StdioTransport } from './stdio-transport.js';
import { StreamableHttpSessionTransport } from './streamable-http-session-transport.js';
import { TransportError } from './transport-error.js';
import type { TransportHandle, TransportOptions } from './transport-options.js';

function invalidConfig(serverName: string, detail: string): TransportError {
  return new TransportError({ code: 'INVALID_CONFIG', message: `MCP server '${escapeControlText(serverName)}': ${detail}`, serverName });
}

/**
 * The request headers: the host's `requestInit` ones, then the entry's. A header that cannot be
 * sent is refused here, naming it: `fetch` would refuse it later with a message (and a `cause`)
 * quoting the whole value, a credential.
 */
function mergedRequestInit(serverName: string, config: McpServerConfig, requestInit: RequestInit | undefined): RequestInit {
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    const problem = describeInvalidHeader(name, value);
    if (problem) {
      throw invalidConfig(
        serverName,
        `the header "${escapeControlText(name, { maxLength: 100 })}" cannot be sent: ${problem} (the value is not shown, it may be a secret). Fix "headers" in its settings entry.`,
      );
    }
  }
  let headers: Headers;
  try {
    headers = new Headers(requestInit?.headers);
  } catch {
    throw invalidConfig(
      serverName,
      "a header of the host's requestInit cannot be sent (its value is not shown, it may be a secret). Fix requestInit.headers.",
    );
  }
  for (const [name, value] of Object.entries(config.headers ?? {})) headers.set(name, value);
  return { ...requestInit, headers: Object.fromEntries(headers.entries()) };
}

/**
 * Refuses a NUL character in the command, an argument or an environment variable: the child
 * could not be started, and Node's refusal quotes the value (an environment value is a secret).
 */
function assertSpawnable(serverName: string, command: string, args: readonly string[], env: Readonly<Record<string, string>>): void {
  const nul = (text: string): boolean => text.includes('\u0000');
  if (nul(command)) throw invalidConfig(serverName, 'its "command" has a NUL character, which a process name cannot hold. Fix "command".');
  const index = args.findIndex(nul);
  if (index >= 0) {
    throw invalidConfig(
      serverName,
      `"args[${index}]" has a NUL character, which a process argument cannot hold (it is not shown). Fix "args".`,
    );
  }
  const variable = Object.entries(env).find(([name, value]) => nul(name) || nul(value));
  if (variable) {
    throw invalidConfig(
      serverName,
      `the environment variable "${escapeControlText(variable[0], { maxLength: 100 })}" has a NUL character, which a process environment cannot hold (its value is not shown, it may be a secret). Fix "env".`,
    );
  }
}

/**
 * Builds the legacy HTTP+SSE transport for `url` (also used by the Streamable HTTP fallback).
 * Its `start()` waits for the `endpoint` event at most `endpointTimeoutMs`
 * (default: the entry's `timeout`) and stops when `signal` aborts.
 */
export function createSseTransport(
  {
    url,
    config,
    endpointTimeoutMs,
    signal,
  }: { url: URL; config: McpServerConfig; endpointTimeoutMs?: number; signal?: AbortSignal | undefined },
  options: TransportOptions,
): TransportHandle {
  const observations: HttpObservations = {};
  const transport = new LegacySseTransport(
    url,
    {
      requestInit: mergedRequestInit(options.serverName, config, options.requestInit),
      fetch: createHttpFetch({
        fetch: options.fetch ?? globalThis.fetch,
        observations,
        rewriteGetNotFound: false,
        serverName: options.serverName,
        ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
      }),
      ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    },
    {
      serverName: options.serverName,
      observations,
      endpointTimeoutMs: endpointTimeoutMs ?? config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
      signal,
    },
  );
  return {
    transport,
    kind: 'sse',
    stderr: undefined,
    pid: undefined,
    authChallenge: () => observations.challenge,
    close: () => transport.close(),
  };
}

/**
 * Builds the transport for one `mcpServers` entry without connecting it:
 * `httpUrl` → Streamable HTTP; `url` + `type: 'sse'` → SSE; `url` + `type: 'http'` or no type →
 * Streamable HTTP (use `connectTransport` for the SSE fallback); `command` → stdio.
 * The stdio child inherits only an allowlist of variables (see `sanitizeEnvironment`: no
 * `NODE_OPTIONS`, `LD_PRELOAD` or secrets), plus the entry's `env` (never removed); it runs in
 * its own process group on POSIX; its stderr is kept in `stderr`.
 * @throws TransportError `INVALID_CONFIG` for an entry without a usable transport, a header that
 * cannot be sent, or a NUL character in the command, an argument or an environment variable (the
 * message names the header or variable, never its value).
 * @example
 * const { transport } = createTransport({ command: 'node', args: ['server.js'] }, { serverName: 'demo' });
 * await client.connect(transport);
 */
export function createTransport(config: McpServerConfig, options: TransportOptions): TransportHandle {
  const target = resolveTransportKind(options.serverName, config);
  if (target.kind === 'sse') return createSseTransport({ url: target.url, config }, options);
  if (target.kind === 'http') {
    const observations: HttpObservations = {};
    const fetch = createHttpFetch({
      fetch: options.fetch ?? globalThis.fetch,
      observations,
      serverName: options.serverName,
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
      server: { name: options.serverName, url: maskUrl(target.url.href) },
    });
    const requestInit = mergedRequestInit(options.serverName, config, options.requestInit);
    const transport = new StreamableHttpSessionTransport({
      serverName: options.serverName,
      url: maskUrl(target.url.href),
      observations,
      ...(options.sessionDeleteTimeoutMs !== undefined ? { deleteTimeoutMs: options.sessionDeleteTimeoutMs } : {}),
      ...(options.endSessionOnClose === false ? { endSessionOnClose: false } : {}),
      createTransport: (sessionId) =>
        new StreamableHTTPClientTransport(target.url, {
          requestInit,
          fetch,
          ...(options.authProvider ? { authProvider: options.authProvider } : {}),
          ...(sessionId !== undefined ? { sessionId } : {}),
        }),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    });
    return {
      transport,
      kind: 'http',
      stderr: undefined,
      pid: undefined,
      authChallenge: () => observations.challenge,
      close: () => transport.close(),
    };
  }
  const inherited = options.env ?? globalThis.process?.env ?? {};
  const env = { ...sanitizeEnvironment(inherited, childEnvironmentRules(target.command, config.args, options.environment)), ...config.env };
  assertSpawnable(options.serverName, target.command, config.args ?? [], env);
  const transport = new StdioTransport({
    serverName: options.serverName,
    command: target.command,
    args: config.args ?? [],
    env,
    ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
    ...(options.stderrLines !== undefined ? { stderrLines: options.stderrLines } : {}),
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    ...(options.stderrLinesPerSecond !== undefined ? { stderrLinesPerSecond: options.stderrLinesPerSecond } : {}),
    ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
    ...(options.installGraceMs !== undefined ? { installGraceMs: options.installGraceMs } : {}),
    ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
  });
  return {
    transport,
    kind: 'stdio',
    stderr: transport.stderr,
    get pid() {
      return transport.pid;
    },
    authChallenge: () => undefined,
    close: () => transport.close(),
  };
}

/** The inheritance rules of a stdio child: a package runner also inherits {@link PACKAGE_RUNNER_INHERITED_ENV_VARS}. */
function childEnvironmentRules(
  command: string,
  args: readonly string[] | undefined,
  rules: SanitizeEnvironmentOptions | undefined,
): SanitizeEnvironmentOptions | undefined {
  if (packageRunnerOf(command, args ?? []) === undefined) return rules;
  const blocked = new Set(rules?.block ?? []);
  const extra = PACKAGE_RUNNER_INHERITED_ENV_VARS.filter((name) => !blocked.has(name));
  return { ...rules, allow: [...(rules?.allow ?? []), ...extra] };
}
