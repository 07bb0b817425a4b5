/**
 * Running git in a repository that may be hostile. A repository's own config (an unpacked archive's `.git/`, a
 * shared folder, a submodule's config) can name commands git runs by itself: `core.fsmonitor` on `status`, the
 * clean/smudge/process filters of `.gitattributes` drivers whenever `status` re-reads a file, gpg when `log` shows
 * signatures, and a lazy fetch from a promisor remote (`extensions.partialClone`) when `status` or `log` meets an
 * object the repository lacks, which runs `core.sshCommand`, a file remote's `uploadpack`, an `ext::` command or a
 * credential helper. Every call here switches those off with `-c` (which wins over every config file, and reaches
 * the git processes git starts) and GIT_NO_LAZY_FETCH, skips submodules, and runs the git found on the user's PATH —
 * its absolute entries outside the repository, never a relative one (src/core/programs.ts), git given that PATH too
 * — from a folder outside it (the file system's root), and on Windows with NoDefaultCurrentDirectoryInExePath, so
 * that a `git.cmd` shim looks only on PATH too.
 * A repository can also make git wait: a config that includes a FIFO (`[include]` or `[includeIf]`), a FIFO for
 * HEAD or the index. So all the git calls of one process — one hook run — share one deadline, each spawn is given
 * the time left, and a caller is told when git did not answer, so that a guard can ask instead of letting through.
 */
import { parse, resolve } from "node:path";
import { launchable, type Launch } from "../core/programs.ts";

/** Every git call of one hook run, together: well inside the shortest guard timeout (10 s) after a 5 s stdin read. */
const BUDGET_MS = 3_000;
/** What git may print before it is stopped: a status of a huge dirty tree still fits, a flood does not. */
const OUTPUT_MAX_BYTES = 8 * 1024 * 1024;
/** Always passed: no fsmonitor hook, no signature checks, no transport (a lazy fetch fails before it connects). */
const BASE_OVERRIDES: readonly string[] = ["-c", "core.fsmonitor=false", "-c", "log.showSignature=false", "-c", "protocol.allow=never"];
/** A config name that `-c <section>.<name>.<key>=` could not address is not overridden: refuse. */
const SAFE_NAME = /^[^=\s\u0000-\u001f]+$/;

/** When this process's git calls must be done by (set at its first call). */
let deadline: number | null = null;

function timeLeft(): number {
  deadline ??= Date.now() + BUDGET_MS;
  return deadline - Date.now();
}

/** What a git call came to: it exited (with its status), or it gave no answer (none found, out of time, killed). */
export type GitAnswer = { kind: "exited"; code: number; stdout: string } | { kind: "unanswered" };

const UNANSWERED: GitAnswer = { kind: "unanswered" };

/** A folder outside any repository to start git from (the root of `dir`'s file system). */
function neutralDir(dir: string): string {
  return parse(resolve(dir)).root;
}

const launches = new Map<string, Launch | null>();

/**
 * The user's git for `dir` and its environment, or null when PATH has none outside the projects of `dir` and of the
 * current folder (a hook's, which `git -C <elsewhere>` in a judged command line does not name).
 */
function gitFor(dir: string): Launch | null {
  if (!launches.has(dir)) launches.set(dir, launchable("git", process.env, [dir, process.cwd()]));
  return launches.get(dir) ?? null;
}

function spawn(dir: string, args: readonly string[]): GitAnswer {
  const git = gitFor(dir);
  const left = timeLeft();
  if (!git || left <= 0) return UNANSWERED;
  try {
    const result = Bun.spawnSync([git.path, "-C", dir, ...BASE_OVERRIDES, ...args], {
      cwd: neutralDir(dir),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: left,
      // git only reads here (GIT_OPTIONAL_LOCKS=0): killing it leaves nothing half-written, and a FIFO open is not
      // always interrupted by a gentler signal.
      killSignal: "SIGKILL",
      maxBuffer: OUTPUT_MAX_BYTES,
      env: { ...git.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_NO_LAZY_FETCH: "1", LC_ALL: "C" },
    });
    if (result.exitedDueToTimeout || result.exitedDueToMaxBuffer || result.exitCode === null) return UNANSWERED;
    return { kind: "exited", code: result.exitCode, stdout: result.stdout.toString() };
  } catch {
    return UNANSWERED;
  }
}

/** Config entries: key and value. */
export type GitConfig = ReadonlyArray<readonly [key: string, value: string]>;

/**
 * `git config -z --get-regexp <pattern>` in `dir`: every matching key (section and key lower-cased by git, a
 * subsection as written) with its value, in the order git reads them (a later one wins), none when nothing matches;
 * null when git gave no answer or failed (a config it cannot parse). Reading config runs nothing of the repository.
 */
export function gitConfig(dir: string, pattern: string): GitConfig | null {
  const answer = spawn(dir, ["config", "-z", "--get-regexp", pattern]);
  if (answer.kind !== "exited" || (answer.code !== 0 && answer.code !== 1)) return null;
  if (answer.code === 1) return [];
  const entries: Array<readonly [string, string]> = [];
  for (const entry of answer.stdout.split("\0")) {
    if (entry === "") continue;
    const newline = entry.indexOf("\n");
    entries.push(newline < 0 ? [entry, ""] : [entry.slice(0, newline), entry.slice(newline + 1)]);
  }
  return entries;
}

/**
 * `-c filter.<driver>.clean= …` for every filter driver the config names, and `-c protocol.<name>.allow=never` for
 * every protocol it allows by name (that would win over `protocol.allow`); null when a name cannot be overridden
 * safely or the config cannot be read.
 */
function repositoryOverrides(dir: string): string[] | null {
  const config = gitConfig(dir, "^(filter|protocol)\\.");
  if (config === null) return null;
  const drivers = new Set<string>();
  const protocols = new Set<string>();
  for (const [key] of config) {
    const filter = /^filter\.(.+)\.[^.]+$/.exec(key);
    if (filter) drivers.add(filter[1] as string);
    const protocol = /^protocol\.(.+)\.allow$/.exec(key);
    if (protocol) protocols.add(protocol[1] as string);
  }
  const overrides: string[] = [];
  for (const driver of drivers) {
    if (!SAFE_NAME.test(driver)) return null;
    for (const key of ["clean", "smudge", "process"]) overrides.push("-c", `filter.${driver}.${key}=`);
    overrides.push("-c", `filter.${driver}.required=false`);
  }
  for (const protocol of protocols) {
    if (!SAFE_NAME.test(protocol)) return null;
    overrides.push("-c", `protocol.${protocol}.allow=never`);
  }
  return overrides;
}

const overridesOf = new Map<string, string[] | null>();

/** `git <args>` in `dir` with the repository's commands switched off; stdout, or null on any failure. */
export function runGit(dir: string, args: readonly string[]): string | null {
  if (!overridesOf.has(dir)) overridesOf.set(dir, repositoryOverrides(dir));
  const overrides = overridesOf.get(dir);
  if (!overrides) return null;
  const answer = spawn(dir, [...overrides, ...args]);
  return answer.kind === "exited" && answer.code === 0 ? answer.stdout : null;
}

/** `git status` of the work tree, untracked files listed, submodules skipped. */
export function gitStatus(dir: string): string | null {
  return runGit(dir, ["status", "--porcelain=v1", "-b", "--untracked-files=normal", "--ignore-submodules=all"]);
}
