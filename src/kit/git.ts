/**
 * Running git in a repository that may be hostile. A repository's own config (an unpacked archive's `.git/`, a
 * shared folder, a submodule's config) can name commands git runs by itself: `core.fsmonitor` on `status`, the
 * clean/smudge/process filters of `.gitattributes` drivers whenever `status` re-reads a file, gpg when `log` shows
 * signatures. Every call here switches those off with `-c` (which wins over every config file, and reaches the git
 * processes git starts), skips submodules, and runs the git found on the user's PATH — its absolute entries outside
 * the repository, never a relative one (src/core/programs.ts) — from a folder outside it (the file system's root),
 * and on Windows with NoDefaultCurrentDirectoryInExePath, so that a `git.cmd` shim looks only on PATH too.
 */
import { parse, resolve } from "node:path";
import { findProgram, NO_CURRENT_FOLDER_LOOKUP } from "../core/programs.ts";

const TIMEOUT_MS = 3_000;
/** Always passed: no fsmonitor hook, no signature checks. */
const BASE_OVERRIDES: readonly string[] = ["-c", "core.fsmonitor=false", "-c", "log.showSignature=false"];
/** A filter driver named so that `-c filter.<name>.clean=` could not address it is not overridden: refuse. */
const SAFE_DRIVER = /^[^=\s\u0000-\u001f]+$/;

/** A folder outside any repository to start git from (the root of `dir`'s file system). */
function neutralDir(dir: string): string {
  return parse(resolve(dir)).root;
}

/** The user's git, or null when PATH has none outside `dir`. */
export function gitBinary(dir: string): string | null {
  return findProgram("git", process.env, [dir]);
}

function spawn(git: string, dir: string, args: readonly string[]): string | null {
  try {
    const result = Bun.spawnSync([git, "-C", dir, ...BASE_OVERRIDES, ...args], {
      cwd: neutralDir(dir),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: TIMEOUT_MS,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...(process.platform === "win32" ? NO_CURRENT_FOLDER_LOOKUP : {}) },
    });
    return result.exitCode === 0 ? result.stdout.toString() : null;
  } catch {
    return null;
  }
}

/**
 * `-c filter.<driver>.clean= …` for every filter driver the repository's config names (reading config runs
 * nothing); null when a driver name cannot be overridden safely.
 */
function filterOverrides(git: string, dir: string): string[] | null {
  const names = spawn(git, dir, ["config", "--name-only", "--get-regexp", "^filter\\."]) ?? "";
  const drivers = new Set<string>();
  for (const line of names.split("\n")) {
    const match = /^filter\.(.+)\.[^.]+$/.exec(line.trim());
    if (match) drivers.add(match[1] as string);
  }
  const overrides: string[] = [];
  for (const driver of drivers) {
    if (!SAFE_DRIVER.test(driver)) return null;
    for (const key of ["clean", "smudge", "process"]) overrides.push("-c", `filter.${driver}.${key}=`);
    overrides.push("-c", `filter.${driver}.required=false`);
  }
  return overrides;
}

/** `git <args>` in `dir` with the repository's commands switched off; stdout, or null on any failure. */
export function runGit(dir: string, args: readonly string[]): string | null {
  const git = gitBinary(dir);
  if (!git) return null;
  return spawn(git, dir, args);
}

/** `git status` re-reads changed files through their filter drivers: those are switched off too. */
export function gitStatus(dir: string): string | null {
  const git = gitBinary(dir);
  if (!git) return null;
  const filters = filterOverrides(git, dir);
  if (filters === null) return null;
  return spawn(git, dir, [...filters, "status", "--porcelain=v1", "-b", "--untracked-files=normal", "--ignore-submodules=all"]);
}
