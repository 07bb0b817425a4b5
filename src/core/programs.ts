/**
 * Starting a program while a hostile project may be the current folder. Windows' cmd.exe and CreateProcess look for a
 * bare program name in the current folder before PATH, unless NoDefaultCurrentDirectoryInExePath is in their
 * environment (Microsoft's NeedCurrentDirectoryForExePath), and every shell resolves a relative PATH entry (`.`,
 * `bin`, an empty one in POSIX shells) against the folder it runs in. A project also puts folders of its own on PATH
 * (npm scripts add `node_modules/.bin` of the package and of every folder above it, direnv, an activated venv). So
 * aioson looks a program up only in PATH's absolute entries outside the projects it runs for (`projectFolders`),
 * hands the program that same PATH, names cmd.exe by its absolute path, and gives its Windows children that
 * variable, so that a `.cmd`/`.bat` they run does not look in the project either.
 * The OpenCode plugin, which runs inside OpenCode with no imports of ours, carries its own copy of these rules
 * (src/install/opencode-plugin.ts, `locate`).
 */
import { lstatSync, realpathSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, relative, resolve, win32 } from "node:path";
import { osHomeDir } from "./home.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** What a Windows child of aioson gets in its environment: cmd.exe and CreateProcess then search PATH only. */
export const NO_CURRENT_FOLDER_LOOKUP: Readonly<Record<string, string>> = { NoDefaultCurrentDirectoryInExePath: "1" };

/** A variable of `env`; on Windows names are case-insensitive, which a copied environment object is not. */
export function envValue(env: Env, name: string): string | undefined {
  if (env[name] !== undefined || process.platform !== "win32") return env[name];
  const upper = name.toUpperCase();
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === upper);
  return key === undefined ? undefined : env[key];
}

function real(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!/^\.\.(?:[\\/]|$)/.test(rel) && !isAbsolute(rel));
}

/** `dirs` as written and once links are resolved. */
function spellings(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => [dir, real(dir)]);
}

function insideAny(spelled: readonly string[], path: string): boolean {
  if (spelled.length === 0) return false;
  const paths = [path, real(path)];
  return spelled.some((dir) => paths.some((p) => within(dir, p)));
}

function homeOf(env: Env): string {
  return envValue(env, "HOME") || envValue(env, "USERPROFILE") || osHomeDir();
}

/** What makes a folder a project of its own: a repository, an AIOSON project. */
const PROJECT_MARKERS = [".git", ".aioson"] as const;
/** As deep as the project-root walk goes (src/core/project-root.ts). */
const MAX_WALK = 64;

function holdsProject(dir: string): boolean {
  return PROJECT_MARKERS.some((marker) => {
    try {
      // lstat: a marker is looked at, never opened or followed (it may be a FIFO or a link loop).
      return lstatSync(join(dir, marker), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  });
}

/**
 * The folders no program may come from when aioson runs for `dirs`: each of them, as written and once links are
 * resolved, and every folder above it that holds a repository or an AIOSON project (`.git`, `.aioson`): npm puts
 * `node_modules/.bin` of the repository's root on PATH when it runs a script from a package folder below it.
 */
export function projectFolders(dirs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const start of dirs.flatMap((dir) => [resolve(dir), real(resolve(dir))])) {
    found.add(start);
    let dir = start;
    for (let level = 0; level < MAX_WALK; level++) {
      if (holdsProject(dir)) found.add(dir);
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return [...found];
}

/**
 * PATH's absolute entries (quotes around a Windows entry removed) that lie outside every folder of
 * `projectFolders(dirs)` (as written or once links are resolved, case-insensitively on Windows). A folder that holds
 * the home folder is never left out: HOME is the user's (a dotfiles repository there keeps ~/.local/bin).
 */
export function trustedPath(env: Env, dirs: readonly string[] = []): string {
  const home = homeOf(env);
  const spelled = spellings(projectFolders(dirs).filter((dir) => !insideAny(spellings([dir]), home)));
  return (envValue(env, "PATH") ?? "")
    .split(delimiter)
    .map((entry) => entry.replace(/^"(.*)"$/, "$1"))
    .filter((entry) => entry !== "" && isAbsolute(entry) && !insideAny(spelled, entry))
    .join(delimiter);
}

/** A copy of `env` whose PATH (under the name it has there) is `path`. */
function withPath(env: Env, path: string): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) copy[key] = value;
  const key = Object.keys(copy).find((name) => name.toUpperCase() === "PATH") ?? "PATH";
  copy[key] = path;
  return copy;
}

/** A copy of `env` whose PATH (under the name it has there) is `trustedPath(env, dirs)`. */
export function withTrustedPath(env: Env, dirs: readonly string[]): Record<string, string> {
  return withPath(env, trustedPath(env, dirs));
}

/** PATH entries a shell resolves against the folder it runs in: relative ones, and in POSIX shells empty ones too. */
export function relativePathEntries(env: Env): string[] {
  const value = envValue(env, "PATH");
  if (value === undefined) return [];
  const entries = value.split(delimiter).map((entry) => entry.replace(/^"(.*)"$/, "$1"));
  return entries.filter((entry) => (entry === "" ? process.platform !== "win32" : !isAbsolute(entry)));
}

function which(name: string, path: string): string | null {
  if (path === "") return null;
  const found = Bun.which(name, { PATH: path });
  return found !== null && isAbsolute(found) ? found : null;
}

/**
 * A program by name, from `trustedPath(env, dirs)` only (Bun adds `.exe`, `.cmd`, `.bat` on Windows); null when there
 * is none. `dirs`: the folders aioson runs for (a hook's project, a command's dir argument, the current folder).
 */
export function findProgram(name: string, env: Env, dirs: readonly string[]): string | null {
  return which(name, trustedPath(env, dirs));
}

export type Launch = { path: string; env: Record<string, string> };

/**
 * How to start the program `name` for `dirs`: found like findProgram, with an environment whose PATH is cut the same
 * way (what the program itself looks up, as xdg-open does its helpers, stays out of the projects too) and, on
 * Windows, NoDefaultCurrentDirectoryInExePath. Null when there is no such program.
 */
export function launchable(name: string, env: Env, dirs: readonly string[]): Launch | null {
  const path = trustedPath(env, dirs);
  const found = which(name, path);
  if (found === null) return null;
  return { path: found, env: { ...withPath(env, path), ...(process.platform === "win32" ? NO_CURRENT_FOLDER_LOOKUP : {}) } };
}

/**
 * A program named by the user (a `--tool-bin`, AIOSON_BIN's first word): a path, taken relative to `base`, is used as
 * given (the user chose it); a bare name goes through findProgram.
 */
export function userProgram(word: string, base: string, env: Env, dirs: readonly string[]): string | null {
  if (!/[\\/]/.test(word) && !isAbsolute(word)) return findProgram(word, env, dirs);
  const found = Bun.which(resolve(base, word));
  return found !== null && isAbsolute(found) ? found : null;
}

/** The Windows folder: SystemRoot when it is a plain absolute path (no space or shell character), else C:\Windows. */
export function windowsDir(env: Env): string {
  const value = envValue(env, "SystemRoot") ?? "";
  return /^[A-Za-z]:(?:\\[\w.-]+)+$/.test(value) ? value : "C:\\Windows";
}

/** `<Windows folder>\System32\cmd.exe`: where CreateProcess and Rust's Command find `cmd.exe` before PATH. */
export function systemCmd(env: Env): string {
  return win32.join(windowsDir(env), "System32", "cmd.exe");
}

/** The shell Node's `spawn(…, {shell: true})` uses on Windows: ComSpec when it is an absolute path, else systemCmd. */
export function comSpec(env: Env): string {
  const value = envValue(env, "ComSpec");
  return value !== undefined && win32.isAbsolute(value) ? value : systemCmd(env);
}
