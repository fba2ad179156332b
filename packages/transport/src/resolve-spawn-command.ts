import { win32 } from 'node:path';

/** Inputs of {@link resolveSpawnCommand}: everything it depends on, so it can be checked for any platform. */
export interface ResolveSpawnCommandInput {
  /** The entry's `command`. */
  readonly command: string;
  /** The entry's `args`. */
  readonly args: readonly string[];
  /** The platform the child is started on (`process.platform`). */
  readonly platform: NodeJS.Platform;
  /** The child's environment: its `PATH` (`Path`), `PATHEXT` and `COMSPEC` are used on Windows (names in any case). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The child's working directory, against which a relative command path is resolved. */
  readonly cwd: string;
  /** Whether a regular file exists at this path (`fs.statSync(path).isFile()`). */
  readonly isFile: (path: string) => boolean;
}

/** How a stdio server is started: the program and arguments given to `child_process.spawn` (never with `shell: true`). */
export type SpawnPlan =
  | {
      readonly kind: 'spawn';
      /** The program to start. */
      readonly file: string;
      /** Its arguments. */
      readonly args: readonly string[];
      /** True when `args` are already quoted for the Windows command line (the `cmd.exe` route): pass `windowsVerbatimArguments`. */
      readonly windowsVerbatimArguments: boolean;
      /**
       * `direct`: the command itself (POSIX, or a Windows `.exe`/`.com`); `node`: an npm `npx.cmd` or
       * `npm.cmd` shim replaced by `node.exe <npx-cli.js|npm-cli.js>` next to it, so no `cmd.exe` is
       * involved; `cmd`: another `.cmd`/`.bat` file, run by `cmd.exe /d /s /v:off /c` with every
       * argument escaped.
       */
      readonly via: 'direct' | 'node' | 'cmd';
      /** The file the command was found at (Windows only; on POSIX the system searches `PATH` itself). */
      readonly resolvedPath?: string;
    }
  | {
      /** Windows: no file for the command in `PATH` (or at the path given) with an extension of `PATHEXT`. */
      readonly kind: 'not-found';
    }
  | {
      /** Windows: a `.cmd`/`.bat` file cannot be given an argument with a line break (`cmd.exe` ends the command there). */
      readonly kind: 'unsafe-argument';
      /** Index of that argument in `args`. */
      readonly index: number;
    };

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
/** Characters `cmd.exe` gives a meaning to: each is written after a caret so it reaches the batch file as itself. */
const CMD_METACHARACTERS = /[()[\]%!^"`<>&|;,= *?]/g;
/** npm's shims whose JavaScript entry point sits in `node_modules/npm/bin/` next to them (Node.js's installer layout). */
const NPM_SHIMS: Readonly<Record<string, string>> = { npx: 'npx-cli.js', npm: 'npm-cli.js' };

/**
 * The value of an environment variable, its name compared without regard to case (as Windows
 * does); of two spellings (`Path` inherited, `PATH` from the entry's `env`) the later one wins,
 * as the entry's variables are laid over the inherited ones.
 */
function variable(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const key = Object.keys(env)
    .filter((candidate) => candidate.toUpperCase() === name)
    .pop();
  return key === undefined ? undefined : env[key];
}

/**
 * Quotes one argument for a program that splits its command line the Microsoft C runtime way
 * (`CommandLineToArgvW`): backslashes before a quote or the end are doubled, quotes escaped.
 */
function quoteForRuntime(arg: string): string {
  const escaped = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1');
  return `"${escaped}"`;
}

/**
 * One argument for `cmd.exe /c` running a batch file that passes its arguments on with `%*` (npm's
 * and cmd-shim's `.cmd` files do): quoted for the final program, then every metacharacter
 * escaped twice, once for `cmd.exe`'s own reading of the line and once for the batch file's line
 * that expands `%*`. `%VAR%`, `!VAR!`, `&`, `|`, `<`, `>`, `^` and quotes therefore arrive as written.
 */
function escapeBatchArgument(arg: string): string {
  return quoteForRuntime(arg).replace(CMD_METACHARACTERS, '^^^$&');
}

/** The batch file's own path for `cmd.exe`: read once, so each metacharacter (a space...) is escaped once. */
function escapeBatchPath(path: string): string {
  return path.replace(CMD_METACHARACTERS, '^$&');
}

/** Windows: the file `command` names, searched like `cmd.exe` does but never in the working folder for a bare name. */
function findOnWindows(input: ResolveSpawnCommandInput, extensions: readonly string[]): string | undefined {
  const { command, isFile } = input;
  const hasExtension = extensions.includes(win32.extname(command).toLowerCase());
  const candidates = (base: string): string[] => [...(hasExtension ? [base] : []), ...extensions.map((extension) => base + extension)];
  // A path (relative or absolute) is taken as given; a bare name is looked up in PATH only, so a
  // project folder cannot slip in its own `npx.cmd`.
  if (/[\\/:]/.test(command)) return candidates(win32.resolve(input.cwd, command)).find(isFile);
  const folders = (variable(input.env, 'PATH') ?? '')
    .split(';')
    .map((folder) => folder.trim().replace(/^"(.*)"$/, '$1'))
    .filter((folder) => folder !== '');
  for (const folder of folders) {
    const found = candidates(win32.join(folder, command)).find(isFile);
    if (found) return found;
  }
  return undefined;
}

/**
 * How the stdio server of `command` and `args` is started on `platform`, without a shell ever
 * reading the arguments. On POSIX the command is started as given (the system searches `PATH`).
 * On Windows the command is first found in `PATH` with the extensions of `PATHEXT` (Node.js finds
 * only `.exe` and `.com`, so `npx` alone fails with "spawn npx ENOENT", and since CVE-2024-27980
 * it refuses to start a `.cmd` or `.bat` file without a shell):
 * - an `.exe` or `.com` file is started directly;
 * - npm's `npx.cmd` and `npm.cmd` are replaced by `node.exe` (next to them, else in `PATH`)
 *   running `node_modules\npm\bin\npx-cli.js` (`npm-cli.js`) next to them: exactly what the shim
 *   would run, with the arguments passed by Node.js's own quoting, no `cmd.exe` involved;
 * - any other `.cmd` or `.bat` file is run by `cmd.exe /d /s /v:off /c` with every argument
 *   quoted and its metacharacters escaped for `cmd.exe` and for the batch file's `%*`, so spaces,
 *   quotes, `&`, `|`, `^`, `%VAR%` and `!VAR!` reach the server literally; an argument with a line
 *   break cannot be passed that way and is refused (`unsafe-argument`).
 * A command that is not found is `not-found` (Windows).
 *
 * @example
 * resolveSpawnCommand({ command: 'npx', args: ['-y', 'pkg'], platform: 'win32', env: { PATH: 'C:\\nodejs' }, cwd: 'C:\\work', isFile });
 * // { kind: 'spawn', via: 'node', file: 'C:\\nodejs\\node.exe', args: ['C:\\nodejs\\node_modules\\npm\\bin\\npx-cli.js', '-y', 'pkg'], ... }
 */
export function resolveSpawnCommand(input: ResolveSpawnCommandInput): SpawnPlan {
  const { command, args, platform } = input;
  if (platform !== 'win32') return { kind: 'spawn', file: command, args: [...args], windowsVerbatimArguments: false, via: 'direct' };
  const extensions = (variable(input.env, 'PATHEXT') ?? DEFAULT_PATHEXT)
    .split(';')
    .map((extension) => extension.trim().toLowerCase())
    .filter((extension) => extension.startsWith('.'));
  const found = findOnWindows(input, extensions.length > 0 ? extensions : DEFAULT_PATHEXT.toLowerCase().split(';'));
  if (found === undefined) return { kind: 'not-found' };
  const extension = win32.extname(found).toLowerCase();
  if (extension !== '.cmd' && extension !== '.bat') {
    return { kind: 'spawn', file: found, args: [...args], windowsVerbatimArguments: false, via: 'direct', resolvedPath: found };
  }
  const folder = win32.dirname(found);
  const script = NPM_SHIMS[win32.basename(found, win32.extname(found)).toLowerCase()];
  const cli = script === undefined ? undefined : win32.join(folder, 'node_modules', 'npm', 'bin', script);
  if (cli !== undefined && input.isFile(cli)) {
    const besideShim = win32.join(folder, 'node.exe');
    const node = input.isFile(besideShim) ? besideShim : findOnWindows({ ...input, command: 'node' }, ['.exe']);
    if (node !== undefined) {
      return { kind: 'spawn', file: node, args: [cli, ...args], windowsVerbatimArguments: false, via: 'node', resolvedPath: found };
    }
  }
  const index = args.findIndex((arg) => /[\r\n]/.test(arg));
  if (index >= 0) return { kind: 'unsafe-argument', index };
  const line = [escapeBatchPath(found), ...args.map(escapeBatchArgument)].join(' ');
  return {
    kind: 'spawn',
    file: variable(input.env, 'COMSPEC') ?? 'cmd.exe',
    // /d: no AutoRun commands; /s: strip exactly the outer quotes; /v:off: no delayed `!VAR!` expansion.
    args: ['/d', '/s', '/v:off', '/c', `"${line}"`],
    windowsVerbatimArguments: true,
    via: 'cmd',
    resolvedPath: found,
  };
}
