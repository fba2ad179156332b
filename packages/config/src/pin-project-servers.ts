import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { EnvironmentVariables } from './expand-env-vars.js';
import { parseSettingsText } from './parse-settings-text.js';
import { readTextFile } from './read-text-file.js';
import type { McpServerConfig } from './server-config-schema.js';
import { getSettingsFilePath, isProjectInHome, type SettingsLocation } from './settings-paths.js';

/**
 * What `toolhost trust` recorded about one project server: the fields that decide what runs
 * (`command`, `args`, `cwd`, `env`, `url`, `httpUrl`, `headers`, `type`) and `trust`, as written
 * in the settings file (variables not expanded), with the values of `env` and `headers` replaced
 * by their SHA-256 (so no secret written in the file is copied into the trusted-folders file),
 * and the SHA-256 of that record's canonical JSON.
 */
export interface PinnedServer {
  /** `sha256:<hex>` of the canonical JSON (keys sorted) of `launch`. */
  readonly digest: string;
  /** The launch identity that was trusted. */
  readonly launch: Readonly<Record<string, unknown>>;
}

const LAUNCH_FIELDS = ['command', 'args', 'cwd', 'env', 'url', 'httpUrl', 'headers', 'type', 'trust'] as const;
const HASHED_FIELDS = new Set(['env', 'headers']);

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * The launch identity of a server entry as written (see {@link PinnedServer}) and its digest.
 *
 * @example pinServer({ command: 'node', args: ['server.js'] }).digest // 'sha256:…'
 */
export function pinServer(configAsWritten: McpServerConfig): PinnedServer {
  const launch: Record<string, unknown> = {};
  for (const field of LAUNCH_FIELDS) {
    const value = configAsWritten[field];
    if (value === undefined) continue;
    launch[field] = HASHED_FIELDS.has(field)
      ? Object.fromEntries(Object.entries(value as Record<string, string>).map(([key, text]) => [key, sha256(text)]))
      : value;
  }
  return { digest: sha256(canonicalJson(launch)), launch };
}

/**
 * What differs between a trusted launch identity and the current one, one line per field, values
 * JSON-quoted: `command: "node" → "evil"`, `env.TOKEN: changed`, `trust: (not set) → true`.
 */
export function describeLaunchChange(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const show = (value: unknown): string => (value === undefined ? '(not set)' : JSON.stringify(value));
  const lines: string[] = [];
  for (const field of LAUNCH_FIELDS) {
    const old = before[field];
    const now = after[field];
    if (canonicalJson(old ?? null) === canonicalJson(now ?? null)) continue;
    if (HASHED_FIELDS.has(field) && isRecord(old) && isRecord(now)) {
      for (const key of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort()) {
        if (old[key] === now[key]) continue;
        const what = old[key] === undefined ? 'added' : now[key] === undefined ? 'removed' : 'changed';
        lines.push(`${field}.${JSON.stringify(key).slice(1, -1)}: ${what}`);
      }
      continue;
    }
    if (HASHED_FIELDS.has(field)) {
      lines.push(`${field}: ${old === undefined ? 'added' : now === undefined ? 'removed' : 'changed'}`);
      continue;
    }
    lines.push(`${field}: ${show(old)} → ${show(now)}`);
  }
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One line that tells exactly what a server entry runs or reaches, every part JSON-quoted so that
 * `["a b"]` and `["a", "b"]` look different: `"node" "server.js" (cwd "/x", env A, B)` or
 * `"https://example.com/mcp" (http, headers Authorization)`. Values of `env` and `headers` are not
 * shown (they may hold secrets), only their names.
 */
export function formatServerLaunch(config: McpServerConfig): string {
  const parts: string[] = [];
  let line: string;
  if (config.command !== undefined) {
    line = [config.command, ...(config.args ?? [])].map((part) => JSON.stringify(part)).join(' ');
  } else {
    line = JSON.stringify(config.httpUrl ?? config.url ?? '');
    parts.push(config.httpUrl !== undefined ? 'http' : (config.type ?? 'url'));
  }
  if (config.cwd !== undefined) parts.push(`cwd ${JSON.stringify(config.cwd)}`);
  if (config.env !== undefined && Object.keys(config.env).length > 0) parts.push(`env ${Object.keys(config.env).join(', ')}`);
  if (config.headers !== undefined && Object.keys(config.headers).length > 0)
    parts.push(`headers ${Object.keys(config.headers).join(', ')}`);
  if (config.trust === true) parts.push('trust: true, tools run without confirmation');
  return parts.length === 0 ? line : `${line} (${parts.join('; ')})`;
}

/** A server of a project settings file, as `trustFolder` pins it. */
export interface ProjectServerToPin {
  /** The key under `mcpServers`. */
  readonly name: string;
  /** The entry as written. */
  readonly configAsWritten: McpServerConfig;
  /** Its pin. */
  readonly pin: PinnedServer;
}

/**
 * The servers of `<folder>/<appDir>/settings.json` that loaded, with their pins. Empty when the
 * file does not exist, cannot be read, or is the user settings file (folder = home).
 */
export async function readProjectServersToPin(
  folder: string,
  location: Pick<SettingsLocation, 'appDir' | 'homeDir'>,
  env: EnvironmentVariables = process.env,
): Promise<ProjectServerToPin[]> {
  const projectLocation = { ...location, projectDir: folder };
  const filePath = getSettingsFilePath('project', projectLocation);
  if (filePath === undefined || isProjectInHome(projectLocation)) return [];
  const text = await readTextFile(filePath).catch(() => undefined);
  if (text === undefined) return [];
  const parsed = parseSettingsText({ text, filePath, scope: 'project', env });
  const servers: ProjectServerToPin[] = [];
  // `mcp.serverCommand` is the server `mcp` of this file, in place of an `mcpServers` entry `mcp`.
  const command = parsed.serverCommand;
  const entries = command === undefined ? parsed.servers : [...parsed.servers.filter((server) => server.name !== command.name), command];
  for (const server of entries) {
    if (server.config === undefined || server.configAsWritten === undefined) continue;
    servers.push({ name: server.name, configAsWritten: server.configAsWritten, pin: pinServer(server.configAsWritten) });
  }
  return servers;
}
