/**
 * Issue 11 item 10: what aioson records is never committed by accident. The runtime folder gets a `.gitignore`
 * holding `*` when aioson creates it, and when it finds the folder without one; one that exists (even a symlink) is
 * left alone. Proven with git itself: nothing under `.aioson/runtime/` shows up as untracked.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson } from "../helpers.ts";
import { hostileProject, outsideState, runtimeOf, WRITE_PAYLOAD } from "./paths-helpers.ts";

afterAll(cleanupTemp);

function untracked(project: string): string[] {
  const status = Bun.spawnSync(["git", "status", "--porcelain", "--untracked-files=all"], { cwd: project, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_SYSTEM: "/dev/null" } });
  return status.stdout
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3));
}

function gitProject() {
  const h = hostileProject();
  expect(Bun.spawnSync(["git", "init", "-q"], { cwd: h.project }).exitCode).toBe(0);
  return h;
}

describe("the runtime folder's .gitignore", () => {
  const makers: Array<[string, (project: string, home: string) => void]> = [
    ["hooks:emit (first event)", (project, home) => runAioson(["hooks:emit", project], { stdin: JSON.stringify(WRITE_PAYLOAD), home })],
    ["hooks:emit with no payload (only the hook log)", (project, home) => runAioson(["hooks:emit", project], { stdin: "junk", home })],
    ["runtime:init", (project, home) => runAioson(["runtime:init", project], { home })],
    ["live:start", (project, home) => runAioson(["live:start", project, "--tool=claude", "--no-launch"], { home })],
    ["session:guard --once", (project, home) => runAioson(["session:guard", project, "--once"], { home })],
  ];

  for (const [name, make] of makers) {
    test(`${name}: the store, logs and live files are not untracked files`, () => {
      const h = gitProject();
      make(h.project, h.home);
      expect(existsSync(runtimeOf(h.project))).toBe(true);
      expect(readFileSync(join(runtimeOf(h.project), ".gitignore"), "utf8")).toBe("*\n");
      expect(untracked(h.project)).toEqual([".aioson/config.md"]);
    });
  }

  test("a runtime folder made by an older build gets one at the next hook", () => {
    const h = gitProject();
    mkdirSync(join(runtimeOf(h.project), "live"), { recursive: true });
    writeFileSync(join(runtimeOf(h.project), "hooks.log"), "old\n");
    expect(untracked(h.project)).toContain(".aioson/runtime/hooks.log");
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    expect(untracked(h.project)).toEqual([".aioson/config.md"]);
  });

  test("an existing .gitignore is never rewritten", () => {
    const h = gitProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    writeFileSync(join(runtimeOf(h.project), ".gitignore"), "# mine\n*.sqlite*\n");
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    expect(readFileSync(join(runtimeOf(h.project), ".gitignore"), "utf8")).toBe("# mine\n*.sqlite*\n");
  });

  test("a .gitignore that is a symlink to a file outside is neither followed nor replaced", () => {
    const h = hostileProject();
    mkdirSync(runtimeOf(h.project), { recursive: true });
    symlinkSync(join(h.home, ".bashrc"), join(runtimeOf(h.project), ".gitignore"));
    const before = outsideState(h);
    runAioson(["hooks:emit", h.project], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home });
    expect(outsideState(h)).toEqual(before);
  });

  test("outside any project nothing is created, .gitignore included", () => {
    const h = hostileProject();
    const bare = join(h.base, "bare");
    mkdirSync(bare);
    runAioson(["hooks:emit", bare], { stdin: JSON.stringify(WRITE_PAYLOAD), home: h.home, cwd: bare });
    expect(existsSync(join(bare, ".aioson"))).toBe(false);
  });
});
