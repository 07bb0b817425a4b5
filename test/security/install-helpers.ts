/**
 * A hostile world for the installer tests: one temp root holding the user's HOME, a cloned project and an
 * "outside" folder a hostile project points at. `snapshot` records every entry below a folder (lstat: links are
 * not followed, FIFOs and sockets are never opened) so a test can prove that nothing outside the project changed.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, tempDir, testEnv, type RunResult } from "../helpers.ts";

export type World = { root: string; home: string; project: string; outside: string; marker: string };

/** HOME with Claude Code, Codex, Antigravity and OpenCode present (spec 9.10 detection), a project, an outside folder. */
export function hostileWorld(): World {
  const root = tempDir("aioson-hostile-");
  const home = join(root, "home");
  const project = join(root, "project");
  const outside = join(root, "outside");
  for (const dir of [join(home, ".claude"), join(home, ".codex"), join(home, ".gemini", "antigravity"), join(home, ".config", "opencode"), join(project, ".aioson"), outside]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(project, ".aioson", "config.md"), "# a cloned project\n");
  return { root, home, project, outside, marker: join(outside, "PWNED") };
}

/** Every entry below `dir`, as `relative path → type, mode, size, content hash or link target`. */
export function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (current: string, rel: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const key = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(path);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) entries[key] = `link ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        entries[key] = `dir ${mode}`;
        walk(path, key);
      } else if (stat.isFile()) entries[key] = `file ${mode} ${stat.size} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
      else entries[key] = `special ${mode}`;
    }
  };
  walk(dir, "");
  return entries;
}

export type TimedRun = RunResult & { timedOut: boolean };

/** The real binary with HOME = the world's home, killed after `timeoutMs` (a hang is a failure, never a wait). */
export function run(world: World, args: readonly string[], options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): TimedRun {
  const result = Bun.spawnSync([BINARY, ...args], {
    cwd: options.cwd ?? world.project,
    env: testEnv(world.home, options.env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: options.timeoutMs ?? 10_000,
  });
  const stdout = result.stdout.toString();
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code: result.exitCode ?? -1, stdout, stderr: result.stderr.toString(), json, timedOut: result.exitedDueToTimeout === true };
}

/** The user-level config files of the world's HOME (spec 9.3 defaults). */
export function userFiles(world: World) {
  return {
    claude: join(world.home, ".claude", "settings.json"),
    codex: join(world.home, ".codex", "hooks.json"),
    antigravity: join(world.home, ".gemini", "antigravity", "hooks.json"),
    plugin: join(world.home, ".config", "opencode", "plugins", "aioson.js"),
  };
}
