/**
 * Config files are read only when they are regular files of sane size: a FIFO (which hung install and uninstall),
 * a device, a socket or a folder where a harness config should be is refused without blocking, and so is a file
 * over 8 MiB — through install, uninstall, doctor and init, in HOME and in a project. Nothing is replaced.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cleanupTemp } from "../helpers.ts";
import { hostileWorld, run, snapshot, userFiles, type World } from "./install-helpers.ts";

const listeners: { stop: () => void }[] = [];
afterAll(() => {
  for (const listener of listeners) listener.stop();
  cleanupTemp();
});

type Kind = { name: string; make: (path: string) => void; check: (path: string) => boolean };

const KINDS: Kind[] = [
  { name: "a FIFO", make: (path) => Bun.spawnSync(["mkfifo", path]), check: (path) => lstatSync(path).isFIFO() },
  { name: "a link to /dev/zero", make: (path) => symlinkSync("/dev/zero", path), check: (path) => lstatSync(path).isSymbolicLink() },
  { name: "a folder", make: (path) => mkdirSync(path), check: (path) => lstatSync(path).isDirectory() },
  { name: "a socket", make: (path) => {
    listeners.push(Bun.listen({ unix: path, socket: { data() {} } }));
  }, check: (path) => lstatSync(path).isSocket() },
  { name: "a 9 MiB file", make: (path) => {
    writeFileSync(path, "{}");
    truncateSync(path, 9 * 1024 * 1024);
  }, check: (path) => lstatSync(path).size === 9 * 1024 * 1024 },
];

/** `project`: a project path, where a symlink is refused before anything is read (install-symlinks.test.ts). */
type Place = { name: string; tool: string; path: (w: World) => string; project: boolean };

const PLACES: Place[] = [
  { name: "~/.claude/settings.json", tool: "claude", path: (w) => userFiles(w).claude, project: false },
  { name: "~/.codex/hooks.json", tool: "codex", path: (w) => userFiles(w).codex, project: false },
  { name: "the OpenCode plugin", tool: "opencode", path: (w) => userFiles(w).plugin, project: false },
  { name: "the project's .agents/hooks.json", tool: "antigravity", path: (w) => join(w.project, ".agents", "hooks.json"), project: true },
  { name: "the project's .github/hooks/aioson.json", tool: "copilot", path: (w) => join(w.project, ".github", "hooks", "aioson.json"), project: true },
];

describe("a config that is not a regular file of sane size", () => {
  for (const place of PLACES) {
    for (const kind of KINDS) {
      test(`${place.name} is ${kind.name}: install, uninstall and doctor refuse it without blocking and leave it`, () => {
        const world = hostileWorld();
        const path = place.path(world);
        mkdirSync(dirname(path), { recursive: true });
        kind.make(path);
        const before = snapshot(world.root);
        const linkInProject = place.project && kind.name.startsWith("a link");
        const install = run(world, ["hooks:install", ".", `--tool=${place.tool}`, "--json"]);
        expect(install.timedOut).toBe(false);
        expect(install.code).toBe(1);
        const result = install.json as { reason?: string; results: { skipped?: string }[] };
        if (linkInProject) expect(result.reason).toBe("unsafe_project_path");
        else expect(result.results.some((r) => r.skipped === "unreadable")).toBe(true);
        const human = run(world, ["hooks:install", ".", `--tool=${place.tool}`]);
        expect(human.stdout).toMatch(linkInProject ? /^Refused: .* is a symlink/ : /is (not a regular file \(a (FIFO|device|folder|socket)\)|larger than 8 MiB); leaving it untouched/);
        const uninstall = run(world, ["hooks:uninstall", ".", `--tool=${place.tool}`]);
        expect(uninstall.timedOut).toBe(false);
        expect(uninstall.code).toBe(1);
        const doctor = run(world, ["hooks:doctor", ".", `--tool=${place.tool}`, "--json"], { env: { PATH: "/usr/bin:/bin" } });
        expect(doctor.timedOut).toBe(false);
        expect((doctor.json as { issues: { code: string }[] }).issues.map((i) => i.code)).toContain(linkInProject ? "workspace_unsafe" : "config_unreadable");
        expect(kind.check(path)).toBe(true);
        expect(snapshot(world.root)).toEqual(before);
      });
    }
  }

  test("init with a FIFO as ~/.claude/settings.json finishes, reports it and leaves the FIFO", () => {
    const world = hostileWorld();
    const path = userFiles(world).claude;
    Bun.spawnSync(["mkfifo", path]);
    const result = run(world, ["init", ".", "--tool=claude"]);
    expect(result.timedOut).toBe(false);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Hooks install failed (non-blocking): claude: unreadable");
    expect(lstatSync(path).isFIFO()).toBe(true);
  });

  test("a file just under the bound is still a config", () => {
    const world = hostileWorld();
    const path = userFiles(world).claude;
    writeFileSync(path, JSON.stringify({ blob: "z".repeat(7 * 1024 * 1024) }));
    const result = run(world, ["hooks:install", "--tool=claude"], { timeoutMs: 30_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ Claude Code");
  });
});
