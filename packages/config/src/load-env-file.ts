import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { ConfigWarning } from './config-warning.js';
import type { EnvironmentVariables } from './expand-env-vars.js';
import { findPropertyValue, FORBIDDEN_KEYS, parseJsoncDocument } from './read-jsonc.js';
import { isSameDirectory } from './settings-paths.js';

/** Name of the file of environment variables that is read with the settings. */
export const ENV_FILE_NAME = '.env';

/**
 * Variables never taken from a `.env` file outside an `<appDir>` folder (Gemini CLI's default of
 * `advanced.excludedEnvVars`; the setting adds names to it).
 */
export const DEFAULT_EXCLUDED_ENV_VARS: readonly string[] = ['DEBUG', 'DEBUG_MODE'];

/** Where to look for the `.env` file. */
export interface FindEnvFileOptions {
  /** Folder name of the settings. */
  readonly appDir: string;
  /** The project folder, where the search starts. */
  readonly projectDir: string | undefined;
  /** The user's home folder. */
  readonly homeDir: string;
  /** Whether the project folder is trusted; only then are files outside the home folder read. */
  readonly projectTrusted: boolean | undefined;
}

async function firstFile(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) return path;
  }
  return undefined;
}

/**
 * Finds the one `.env` file to read, as Gemini CLI and Qwen Code do: from the project folder up
 * to the root, the first of `<folder>/<appDir>/.env` and `<folder>/.env`; at the home folder (and
 * when the search ends without one) `~/<appDir>/.env`, then `~/.env`. Files outside the home
 * folder are read only when the project is trusted (`projectTrusted === true`); without a
 * project folder (or when it is the home folder) only the home files are looked at.
 */
export async function findEnvFile(options: FindEnvFileOptions): Promise<string | undefined> {
  const home = resolve(options.homeDir);
  const homeFiles = [join(home, options.appDir, ENV_FILE_NAME), join(home, ENV_FILE_NAME)];
  if (options.projectDir === undefined || isSameDirectory(options.projectDir, home)) return firstFile(homeFiles);
  let folder = resolve(options.projectDir);
  let visitedHome = false;
  for (;;) {
    if (isSameDirectory(folder, home)) {
      visitedHome = true;
      const found = await firstFile(homeFiles);
      if (found !== undefined) return found;
    } else if (options.projectTrusted === true) {
      const found = await firstFile([join(folder, options.appDir, ENV_FILE_NAME), join(folder, ENV_FILE_NAME)]);
      if (found !== undefined) return found;
    }
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return visitedHome ? undefined : firstFile(homeFiles);
}

/** What a `.env` file gave. */
export interface EnvFileVariables {
  /** The file that was read, or `undefined` when there is none. */
  readonly filePath: string | undefined;
  /** Its variables, without the excluded ones. */
  readonly variables: Readonly<Record<string, string>>;
  /** A file that could not be read. */
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Reads the `.env` file found by {@link findEnvFile} with `dotenv`'s parser (no shell, no
 * expansion inside the file). Names in `excluded` are skipped unless the file is inside an
 * `<appDir>` folder.
 */
export async function readEnvFile(options: FindEnvFileOptions & { readonly excluded: readonly string[] }): Promise<EnvFileVariables> {
  const filePath = await findEnvFile(options);
  if (filePath === undefined) return { filePath, variables: {}, warnings: [] };
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      filePath,
      variables: {},
      warnings: [
        {
          code: 'ENV_FILE_UNREADABLE',
          filePath,
          jsonPath: '',
          message: `${filePath}: the .env file cannot be read (${code}), so its variables are not used. Make it readable, or remove it.`,
        },
      ],
    };
  }
  const inAppDir = basename(dirname(filePath)) === options.appDir;
  const excluded = new Set(options.excluded);
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseDotenv(text))) {
    if (FORBIDDEN_KEYS.has(name) || (!inAppDir && excluded.has(name))) continue;
    variables[name] = value;
  }
  return { filePath, variables, warnings: [] };
}

/**
 * The variables for expansion: `env`, plus each `.env` variable whose name `env` does not have
 * (the environment wins, as in Gemini CLI). On Windows names are compared without regard to case.
 */
export function withEnvFileVariables(
  env: EnvironmentVariables,
  variables: Readonly<Record<string, string>>,
  platform: string,
): EnvironmentVariables {
  const names = Object.keys(variables);
  if (names.length === 0) return env;
  const has =
    platform === 'win32'
      ? (
          (upper: Set<string>) => (name: string) =>
            upper.has(name.toUpperCase())
        )(new Set(Object.keys(env).map((key) => key.toUpperCase())))
      : (name: string) => Object.prototype.hasOwnProperty.call(env, name);
  const out: Record<string, string | undefined> = { ...env };
  for (const name of names) if (!has(name)) out[name] = variables[name];
  return out;
}

/** `advanced.excludedEnvVars` of a settings file, when it is a list of strings. */
export function readExcludedEnvVars(text: string, filePath: string): readonly string[] | undefined {
  try {
    const { root } = parseJsoncDocument(text, filePath);
    const node = findPropertyValue(findPropertyValue(root, 'advanced'), 'excludedEnvVars');
    if (node?.type !== 'array') return undefined;
    const names = (node.children ?? []).map((child) => child.value as unknown);
    return names.every((name): name is string => typeof name === 'string') ? names : undefined;
  } catch {
    return undefined;
  }
}
