import type { Node } from 'jsonc-parser';
import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { expandString, type EnvironmentVariables } from './expand-env-vars.js';
import { formatJsonPath, type JsonPathSegment } from './json-path.js';
import { parseServerCommand, SERVER_COMMAND_SERVER_NAME } from './parse-server-command.js';
import { errorAtNode, findPropertyValue, FORBIDDEN_KEYS, nodeToValue, parseJsoncDocument, type JsoncDocument } from './read-jsonc.js';
import type { McpServerConfig } from './server-config-schema.js';
import type { SettingsScope } from './settings-paths.js';
import { unsetVariableText, validateServerEntry } from './validate-server-entry.js';

/** One `mcpServers` entry of one file, in file order. */
export interface ParsedServerEntry {
  /** The key of the entry. */
  readonly name: string;
  /** The checked, expanded entry; `undefined` when the entry has an error (see `errors`). */
  readonly config: McpServerConfig | undefined;
  /** The checked entry before environment expansion; `undefined` when the entry has an error. */
  readonly configAsWritten: McpServerConfig | undefined;
}

/** What one settings file contributes. */
export interface ParsedSettingsFile {
  /** Scope of the file. */
  readonly scope: SettingsScope;
  /** Path of the file. */
  readonly filePath: string;
  /** Entries of `mcpServers` in the order they are written (a repeated name keeps its first place and last value). */
  readonly servers: readonly ParsedServerEntry[];
  /** `mcp.allowed` of this file, when it is set and valid. */
  readonly allowed: readonly string[] | undefined;
  /** `mcp.excluded` of this file, when it is set and valid. */
  readonly excluded: readonly string[] | undefined;
  /**
   * The server named `mcp` that `mcp.serverCommand` (Gemini CLI v1: `mcpServerCommand`) defines,
   * when it is set; `config` is `undefined` when it is malformed (see `errors`).
   */
  readonly serverCommand: ParsedServerEntry | undefined;
  /** True when `mcp`, `mcp.allowed` or `mcp.excluded` is malformed: every server is then blocked. */
  readonly invalidList: boolean;
  /** Problems that stopped something from loading. */
  readonly errors: readonly ConfigError[];
  /** Problems that did not. */
  readonly warnings: readonly ConfigWarning[];
}

/** Options of {@link parseSettingsText}. */
export interface ParseSettingsTextOptions {
  /** The file's text (JSON with comments). */
  readonly text: string;
  /** Path of the file, used in messages. */
  readonly filePath: string;
  /** Scope the file belongs to. */
  readonly scope: SettingsScope;
  /** Variables for `$VAR` expansion. */
  readonly env: EnvironmentVariables;
  /** A `process.platform` value: `win32` also expands `%VAR%`. @default process.platform */
  readonly platform?: string;
}

/**
 * Reads the MCP part of one settings file: `mcpServers`, `mcp.allowed`, `mcp.excluded` and
 * `mcp.serverCommand`, with environment variables expanded in every string (see `expandEnvVars`).
 * Never throws for bad content: a malformed file, a wrong type or a bad entry becomes an
 * entry of `errors`, and every other entry still loads. Other settings in the file are ignored.
 */
export function parseSettingsText(options: ParseSettingsTextOptions): ParsedSettingsFile {
  const { filePath, scope } = options;
  const platform = options.platform ?? process.platform;
  const errors: ConfigError[] = [];
  const warnings: ConfigWarning[] = [];
  const result = {
    scope,
    filePath,
    servers: [] as ParsedServerEntry[],
    allowed: undefined as string[] | undefined,
    excluded: undefined as string[] | undefined,
    serverCommand: undefined as ParsedServerEntry | undefined,
    invalidList: false,
    errors,
    warnings,
  };
  let document: JsoncDocument;
  try {
    document = parseJsoncDocument(options.text, filePath);
  } catch (error) {
    errors.push(error as ConfigError);
    return result;
  }
  const root = document.root;
  if (root === undefined) return result;
  if (root.type !== 'object') {
    errors.push(
      errorAtNode(document, root, {
        code: 'INVALID_TYPE',
        path: [],
        problem: 'a settings file must contain one JSON object, { ... }. Nothing was read from it.',
      }),
    );
    return result;
  }

  const serversNode = findPropertyValue(root, 'mcpServers');
  if (serversNode !== undefined && serversNode.type !== 'object') {
    errors.push(
      errorAtNode(document, serversNode, {
        code: 'INVALID_TYPE',
        path: ['mcpServers'],
        problem: 'must be an object whose keys are server names. No server was read from this file.',
      }),
    );
  } else if (serversNode !== undefined) {
    const byName = new Map<string, ParsedServerEntry>();
    for (const property of serversNode.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      const name = String(keyNode.value);
      if (FORBIDDEN_KEYS.has(name)) {
        warnings.push({
          code: 'IGNORED_KEY',
          filePath,
          jsonPath: `mcpServers[${JSON.stringify(name)}]`,
          message: `${filePath}: "${name}" cannot be a server name and is ignored. Rename the entry.`,
        });
        continue;
      }
      if (byName.has(name)) {
        warnings.push({
          code: 'DUPLICATE_KEY',
          filePath,
          jsonPath: `mcpServers.${name}`,
          serverName: name,
          message: `${filePath}: the server "${name}" is defined more than once; the last definition is used. Remove the others.`,
        });
      }
      if (name.trim() === '') {
        errors.push(
          errorAtNode(document, keyNode, {
            code: 'INVALID_SERVER_NAME',
            path: ['mcpServers', name],
            problem: 'a server name cannot be empty. Give the entry a name; it was not loaded.',
          }),
        );
        continue;
      }
      const entry = validateServerEntry({ document, valueNode, serverName: name, env: options.env, platform });
      errors.push(...entry.errors);
      warnings.push(...entry.warnings);
      byName.set(name, { name, config: entry.config, configAsWritten: entry.configAsWritten });
    }
    result.servers = [...byName.values()];
  }

  const mcpNode = findPropertyValue(root, 'mcp');
  if (mcpNode !== undefined && mcpNode.type !== 'object') {
    errors.push(
      errorAtNode(document, mcpNode, {
        code: 'INVALID_TYPE',
        path: ['mcp'],
        problem: 'must be an object such as { "allowed": [...], "excluded": [...] }. Every server is blocked until it is fixed.',
      }),
    );
    result.invalidList = true;
    return result;
  }
  result.serverCommand = readServerCommand(document, root, mcpNode, options.env, platform, warnings, errors);
  for (const [field, legacy] of [
    ['allowed', 'allowMCPServers'],
    ['excluded', 'excludeMCPServers'],
  ] as const) {
    let node = findPropertyValue(mcpNode, field);
    let path = ['mcp', field];
    if (node === undefined) {
      node = findPropertyValue(root, legacy);
      path = [legacy];
      if (node !== undefined) {
        warnings.push({
          code: 'DEPRECATED_KEY',
          filePath,
          jsonPath: legacy,
          message: `${filePath}: "${legacy}" is the old name of "mcp.${field}"; it is used, but move it to "mcp.${field}".`,
        });
      }
    }
    if (node === undefined) continue;
    const list = readStringList(document, node, path, warnings, options.env, platform);
    if (list === undefined) {
      errors.push(
        errorAtNode(document, node, {
          code: 'INVALID_TYPE',
          path,
          problem: 'must be a list of server names, such as ["github"]. Every server is blocked until it is fixed.',
        }),
      );
      result.invalidList = true;
    } else {
      result[field] = list;
    }
  }
  return result;
}

function readStringList(
  document: JsoncDocument,
  node: Node,
  path: string[],
  warnings: ConfigWarning[],
  env: EnvironmentVariables,
  platform: string,
): string[] | undefined {
  const value = nodeToValue(node, path, { filePath: document.filePath, warnings });
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
  return (value as string[]).map((item, index) =>
    expandString(item, env, (name) => warnings.push(unsetWarning(document.filePath, [...path, index], name)), platform),
  );
}

function unsetWarning(filePath: string, path: readonly JsonPathSegment[], name: string, serverName?: string): ConfigWarning {
  const jsonPath = formatJsonPath(path);
  return {
    code: 'UNSET_ENV_VAR',
    filePath,
    jsonPath,
    ...(serverName === undefined ? {} : { serverName }),
    message: `${filePath}: ${jsonPath}: ${unsetVariableText(name)}`,
  };
}

/** `mcp.serverCommand`, or the v1 `mcpServerCommand` when it is absent, as the server `mcp`. */
function readServerCommand(
  document: JsoncDocument,
  root: Node,
  mcpNode: Node | undefined,
  env: EnvironmentVariables,
  platform: string,
  warnings: ConfigWarning[],
  errors: ConfigError[],
): ParsedServerEntry | undefined {
  const { filePath } = document;
  let node = findPropertyValue(mcpNode, 'serverCommand');
  let path: JsonPathSegment[] = ['mcp', 'serverCommand'];
  if (node === undefined) {
    node = findPropertyValue(root, 'mcpServerCommand');
    path = ['mcpServerCommand'];
    if (node === undefined) return undefined;
    warnings.push({
      code: 'DEPRECATED_KEY',
      filePath,
      jsonPath: 'mcpServerCommand',
      message: `${filePath}: "mcpServerCommand" is the old name of "mcp.serverCommand"; it is used, but move it to "mcp.serverCommand".`,
    });
  }
  const name = SERVER_COMMAND_SERVER_NAME;
  const broken: ParsedServerEntry = { name, config: undefined, configAsWritten: undefined };
  if (node.type !== 'string') {
    errors.push(
      errorAtNode(document, node, {
        code: 'INVALID_TYPE',
        path,
        serverName: name,
        problem: `must be a command line such as "npx -y my-mcp-server --flag". The server "${name}" was not loaded.`,
      }),
    );
    return broken;
  }
  const text = String(node.value);
  if (text.trim() === '') return undefined;
  const parsed = parseServerCommand(text, env, platform, (variable) => warnings.push(unsetWarning(filePath, path, variable, name)));
  if (parsed === undefined) return undefined;
  if (parsed.problem !== undefined) {
    errors.push(
      errorAtNode(document, node, {
        code: 'INVALID_VALUE',
        path,
        serverName: name,
        problem: `${JSON.stringify(text)}: ${parsed.problem}. The server "${name}" was not loaded.`,
      }),
    );
    return broken;
  }
  return { name, config: parsed.config, configAsWritten: parsed.configAsWritten };
}
