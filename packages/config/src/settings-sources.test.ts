import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandEnvVars } from './expand-env-vars.js';
import { loadSettings } from './load-settings.js';
import { parseSettingsText } from './parse-settings-text.js';
import { readProjectServersToPin } from './pin-project-servers.js';
import { trustFolder } from './set-folder-trust.js';
import { getAppSettingsLocation } from './settings-paths.js';

// Where settings come from besides the three files: system defaults, the .env file,
// mcp.serverCommand, %VAR% on Windows, and the system files of each program.

let root: string;
let home: string;
let project: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
const userFile = () => join(home, '.toolhost', 'settings.json');
const projectFile = () => join(project, '.toolhost', 'settings.json');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-sources-'));
  home = join(root, 'home');
  project = join(root, 'work', 'repo');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('%VAR% on Windows', () => {
  const env = { APPDATA: 'C:\\Users\\me\\AppData', Path: 'C:\\bin', TOKEN: 'abc' };

  it('expands %VAR% only when the platform is win32, with names compared without regard to case', () => {
    expect(expandEnvVars('%APPDATA%\\srv', env, { platform: 'win32' })).toBe('C:\\Users\\me\\AppData\\srv');
    expect(expandEnvVars('%appdata%|$PATH|${path}', env, { platform: 'win32' })).toBe('C:\\Users\\me\\AppData|C:\\bin|C:\\bin');
    expect(expandEnvVars('%APPDATA%\\srv', env, { platform: 'linux' })).toBe('%APPDATA%\\srv');
    expect(expandEnvVars('$Path', env, { platform: 'linux' })).toBe('C:\\bin');
    expect(expandEnvVars('$PATH', env, { platform: 'linux' })).toBe('');
  });

  it('leaves an unset %VAR%, a lone % and percent-encoding as written, and never expands a value again', () => {
    const windows = { platform: 'win32' } as const;
    expect(expandEnvVars('%NOPE%/100%/a%20b', env, windows)).toBe('%NOPE%/100%/a%20b');
    expect(expandEnvVars('%A%', { A: '%TOKEN%$TOKEN' }, windows)).toBe('%TOKEN%$TOKEN');
    expect(expandEnvVars('%TOKEN%%TOKEN%-$TOKEN', env, windows)).toBe('abcabc-abc');
  });

  it('is applied by loadSettings to every string when the platform option is win32', async () => {
    await put(
      userFile(),
      '{"mcpServers": {"w": {"command": "%TOOLS%\\\\node.exe", "args": ["%TOKEN%"], "oauth": {"clientId": "%TOKEN%"}}}}',
    );
    const settings = await loadSettings({ homeDir: home, env: { TOOLS: 'C:\\tools', TOKEN: 'abc' }, platform: 'win32' });
    expect(settings.servers[0]?.config).toMatchObject({ command: 'C:\\tools\\node.exe', args: ['abc'], oauth: { clientId: 'abc' } });
    const posix = await loadSettings({ homeDir: home, env: { TOOLS: 'C:\\tools', TOKEN: 'abc' }, platform: 'linux' });
    expect(posix.servers[0]?.config.command).toBe('%TOOLS%\\node.exe');
  });
});

describe('expansion of every string', () => {
  it('expands command and oauth fields and checks the values after expansion', async () => {
    await put(
      userFile(),
      JSON.stringify({
        mcpServers: {
          s: {
            command: '$HOME/bin/node',
            type: '${KIND}',
            oauth: { clientId: '${CLIENT_ID}', clientSecret: '$SECRET', authorizationUrl: '${AUTH_BASE}/authorize', scopes: ['$SCOPE'] },
          },
        },
      }),
    );
    const settings = await loadSettings({
      homeDir: home,
      env: { HOME: '/home/me', KIND: 'stdio', CLIENT_ID: 'id-1', SECRET: 's3', AUTH_BASE: 'https://auth', SCOPE: 'read' },
    });
    expect(settings.errors).toEqual([]);
    const server = settings.servers[0];
    expect(server?.config).toMatchObject({
      command: '/home/me/bin/node',
      type: 'stdio',
      oauth: { clientId: 'id-1', clientSecret: 's3', authorizationUrl: 'https://auth/authorize', scopes: ['read'] },
    });
    // Displayed as written, so no expanded secret shows.
    expect(server?.transport.target).toBe('$HOME/bin/node');
    expect(server?.configAsWritten.oauth?.clientSecret).toBe('$SECRET');
  });

  it('refuses an entry whose command is empty once expanded, naming the field and the variable', async () => {
    await put(userFile(), '{"mcpServers": {"s": {"command": "$NODE_BIN", "args": ["x"]}}}');
    const settings = await loadSettings({ homeDir: home, env: {} });
    expect(settings.servers).toEqual([]);
    expect(settings.errors.map((error) => [error.code, error.jsonPath])).toEqual([['INVALID_VALUE', 'mcpServers.s.command']]);
    expect(settings.warnings.map((warning) => [warning.code, warning.jsonPath])).toEqual([['UNSET_ENV_VAR', 'mcpServers.s.command']]);
    expect(settings.warnings[0]?.message).toContain('"NODE_BIN"');
  });

  it('expands mcp.allowed and mcp.excluded', async () => {
    await put(userFile(), '{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}, "mcp": {"excluded": ["$BLOCKED"]}}');
    const settings = await loadSettings({ homeDir: home, env: { BLOCKED: 'b' } });
    expect(settings.servers.map((server) => [server.name, server.blockReason?.code])).toEqual([
      ['a', undefined],
      ['b', 'EXCLUDED'],
    ]);
  });
});

describe('system defaults', () => {
  it('reads the system defaults file first, below the user, project and system files', async () => {
    const system = join(root, 'etc', 'settings.json');
    const defaults = join(root, 'etc', 'system-defaults.json');
    await put(defaults, '{"mcpServers": {"d": {"command": "from-defaults"}, "u": {"command": "defaults-u"}}, "mcp": {"excluded": ["x"]}}');
    await put(userFile(), '{"mcpServers": {"u": {"command": "from-user"}, "x": {"command": "x"}}}');
    await put(system, '{"mcpServers": {"d": {"command": "from-system"}}}');
    const settings = await loadSettings({ homeDir: home, systemSettingsPath: system, systemDefaultsPath: defaults, env: {} });
    expect(settings.files.map((file) => [file.scope, file.exists])).toEqual([
      ['system-defaults', true],
      ['user', true],
      ['system', true],
    ]);
    expect(settings.servers.map((server) => [server.name, server.config.command, server.scope, server.blockReason?.code])).toEqual([
      ['d', 'from-system', 'system', undefined],
      ['u', 'from-user', 'user', undefined],
      ['x', 'x', 'user', 'EXCLUDED'],
    ]);
  });
});

describe('getAppSettingsLocation', () => {
  it("gives each program's system files, moved by that program's variables", () => {
    expect(getAppSettingsLocation({ appDir: '.gemini', platform: 'linux', env: {} })).toEqual({
      appDir: '.gemini',
      systemSettingsPath: '/etc/gemini-cli/settings.json',
      systemDefaultsPath: '/etc/gemini-cli/system-defaults.json',
    });
    expect(getAppSettingsLocation({ appDir: '.gemini', platform: 'darwin', env: {} }).systemSettingsPath).toBe(
      '/Library/Application Support/GeminiCli/settings.json',
    );
    expect(getAppSettingsLocation({ appDir: '.gemini', platform: 'win32', env: {} })).toMatchObject({
      systemSettingsPath: 'C:\\ProgramData\\gemini-cli\\settings.json',
      systemDefaultsPath: 'C:\\ProgramData\\gemini-cli\\system-defaults.json',
    });
    expect(
      getAppSettingsLocation({
        appDir: '.gemini',
        platform: 'linux',
        env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/x/s.json', TOOLHOST_SYSTEM_SETTINGS_PATH: '/t.json' },
      }),
    ).toMatchObject({ systemSettingsPath: '/x/s.json', systemDefaultsPath: '/x/system-defaults.json' });
    expect(
      getAppSettingsLocation({ appDir: '.gemini', platform: 'linux', env: { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/d.json' } }),
    ).toMatchObject({ systemDefaultsPath: '/d.json' });
    expect(getAppSettingsLocation({ appDir: '.qwen', platform: 'linux', env: {} }).systemSettingsPath).toBe('/etc/qwen-code/settings.json');
    expect(getAppSettingsLocation({ appDir: '.qwen', platform: 'darwin', env: {} }).systemSettingsPath).toBe(
      '/Library/Application Support/QwenCode/settings.json',
    );
    expect(
      getAppSettingsLocation({ appDir: '.qwen', platform: 'linux', env: { QWEN_CODE_SYSTEM_SETTINGS_PATH: '/q/s.json' } }),
    ).toMatchObject({ systemSettingsPath: '/q/s.json', systemDefaultsPath: '/q/system-defaults.json' });
    expect(getAppSettingsLocation({ platform: 'linux', env: {} })).toEqual({
      appDir: '.toolhost',
      systemSettingsPath: '/etc/toolhost/settings.json',
      systemDefaultsPath: '/etc/toolhost/system-defaults.json',
    });
    expect(getAppSettingsLocation({ platform: 'linux', env: { TOOLHOST_SYSTEM_SETTINGS_PATH: '' } }).systemSettingsPath).toBe(
      '/etc/toolhost/settings.json',
    );
    expect(getAppSettingsLocation({ appDir: '.myapp', platform: 'linux', env: {} }).systemSettingsPath).toBe('/etc/myapp/settings.json');
    expect(getAppSettingsLocation({ appDir: 'constructor', platform: 'linux', env: {} }).systemSettingsPath).toBe(
      '/etc/constructor/settings.json',
    );
    expect(getAppSettingsLocation({ appDir: '.gemini', platform: 'linux', env: {}, systemSettingsPath: '/mine.json' })).toMatchObject({
      systemSettingsPath: '/mine.json',
      systemDefaultsPath: '/system-defaults.json',
    });
  });
});

describe('mcp.serverCommand', () => {
  const parse = (text: string, env: Record<string, string> = {}) =>
    parseSettingsText({ text, filePath: '/s.json', scope: 'user', env, platform: 'linux' });

  it('splits the command line like a shell, expanding variables inside each word without splitting values', () => {
    const result = parse(
      JSON.stringify({ mcp: { serverCommand: `$BIN/node "my server.js" --name='a b' \${PORT:-8080} $TWO_WORDS x\\ y` } }),
      { BIN: '/opt/bin', TWO_WORDS: 'one two' },
    );
    expect(result.errors).toEqual([]);
    expect(result.serverCommand).toEqual({
      name: 'mcp',
      config: { command: '/opt/bin/node', args: ['my server.js', '--name=a b', '8080', 'one two', 'x y'] },
      configAsWritten: { command: '${BIN}/node', args: ['my server.js', '--name=a b', '${PORT:-8080}', '${TWO_WORDS}', 'x y'] },
    });
  });

  it('refuses what needs a shell, and a non-string, with the field and what to do', () => {
    for (const [command, what] of [
      ['node s.js | tee log', '"|"'],
      ['node s.js > out', '">"'],
      ['a && b', '"&&"'],
      ['node *.js', '"*.js"'],
      ['node s.js # note', 'comment'],
    ] as const) {
      const result = parse(JSON.stringify({ mcp: { serverCommand: command } }));
      expect(result.serverCommand).toEqual({ name: 'mcp', config: undefined, configAsWritten: undefined });
      expect(result.errors.map((error) => [error.code, error.jsonPath, error.serverName])).toEqual([
        ['INVALID_VALUE', 'mcp.serverCommand', 'mcp'],
      ]);
      expect(result.errors[0]?.message).toContain(what);
      expect(result.errors[0]?.message).toContain('no shell is run');
    }
    const wrongType = parse('{"mcp": {"serverCommand": ["node"]}}');
    expect(wrongType.errors.map((error) => [error.code, error.jsonPath])).toEqual([['INVALID_TYPE', 'mcp.serverCommand']]);
    expect(parse('{"mcp": {"serverCommand": "  "}}').serverCommand).toBeUndefined();
  });

  it('reads the v1 name mcpServerCommand with a DEPRECATED_KEY warning', () => {
    const result = parse('{"mcpServerCommand": "node srv.js"}');
    expect(result.serverCommand?.config).toEqual({ command: 'node', args: ['srv.js'] });
    expect(result.warnings.map((warning) => [warning.code, warning.jsonPath])).toEqual([['DEPRECATED_KEY', 'mcpServerCommand']]);
  });

  it('becomes the server mcp: the highest scope wins, and it replaces an mcpServers entry mcp with a warning', async () => {
    const system = join(root, 'etc', 'settings.json');
    await put(
      userFile(),
      '{"mcpServers": {"mcp": {"command": "entry"}, "other": {"command": "o"}}, "mcp": {"serverCommand": "user-cmd a"}}',
    );
    await put(projectFile(), '{"mcp": {"serverCommand": "project-cmd b"}}');
    await put(system, '{"mcpServers": {"late": {"command": "l"}}}');
    const settings = await loadSettings({ homeDir: home, projectDir: project, systemSettingsPath: system, env: {}, projectTrust: true });
    expect(settings.servers.map((server) => [server.name, server.scope, server.transport.target])).toEqual([
      ['mcp', 'project', 'project-cmd b'],
      ['other', 'user', 'o'],
      ['late', 'system', 'l'],
    ]);
    expect(settings.warnings.map((warning) => warning.code)).toEqual(['SERVER_COMMAND_REPLACES_ENTRY']);
    expect(settings.warnings[0]?.message).toContain(userFile());
  });

  it('from an untrusted project is blocked, and from a trusted one is pinned like any project server', async () => {
    await put(projectFile(), '{"mcp": {"serverCommand": "node srv.js"}}');
    const untrusted = await loadSettings({ homeDir: home, projectDir: project, env: {} });
    expect(untrusted.servers.map((server) => [server.name, server.blockReason?.code])).toEqual([['mcp', 'UNTRUSTED_PROJECT']]);
    expect((await readProjectServersToPin(project, { homeDir: home }, {})).map((server) => server.name)).toEqual(['mcp']);
    await trustFolder({ homeDir: home, folder: project });
    const trusted = await loadSettings({ homeDir: home, projectDir: project, env: {} });
    expect(trusted.servers.map((server) => [server.name, server.blockReason?.code])).toEqual([['mcp', undefined]]);
    await put(projectFile(), '{"mcp": {"serverCommand": "node other.js"}}');
    const changed = await loadSettings({ homeDir: home, projectDir: project, env: {} });
    expect(changed.servers[0]?.blockReason?.code).toBe('CHANGED_SINCE_TRUSTED');
    expect(changed.servers[0]?.blockReason?.message).toContain('args: ["srv.js"] → ["other.js"]');
  });
});

describe('the .env file', () => {
  const load = (extra: object = {}) => loadSettings({ homeDir: home, projectDir: project, env: { SET: 'from-env' }, ...extra });

  beforeEach(async () => {
    await put(
      userFile(),
      JSON.stringify({ mcpServers: { s: { command: '${TOOL:-none}', args: ['${SET}', '${DEBUG:-no-debug}', '${EXTRA:-no-extra}'] } } }),
    );
  });

  it('in a trusted project supplies variables the environment does not have, skipping DEBUG outside the app folder', async () => {
    await put(join(project, '.env'), 'TOOL=from-project-env\nSET=from-file\nDEBUG=1\nEXTRA="quoted value" # comment\n');
    const settings = await load({ projectTrust: true });
    expect(settings.envFilePath).toBe(join(project, '.env'));
    expect(settings.servers[0]?.config).toMatchObject({ command: 'from-project-env', args: ['from-env', 'no-debug', 'quoted value'] });
    // Nothing is written to this process's environment.
    expect(process.env['TOOL']).toBeUndefined();
  });

  it('prefers <folder>/<appDir>/.env, whose DEBUG is kept, and honours advanced.excludedEnvVars', async () => {
    await put(join(project, '.env'), 'TOOL=plain\n');
    await put(join(project, '.toolhost', '.env'), 'TOOL=app-folder\nDEBUG=1\n');
    expect((await load({ projectTrust: true })).servers[0]?.config.args).toEqual(['from-env', '1', 'no-extra']);
    await rm(join(project, '.toolhost', '.env'));
    await put(join(project, '.env'), 'TOOL=plain\nEXTRA=x\n');
    await put(projectFile(), '{"advanced": {"excludedEnvVars": ["EXTRA"]}}');
    const settings = await load({ projectTrust: true });
    expect(settings.servers[0]?.config).toMatchObject({ command: 'plain', args: ['from-env', 'no-debug', 'no-extra'] });
  });

  it('is searched from the project folder upward, then in the home folder', async () => {
    await put(join(root, 'work', '.env'), 'TOOL=from-parent\n');
    expect((await load({ projectTrust: true })).servers[0]?.config.command).toBe('from-parent');
    await rm(join(root, 'work', '.env'));
    await put(join(home, '.toolhost', '.env'), 'TOOL=from-home-app-dir\n');
    await put(join(home, '.env'), 'TOOL=from-home\n');
    const settings = await load({ projectTrust: true });
    expect([settings.envFilePath, settings.servers[0]?.config.command]).toEqual([join(home, '.toolhost', '.env'), 'from-home-app-dir']);
  });

  it('of an untrusted project is not read, but the home one is', async () => {
    await put(join(project, '.env'), 'TOOL=from-project-env\n');
    const untrusted = await load();
    expect([untrusted.projectTrusted, untrusted.envFilePath, untrusted.servers[0]?.config.command]).toEqual([false, undefined, 'none']);
    await put(join(home, '.env'), 'TOOL=from-home\n');
    expect((await load({ projectTrust: false })).servers[0]?.config.command).toBe('from-home');
    await trustFolder({ homeDir: home, folder: project });
    expect((await load()).servers[0]?.config.command).toBe('from-project-env');
  });

  it('is not read with envFile: false', async () => {
    await put(join(project, '.env'), 'TOOL=from-project-env\n');
    const settings = await load({ projectTrust: true, envFile: false });
    expect([settings.envFilePath, settings.servers[0]?.config.command]).toEqual([undefined, 'none']);
  });
});
