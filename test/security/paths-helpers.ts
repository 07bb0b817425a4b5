/**
 * Helpers for the hostile-project suites (issue 11, writes, reads and bounds): a temp root holding the project, an
 * "outside" folder the project's symlinks point into and the temp HOME, snapshots of both to prove nothing outside
 * the project changed, a bounded spawn (no hang) and a peak-memory run under GNU time.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, tempDir, testEnv } from "../helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

export type Hostile = {
  /** The temp root: project, outside and home are its children. */
  base: string;
  project: string;
  /** Where the project's symlinks point: must stay exactly as it was. */
  outside: string;
  home: string;
};

/** A project (`.aioson/config.md`), an outside folder with a bait file, and a HOME with a `.bashrc`. */
export function hostileProject(): Hostile {
  const base = tempDir("aioson-hostile-");
  const project = join(base, "project");
  const outside = join(base, "outside");
  const home = join(base, "home");
  mkdirSync(join(project, ".aioson"), { recursive: true });
  writeFileSync(join(project, ".aioson", "config.md"), "# hostile project\n");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "bait.txt"), "do not touch\n");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".bashrc"), "# the user's shell start file\n");
  return { base, project, outside, home };
}

/** Every entry under `dir` with its kind and content hash (files) or target (symlinks); symlinks are not followed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, rel: string): void => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) out[rel] = `link:${readlinkSync(path)}`;
    else if (stat.isDirectory()) {
      out[rel] = "dir";
      for (const name of readdirSync(path).sort()) walk(join(path, name), rel ? `${rel}/${name}` : name);
    } else if (stat.isFile()) out[rel] = `file:${stat.size}:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    else out[rel] = `other:${stat.mode}`;
  };
  if (existsSync(dir) || isLink(dir)) walk(dir, "");
  return out;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The user's own aioson files in HOME that a store creation is meant to update: the dashboard's projects registry
 * (`~/.config/aioson/projects.json`, src/store/registry.ts). Nothing a project can aim at.
 */
export function isUserRegistry(rel: string): boolean {
  return rel === ".config" || rel === ".config/aioson" || rel.startsWith(".config/aioson/projects.json") || rel.startsWith(".config/aioson/.projects.json");
}

/** Snapshots of the outside folder and HOME (less the user's registry), to compare after an attack. */
export function outsideState(h: Hostile): { outside: Record<string, string>; home: Record<string, string> } {
  const home = Object.fromEntries(Object.entries(snapshot(h.home)).filter(([rel]) => !isUserRegistry(rel)));
  return { outside: snapshot(h.outside), home };
}

export type Spawned = { code: number | null; stdout: string; stderr: string; ms: number; timedOut: boolean };

/**
 * Runs the binary with a hard bound: a process still running after `boundMs` is killed and reported as timed out
 * (the bound is what is asserted, never a duration).
 */
export async function runBounded(args: readonly string[], options: { h: Hostile; stdin?: string | null; cwd?: string; boundMs?: number; env?: Record<string, string> }): Promise<Spawned> {
  const started = Date.now();
  const proc = Bun.spawn([BINARY, ...args], {
    cwd: options.cwd ?? options.h.project,
    env: testEnv(options.h.home, options.env),
    stdin: options.stdin === undefined || options.stdin === null ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill(9);
  }, options.boundMs ?? 3_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code: timedOut ? null : code, stdout, stderr, ms: Date.now() - started, timedOut };
}

export type Measured = { code: number; peakKiB: number; stdout: string; log: string };

/** Runs `<feeder> | aioson <args>` under GNU time (`/usr/bin/time -v`) and reads its peak RSS. */
export function peakRss(feeder: string, args: readonly string[], h: Hostile, timeoutMs = 30_000): Measured {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  const script = `(${feeder}) | /usr/bin/time -v '${BINARY}' ${quoted}`;
  const result = Bun.spawnSync(["sh", "-c", script], { cwd: h.project, env: testEnv(h.home), stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
  const stderr = result.stderr.toString();
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  const status = /Exit status: (\d+)/.exec(stderr);
  const logPath = join(h.project, ".aioson", "runtime", "hooks.log");
  return {
    code: status ? Number(status[1]) : -1,
    peakKiB: peak ? Number(peak[1]) : Number.POSITIVE_INFINITY,
    stdout: result.stdout.toString(),
    log: existsSync(logPath) ? readFileSync(logPath, "utf8") : "",
  };
}

export const PEAK_BOUND_KIB = 64 * 1024;

export function runtimeOf(project: string): string {
  return join(project, ".aioson", "runtime");
}

export const WRITE_PAYLOAD = { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "src/a.ts" }, session_id: "S-1" };

/** A rule context:guard always injects for `namingWrite` (its checker flags Portuguese identifiers). */
export const NAMING_RULE = "---\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English.\n";

export function namingWrite(project: string, sessionId = "S-1"): Record<string, unknown> {
  const names = ["salvarPedido", "criarConta", "buscarItem"];
  return { hook_event_name: "PreToolUse", session_id: sessionId, tool_name: "Write", tool_input: { file_path: join(project, "src", "a.js"), content: names.map((n) => `export function ${n}() {}`).join("\n") } };
}

export function hookLogOf(h: Hostile): string {
  const path = join(runtimeOf(h.project), "hooks.log");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/** One statement against the project's store, as a committed (hand-edited) store would hold it. */
export function editStore(h: Hostile, sql: string, ...params: string[]): void {
  const db = openDbFile(join(runtimeOf(h.project), "aios.sqlite"));
  try {
    db.query(sql).run(...params);
  } finally {
    db.close();
  }
}
