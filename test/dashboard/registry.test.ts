/**
 * The projects registry (`<userConfigDir>/projects.json`): written when a store is created or migrated, by the
 * process that did it, safe under concurrent creators, bounded, and validated when read back.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, runAioson, tempDir, tempProject, testEnv } from "../helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

type Registry = { version: number; projects: Array<{ root: string; registered_at: string }> };

function registry(home: string): Registry {
  return JSON.parse(readFileSync(join(home, ".config", "aioson", "projects.json"), "utf8")) as Registry;
}

const WRITE = (project: string) =>
  JSON.stringify({ hook_event_name: "PostToolUse", session_id: "reg-1", tool_name: "Write", tool_input: { file_path: join(project, "a.ts"), content: "x" } });

describe("projects registry", () => {
  test("a store created by a hook registers its project; later hooks do not touch the registry", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    expect(runAioson(["hooks:emit", project], { home, stdin: WRITE(project) }).code).toBe(0);
    const first = registry(home);
    expect(first.version).toBe(1);
    expect(first.projects.map((p) => p.root)).toEqual([project]);
    expect(Number.isNaN(Date.parse(first.projects[0]?.registered_at ?? ""))).toBe(false);
    const path = join(home, ".config", "aioson", "projects.json");
    rmSync(path);
    expect(runAioson(["hooks:emit", project], { home, stdin: WRITE(project) }).code).toBe(0);
    expect(runAioson(["runtime:status", project, "--json"], { home }).code).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  test("XDG_CONFIG_HOME is where the registry lives when set", () => {
    const home = tempDir("aioson-home-");
    const config = tempDir("aioson-xdg-");
    const project = tempProject();
    expect(runAioson(["runtime:init", project], { home, env: { XDG_CONFIG_HOME: config } }).code).toBe(0);
    expect(JSON.parse(readFileSync(join(config, "aioson", "projects.json"), "utf8")).projects[0].root).toBe(project);
    expect(existsSync(join(home, ".config", "aioson", "projects.json"))).toBe(false);
  });

  test("a store migrated from an older schema registers its project", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    expect(runAioson(["runtime:init", project], { home }).code).toBe(0);
    rmSync(join(home, ".config", "aioson", "projects.json"));
    const db = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
    // An older store: its version, and an index a later schema added (a store of this build's exact shape is
    // recognised as current whatever its user_version says).
    db.exec("DROP INDEX idx_execution_events_harness_session");
    db.exec("PRAGMA user_version = 1");
    db.close();
    expect(runAioson(["hooks:emit", project], { home, stdin: WRITE(project) }).code).toBe(0);
    expect(registry(home).projects.map((p) => p.root)).toEqual([project]);
  });

  test("16 stores created at once by parallel hooks are all registered, in one valid file", async () => {
    const home = tempDir("aioson-home-");
    const projects = Array.from({ length: 16 }, () => tempProject());
    const children = projects.map((project) =>
      Bun.spawn([BINARY, "hooks:emit", project], { env: testEnv(home), stdin: new TextEncoder().encode(WRITE(project)), stdout: "ignore", stderr: "ignore" }),
    );
    expect(await Promise.all(children.map((child) => child.exited))).toEqual(projects.map(() => 0));
    expect(registry(home).projects.map((p) => p.root).sort()).toEqual([...projects].sort());
    expect(existsSync(join(home, ".config", "aioson", "projects.json.lock"))).toBe(false);
  });

  test("entries whose store is gone are dropped, and the registry keeps at most 256 projects, newest first", () => {
    const home = tempDir("aioson-home-");
    const base = tempProject();
    expect(runAioson(["runtime:init", base], { home }).code).toBe(0);
    // 300 more roots with a store: links to the same project (each link is another root).
    const links = tempDir("aioson-links-");
    const alive = Array.from({ length: 300 }, (_, i) => {
      const root = join(links, `p${i}`);
      symlinkSync(base, root);
      return { root, registered_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() };
    });
    const gone = { root: join(links, "gone"), registered_at: new Date().toISOString() };
    writeFileSync(join(home, ".config", "aioson", "projects.json"), JSON.stringify({ version: 1, projects: [gone, ...alive] }));
    const project = tempProject();
    expect(runAioson(["runtime:init", project], { home }).code).toBe(0);
    const roots = registry(home).projects.map((p) => p.root);
    expect(roots.length).toBe(256);
    expect(roots[0]).toBe(project);
    expect(roots).not.toContain(gone.root);
    // The newest of the old entries are the ones kept.
    expect(roots[1]).toBe(join(links, "p299"));
    expect(roots).not.toContain(join(links, "p0"));
  });

  test("a damaged registry (not JSON, wrong shape, bad entries, a folder) never fails a hook and is rewritten valid", () => {
    const bad = ["{not json", JSON.stringify({ version: 2, projects: [] }), JSON.stringify({ version: 1, projects: [{ root: "relative/path", registered_at: "x" }, { root: 7 }, null] })];
    for (const text of bad) {
      const home = tempDir("aioson-home-");
      mkdirSync(join(home, ".config", "aioson"), { recursive: true });
      writeFileSync(join(home, ".config", "aioson", "projects.json"), text);
      const project = tempProject();
      expect(runAioson(["hooks:emit", project], { home, stdin: WRITE(project) }).code).toBe(0);
      expect(registry(home).projects.map((p) => p.root)).toEqual([project]);
    }
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".config", "aioson", "projects.json"), { recursive: true });
    const project = tempProject();
    expect(runAioson(["hooks:emit", project], { home, stdin: WRITE(project) }).code).toBe(0);
    expect(statSync(join(project, ".aioson", "runtime", "aios.sqlite")).isFile()).toBe(true);
  });

  test("a stale lock left by a killed process is taken over", () => {
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".config", "aioson"), { recursive: true });
    const lock = join(home, ".config", "aioson", "projects.json.lock");
    writeFileSync(lock, "");
    const old = new Date(Date.now() - 60_000);
    Bun.spawnSync(["touch", "-d", old.toISOString(), lock]);
    const project = tempProject();
    expect(runAioson(["runtime:init", project], { home }).code).toBe(0);
    expect(registry(home).projects.map((p) => p.root)).toEqual([project]);
    expect(existsSync(lock)).toBe(false);
  });

  test("a hook outside any project registers nothing", () => {
    const home = tempDir("aioson-home-");
    const dir = tempDir("aioson-noproj-");
    expect(runAioson(["hooks:emit", dir], { home, stdin: WRITE(dir) }).code).toBe(0);
    expect(existsSync(join(home, ".config"))).toBe(false);
  });
});
