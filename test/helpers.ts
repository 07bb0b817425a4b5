/**
 * Shared test helpers: temp projects, temp HOME, and running the real compiled binary
 * (`dist/aioson`, built by `npm test` before the suite) with a stdin payload.
 */
import type { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inheritedEnv } from "../scripts/clean-env.ts";
import { openDbFile } from "../scripts/open-db.ts";

export const REPO_ROOT = join(import.meta.dir, "..");
export const BINARY = join(REPO_ROOT, "dist", process.platform === "win32" ? "aioson.exe" : "aioson");

const made: string[] = [];

/** A fresh temp directory (real path), removed by `cleanupTemp`. */
export function tempDir(prefix = "aioson-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function cleanupTemp(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A temp project: `<dir>/.aioson/config.md` exists, nothing else. */
export function tempProject(files: Record<string, string> = {}): string {
  const dir = tempDir("aioson-proj-");
  mkdirSync(join(dir, ".aioson"), { recursive: true });
  writeFileSync(join(dir, ".aioson", "config.md"), "# test project\n");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export type RunResult = { code: number; stdout: string; stderr: string; json: unknown };

export type RunOptions = {
  cwd?: string;
  stdin?: string | Uint8Array | null;
  env?: Record<string, string | undefined>;
  home?: string;
  timeoutMs?: number;
};

/** The environment a hook sees in tests: a temp HOME and nothing of the caller's that aioson reacts to (`inheritedEnv`). */
export function testEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env = inheritedEnv();
  env.HOME = home;
  env.USERPROFILE = home;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs the compiled binary; `stdin: null` leaves stdin closed-empty (like a hook with no payload). */
export function runAioson(args: readonly string[], options: RunOptions = {}): RunResult {
  const home = options.home ?? tempDir("aioson-home-");
  const stdin = options.stdin ?? null;
  const result = Bun.spawnSync([BINARY, ...args], {
    cwd: options.cwd ?? home,
    env: testEnv(home, options.env),
    stdin: stdin === null ? "ignore" : typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin,
    stdout: "pipe",
    stderr: "pipe",
    timeout: options.timeoutMs ?? 20_000,
  });
  const stdout = result.stdout.toString();
  return { code: result.exitCode ?? -1, stdout, stderr: result.stderr.toString(), json: parseJson(stdout) };
}

/**
 * Runs the binary on a pseudo-terminal (util-linux `script`, in Debian's essential set): stdout and stderr are both
 * the terminal, whose output comes back with `\r\n` turned into `\n`.
 */
export function onTerminal(args: readonly string[], home: string, env: Record<string, string> = {}): string {
  const line = [BINARY, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  const result = Bun.spawnSync(["script", "-qec", line, "/dev/null"], { cwd: home, env: testEnv(home, { TERM: "xterm-256color", ...env }), stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  return result.stdout.toString().replaceAll("\r\n", "\n");
}

/** Opens a project's store read-only for assertions. */
export function openTestDb(project: string): Database {
  return openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"), { readonly: true });
}

export function rows<T = Record<string, unknown>>(project: string, sql: string, ...params: Array<string | number | null>): T[] {
  const db = openTestDb(project);
  try {
    return db.query(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** `hooks:emit <project> --agent=dev` with `payload` (its `cwd` the project); throws unless the hook exits 0. */
export function emitHook(project: string, payload: Record<string, unknown>, extra: string[] = []): void {
  const result = runAioson(["hooks:emit", project, "--agent=dev", ...extra], { stdin: JSON.stringify({ cwd: project, ...payload }) });
  if (result.code !== 0) throw new Error(`hooks:emit exited ${result.code}: ${result.stderr}`);
}

/** A Claude PostToolUse Write of `file` (relative to the project) in harness session `session`. */
export function recordWrite(project: string, session: string, file: string): void {
  emitHook(project, { session_id: session, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, file), content: "x" }, tool_response: {} });
}
