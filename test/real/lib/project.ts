/**
 * The world a scenario runs in: a temp folder holding an isolated HOME and an AIOSON project, `aioson` on PATH
 * (a link to the built `dist/aioson`), and readers for what aioson stored (SQLite rows, events.ndjson lines).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BINARY, rows } from "../../helpers.ts";
import { RUN_TOKEN, runTracked, type RunResult } from "./processes.ts";

export { rows };

/** Every world of this run lives under one folder (test/real/run.ts removes it even when a test process died). */
export function worldsRoot(token = RUN_TOKEN): string {
  return join(tmpdir(), token);
}

const made: string[] = [];

/** Removes every bench folder (afterAll of each scenario file; the process exit does it too). */
export function cleanupWorlds(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(worldsRoot());
  } catch {
    // another scenario file of this run still has a world there, or it is gone already
  }
}
process.on("exit", cleanupWorlds);

export type World = {
  root: string;
  home: string;
  project: string;
  /** Folder put first on PATH: `aioson` → dist/aioson. */
  bin: string;
};

function writeFiles(base: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const target = join(base, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/** A fresh world: `project/.aioson/config.md` plus `files`, a git repository when asked. */
export function makeWorld(options: { files?: Record<string, string>; git?: boolean } = {}): World {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: build first (npm run test:real builds it)`);
  mkdirSync(worldsRoot(), { recursive: true });
  const root = realpathSync(mkdtempSync(join(worldsRoot(), "world-")));
  made.push(root);
  const world: World = { root, home: join(root, "home"), project: join(root, "project"), bin: join(root, "bin") };
  for (const dir of [world.home, world.project, world.bin]) mkdirSync(dir, { recursive: true });
  symlinkSync(BINARY, join(world.bin, "aioson"));
  writeFiles(world.project, { ".aioson/config.md": "# bench project\n", ...(options.files ?? {}) });
  if (options.git) {
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: world.project, env: baseEnv(world), stdout: "ignore", stderr: "pipe" });
    for (const args of [["init", "-q", "-b", "main"], ["config", "user.email", "bench@example.invalid"], ["config", "user.name", "Bench"], ["add", "-A"], ["commit", "-q", "-m", "chore: start"]]) {
      const run = git(...args);
      if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
    }
  }
  return world;
}

/** The environment every process of a world starts from: nothing of the developer's but PATH basics. */
export function baseEnv(world: World): Record<string, string> {
  return {
    PATH: `${world.bin}:/usr/local/bin:/usr/bin:/bin`,
    HOME: world.home,
    USER: "bench",
    LANG: "C.UTF-8",
    TMPDIR: tmpdir(),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(world.home, ".gitconfig"),
  };
}

/** Runs the built aioson in the world (HOME isolated), from the project folder unless told otherwise. */
export function aioson(world: World, args: readonly string[], options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}): Promise<RunResult> {
  return runTracked([BINARY, ...args], { cwd: options.cwd ?? world.project, env: { ...baseEnv(world), ...(options.env ?? {}) }, stdin: options.stdin, timeoutMs: 60_000 });
}

/** Every events.ndjson line of the project's live folders, oldest first within each session. */
export function ndjsonLines(project: string): Array<Record<string, unknown>> {
  const live = join(project, ".aioson", "runtime", "live");
  if (!existsSync(live)) return [];
  const lines: Array<Record<string, unknown>> = [];
  for (const dir of readdirSync(live)) {
    const file = join(live, dir, "events.ndjson");
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  return lines;
}

export type EventRow = {
  id: number;
  run_key: string | null;
  event_type: string;
  message: string;
  tool_name: string | null;
  payload_json: string | null;
  harness_session_id: string | null;
  source: string | null;
};

/** execution_events in insertion order, payloads parsed. */
export function events(project: string, where = "1 = 1", ...params: Array<string | number>): Array<EventRow & { payload: Record<string, unknown> }> {
  if (!existsSync(join(project, ".aioson", "runtime", "aios.sqlite"))) return [];
  return rows<EventRow>(project, `SELECT id, run_key, event_type, message, tool_name, payload_json, harness_session_id, source FROM execution_events WHERE ${where} ORDER BY id`, ...params).map(
    (row) => ({ ...row, payload: row.payload_json ? (JSON.parse(row.payload_json) as Record<string, unknown>) : {} }),
  );
}

export function readText(path: string): string {
  return readFileSync(path, "utf8");
}
