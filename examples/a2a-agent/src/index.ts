// An A2A agent with every MCP tool from your settings, on 127.0.0.1: any A2A client (and the web chat) can drive it.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { createA2aServer, createScriptedModel, type AgentModel } from '@toolhost/a2a';
import { createAnthropicAdapter } from '@toolhost/adapter-anthropic';
import { createGeminiAdapter } from '@toolhost/adapter-gemini';
import { createOpenAIResponsesAdapter } from '@toolhost/adapter-openai';
import { McpToolHost, type HostSettings, type McpToolHostOptions, type ModelAdapter } from '@toolhost/host';
import { createAnthropicAgentModel, createGeminiAgentModel, createOpenAIAgentModel } from './vendor-models.js';

const USAGE = `Usage: node examples/a2a-agent/dist/index.js [--port <n>] [--settings <file>] [--model scripted|gemini|openai|anthropic] [--web <dir>] [--token <token>]

  --port      port on 127.0.0.1 (default 41242; 0 picks a free one)
  --settings  a settings file with "mcpServers" (default: the toolhost settings of this folder and your home)
  --model     scripted (offline: "call <tool> <json-arguments>"), gemini (GEMINI_API_KEY), openai (OPENAI_API_KEY),
              anthropic (ANTHROPIC_API_KEY); GEMINI_MODEL, OPENAI_MODEL, ANTHROPIC_MODEL choose the model (default scripted)
  --web       a folder of static files served at / (default: examples/web-chat/dist, when it exists)
  --token     the token every A2A request must carry as "Authorization: Bearer <token>" (default: $A2A_AGENT_TOKEN,
              else a random one, printed once at start with the web chat URL that carries it)`;

/** The web chat next to this example, built. */
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web-chat/dist/', import.meta.url));

class UsageError extends Error {}

interface Vendor {
  readonly adapter?: ModelAdapter<unknown, unknown, unknown>;
  readonly model: AgentModel<unknown, unknown, unknown, unknown>;
}

function requireKey(variable: string, help: string): string {
  const key = process.env[variable];
  if (!key) throw new UsageError(`--model needs ${variable}: ${help}.`);
  return key;
}

/** The adapter and model of `--model`. */
function vendorOf(name: string): Vendor {
  const erase = <T>(value: T) => value as never;
  switch (name) {
    case 'scripted':
      // The host's default adapter is the scripted one.
      return { model: erase(createScriptedModel()) };
    case 'gemini': {
      const apiKey = requireKey('GEMINI_API_KEY', 'get a key at https://aistudio.google.com/apikey');
      const model = process.env['GEMINI_MODEL'] ?? 'gemini-2.5-flash';
      return { adapter: erase(createGeminiAdapter()), model: erase(createGeminiAgentModel({ ai: new GoogleGenAI({ apiKey }), model })) };
    }
    case 'openai': {
      const apiKey = requireKey('OPENAI_API_KEY', 'create a key at https://platform.openai.com/api-keys');
      const model = process.env['OPENAI_MODEL'] ?? 'gpt-5-mini';
      return {
        adapter: erase(createOpenAIResponsesAdapter()),
        model: erase(createOpenAIAgentModel({ client: new OpenAI({ apiKey }), model })),
      };
    }
    case 'anthropic': {
      const apiKey = requireKey('ANTHROPIC_API_KEY', 'create a key at https://console.anthropic.com/settings/keys');
      const model = process.env['ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-5';
      return {
        adapter: erase(createAnthropicAdapter()),
        model: erase(createAnthropicAgentModel({ client: new Anthropic({ apiKey }), model })),
      };
    }
    default:
      throw new UsageError(`--model must be scripted, gemini, openai or anthropic, not "${name}".`);
  }
}

/** The `mcpServers` (and `mcp`) of a settings file, JSON with comments. */
function readSettingsFile(path: string): HostSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the settings file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new UsageError(`The settings file ${path} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`The settings file ${path} must hold a JSON object.`);
  const { mcpServers, mcp } = value as HostSettings;
  return { ...(mcpServers ? { mcpServers } : {}), ...(mcp ? { mcp } : {}) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '41242' },
      settings: { type: 'string' },
      model: { type: 'string', default: 'scripted' },
      web: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number, not "${values.port}".`);
  const vendor = vendorOf(values.model);
  const token = values.token ?? process.env['A2A_AGENT_TOKEN'];
  const tokenSource = values.token !== undefined ? '--token' : 'A2A_AGENT_TOKEN';
  if (token !== undefined && !/^[\x21-\x7e]{8,}$/.test(token)) {
    throw new UsageError(`${tokenSource} must be at least 8 characters long, printable ASCII without spaces.`);
  }
  const webDir = values.web !== undefined ? resolve(values.web) : DEFAULT_WEB_DIR;
  if (values.web !== undefined && !existsSync(webDir)) throw new UsageError(`--web: the folder ${webDir} does not exist.`);

  const options: McpToolHostOptions = {
    // A tool that needs the user waits until the A2A client answers.
    deferConfirmations: true,
    projectDir: process.cwd(),
    ...(values.settings !== undefined ? { settings: readSettingsFile(resolve(values.settings)) } : {}),
    ...(vendor.adapter ? { adapter: vendor.adapter } : {}),
  };
  const host = await McpToolHost.create(options);
  // The settings' warnings are in the discovery summary of the banner; the others (a look-alike
  // sign-in host) are printed as they come.
  const inSummary = new Set(host.servers.status().warnings.map((warning) => warning.message));
  let discovering = true;
  host.on('warning', (warning) => {
    if (!(discovering && inSummary.has(warning.message))) console.error(`Warning: ${warning.message}`);
  });
  const report = await host.discover();
  discovering = false;
  const server = createA2aServer({
    host,
    model: vendor.model,
    // Without a token of the user's, the server generates one: any page or program on this
    // machine could otherwise run the tools.
    ...(token !== undefined ? { bearerToken: token } : {}),
    // The agent listens on 127.0.0.1: a client on this machine may get push notifications.
    pushNotifications: { allowLoopback: true },
    ...(existsSync(webDir) ? { staticDir: webDir } : {}),
    onError: (error) => console.error(`Error: ${error.message}`),
  });
  let url: string;
  try {
    ({ url } = await server.listen({ port, hostname: '127.0.0.1' }));
  } catch (error) {
    await host.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'EADDRINUSE' ? `Port ${port} is in use: choose another with --port.` : String(error));
  }
  const bearerToken = server.bearerToken ?? '';
  // One write, so a process reading the banner never sees half of it. The only place the token
  // is shown; in the URL's fragment it never reaches a server log or a Referer.
  const banner = [
    `A2A agent listening on ${url}`,
    `Agent card: ${url}.well-known/agent-card.json`,
    token === undefined
      ? `Bearer token (generated for this run; --token or A2A_AGENT_TOKEN sets one): ${bearerToken}`
      : `Bearer token: the one given with ${tokenSource}`,
    ...(existsSync(webDir) ? [`Web chat: ${url}#token=${encodeURIComponent(bearerToken)}`] : []),
    // What the model gets, and why a server was skipped (an untrusted folder, a failed start, a sign-in).
    report.summary,
    `Model: ${values.model}`,
  ];
  console.log(banner.join('\n'));
  const stop = () => {
    void server
      .close()
      .then(() => host.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
