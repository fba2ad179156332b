import { HostError, McpToolHost, type ServerStatusView, type ToolCallResult, type UiHooks } from '@toolhost/host';
import { createRedirectFollowingOpener } from '@toolhost/oauth';
import { freePort } from './free-port.js';
import { oauthSettings } from './oauth-settings.js';
import { loadsSkills } from './skill-plan.js';
import type { ScenarioInput } from './scenario-input.js';
import { planToolCalls } from './tool-plan.js';

const SERVER_NAME = 'conformance';

/**
 * Sign-ins per scenario, the host's own included (it signs in by itself during discovery, and for
 * a step-up, since the client gives it `ui.openBrowser`): the first one, and one more after a 401
 * that the stored credentials cannot answer (the server moved to another authorization server, a
 * token was revoked). The client adds a sign-in only below this count, so a server that keeps
 * refusing sees at most two authorization requests from the client itself (the suite's
 * `auth/scope-retry-limit` counts more than three as a loop).
 */
const MAX_SIGN_INS = 2;

/** The settings entry: the scenario's URL, trusted (no confirmation), the requested revision pinned, OAuth started on demand. */
export function serverEntry(input: ScenarioInput, callbackPort: number): Record<string, unknown> {
  return {
    httpUrl: input.serverUrl,
    trust: true,
    ...(input.protocolVersion ? { protocolVersion: input.protocolVersion } : {}),
    oauth: oauthSettings(input, callbackPort),
  };
}

/**
 * True when a failed call is the server's own answer, which a model reads and moves on from: the
 * tool reported an error (`isError`), or the server answered the request with a JSON-RPC error or a
 * result the SDK refused. Everything else (arguments the host refused, no answer, a closed
 * connection, authorization) means the client did not perform the step.
 */
export function answeredByServer(error: HostError): boolean {
  if (error.code === 'TOOL_REPORTED_ERROR') return true;
  if (error.code !== 'REQUEST_FAILED') return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' || code === 'INVALID_RESULT';
}

/**
 * The skills of the server, as a host uses them: listed at discovery (no file read), then, as a
 * user asking for each in turn would (see {@link loadsSkills}), each one loaded through
 * `host.skills.load`, which reads its `SKILL.md` and verifies it against the listed entry. A
 * skill that fails verification is the server's fault: it is reported and not used, and nothing
 * else of it is read.
 */
async function useSkills(host: McpToolHost, input: ScenarioInput): Promise<void> {
  const skills = host.skills.list({ serverName: SERVER_NAME });
  if (skills.length === 0) return;
  input.log(`skills: ${skills.map((skill) => skill.name).join(', ')}`);
  if (!loadsSkills(input.scenario)) return;
  for (const skill of skills) {
    try {
      const loaded = await host.skills.load({ serverName: SERVER_NAME, name: skill.skillName });
      input.log(
        `skill ${skill.name} loaded (${loaded.body.length} characters of instructions, ${loaded.verified ? 'verified' : 'dynamic'})`,
      );
    } catch (error) {
      if (!HostError.isInstance(error) || error.code !== 'SKILL_VERIFICATION_FAILED') throw error;
      input.log(`skill ${skill.name} refused: ${error.message}`);
    }
  }
}

/**
 * Runs one scenario through McpToolHost, as an agent would: connect and discover (signing in when
 * the server asks for it), then make the calls of {@link planToolCalls}. Elicitations are
 * accepted without changes, so the host's SEP-1034 defaults are what the server receives. A 401
 * that the stored credentials cannot answer is met by signing in again and repeating the call,
 * as a user does after `/mcp` says "Authentication: required".
 *
 * Resolves when every step was performed (a failed call that is the server's own answer is
 * logged and does not count); throws when the server cannot be reached or a step failed. Skills
 * (SEP-2640) are listed, then used as {@link useSkills} says.
 */
export async function runScenario(input: ScenarioInput): Promise<void> {
  const openBrowser = createRedirectFollowingOpener();
  const ui: UiHooks = {
    elicit: async (request) => {
      // The host escapes the message; a URL to a look-alike host comes with a warning.
      input.log(`elicitation (${request.mode}) from ${request.serverName}: ${request.message}`);
      if (request.mode === 'url') input.log(`  link: ${request.url}${request.hostWarning ? `\n  ⚠ ${request.hostWarning}` : ''}`);
      return { action: 'accept', content: {} };
    },
    // Conformance authorization servers approve without a login page: follow the redirect to
    // the host's loopback callback as a browser would.
    openBrowser: async (url) => openBrowser(url),
  };
  const host = await McpToolHost.create({
    settings: { mcpServers: { [SERVER_NAME]: serverEntry(input, await freePort()) } },
    clientInfo: { name: 'toolhost-conformance-client', version: '0.0.0' },
    ui,
    // The Skills extension (SEP-2640): declared, skills listed at discovery, loaded on request.
    skills: true,
  });
  let signIns = 0;
  host.on('sign-in-start', (event) => {
    signIns++;
    input.log(`sign-in ${signIns} to ${event.serverName} started`);
  });
  const find = (servers: readonly ServerStatusView[]) => servers.find((entry) => entry.name === SERVER_NAME);
  // What a user does when `/mcp` says "Authentication: required": `/mcp auth <server>`.
  const signIn = async (reason: string): Promise<ServerStatusView | undefined> => {
    input.log(`${reason}; signing in${signIns > 0 ? ' again' : ''}`);
    const before = signIns;
    const status = await host.servers.authenticate({ serverName: SERVER_NAME });
    if (signIns === before) signIns++; // counted even if the host announced no sign-in
    return find(status.servers);
  };
  try {
    for (const warning of host.servers.status().warnings) input.log(`settings warning: ${warning.message}`);
    let server = find((await host.discover()).servers);
    while (server?.status !== 'CONNECTED' && server?.needsAuthentication && signIns < MAX_SIGN_INS) {
      server = await signIn(`not connected (${server.lastError ?? 'no error'})`);
    }
    if (server?.status !== 'CONNECTED' && server?.errorCode === 'NOTHING_OFFERED') {
      // The handshake succeeded, but there is nothing to call: McpToolHost disconnects such a
      // server (Gemini CLI's behaviour), and an agent simply has no tools from it.
      input.log(`connected (MCP ${server.protocolVersion ?? 'revision unknown'}); the server offers no tools, prompts or resources`);
      return;
    }
    if (server?.status !== 'CONNECTED') {
      const why = server?.errorCode ? `, ${server.errorCode}` : '';
      throw new Error(`server did not connect (${server?.status ?? 'missing'}${why}): ${server?.lastError ?? 'no error reported'}`);
    }
    input.log(
      `connected (MCP ${server.protocolVersion ?? 'revision unknown'}); tools: ${server.tools.map((tool) => tool.serverToolName).join(', ') || '(none)'}`,
    );
    await useSkills(host, input);
    for (const call of planToolCalls(host.servers.listTools({ serverName: SERVER_NAME }), input.context)) {
      let result: ToolCallResult = await host.callTool({ name: call.name, arguments: call.arguments });
      while (result.error?.code === 'AUTH_REQUIRED' && signIns < MAX_SIGN_INS) {
        input.log(`${call.originalName} -> ${result.display}`);
        server = await signIn(`${call.originalName} needs authorization`);
        if (server?.status !== 'CONNECTED') break;
        result = await host.callTool({ name: call.name, arguments: call.arguments });
      }
      input.log(`${call.originalName} -> ${result.display}`);
      if (result.error && !answeredByServer(result.error)) throw result.error;
    }
  } finally {
    await host.close();
  }
}
