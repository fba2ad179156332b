/**
 * Bound of a first start through a package runner (`npx`, `uvx`, `pnpm dlx`...): the runner may
 * first download and install the package, which takes tens of seconds on a cold cache (about 20 s
 * for `npx -y @modelcontextprotocol/server-memory` on a fast network). A short connection check
 * (`toolhost mcp list`, `probeServer`) gives such a server this long when its entry sets no `timeout`.
 */
export const PACKAGE_RUNNER_START_TIMEOUT_MS = 60_000;

/**
 * Default time a package runner that has not answered yet gets to finish or roll back its install
 * once the transport is closed, after stdin is closed and again after SIGTERM (see
 * `StdioTransportOptions.installGraceMs`).
 */
export const DEFAULT_INSTALL_GRACE_MS = 60_000;

/** Runners recognised by the program's name alone, and those recognised by their first arguments. */
const RUNNER_COMMANDS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
const RUNNER_SUBCOMMANDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  npm: [['exec'], ['x']],
  pnpm: [['dlx']],
  yarn: [['dlx']],
  bun: [['x']],
  uv: [['tool', 'run'], ['run']],
  pipx: [['run']],
};

/** The program's name without folder and without a Windows executable extension, in lower case. */
function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(?:cmd|bat|exe|com|ps1)$/i, '').toLowerCase();
}

/**
 * The package runner a stdio command starts the server through, as the user would name it
 * (`npx`, `npm exec`, `pnpm dlx`, `yarn dlx`, `bunx`, `bun x`, `uvx`, `uv tool run`, `uv run`,
 * `pipx run`), or `undefined` for any other command. Such a runner may download and install the
 * package before the server runs: its first start is slow, and stopping it in the middle of the
 * install can leave a broken package in its cache (npm's npx cache), so the transport lets it
 * finish (see `installGraceMs`). Matched on the program's name, with or without folder and
 * Windows extension (`C:\\nodejs\\npx.cmd`).
 *
 * @example
 * packageRunnerOf('npx', ['-y', '@modelcontextprotocol/server-memory']); // 'npx'
 * packageRunnerOf('pnpm', ['dlx', 'some-server']); // 'pnpm dlx'
 * packageRunnerOf('node', ['server.js']); // undefined
 */
export function packageRunnerOf(command: string, args: readonly string[] = []): string | undefined {
  const name = programName(command);
  if (RUNNER_COMMANDS.has(name)) return name;
  const words = args.filter((arg) => !arg.startsWith('-'));
  const match = RUNNER_SUBCOMMANDS[name]?.find((sub) => sub.every((word, index) => words[index] === word));
  return match ? [name, ...match].join(' ') : undefined;
}
