import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { escapeDataTree, isProjectRoot, resolveProjectRoot, resolveUserRoot } from "../../src/core/project-root.ts";
import { cleanupTemp, tempDir, tempProject } from "../helpers.ts";

afterAll(cleanupTemp);

describe("project root (spec 1, cases 1-8)", () => {
  test("a project with .aioson/config.md is its own root, also from deep below", () => {
    const proj = tempProject();
    const deep = join(proj, "docs", "pt", "1-entender");
    mkdirSync(deep, { recursive: true });
    expect(resolveProjectRoot(proj)).toBe(proj);
    expect(resolveProjectRoot(deep)).toBe(proj);
  });

  test("outside any project there is no root", () => {
    const dir = join(tempDir(), "not-a-project", "nested");
    mkdirSync(dir, { recursive: true });
    expect(resolveProjectRoot(dir)).toBeNull();
  });

  test("nested projects: the nearest wins", () => {
    const outer = tempProject();
    const inner = join(outer, "packages", "inner");
    mkdirSync(join(inner, ".aioson", "context"), { recursive: true });
    mkdirSync(join(inner, "src"), { recursive: true });
    expect(resolveProjectRoot(join(inner, "src"))).toBe(inner);
  });

  test("a .aioson file is not a marker; the operator store in HOME is not a project", () => {
    const decoy = tempDir();
    writeFileSync(join(decoy, ".aioson"), "x");
    expect(isProjectRoot(decoy)).toBe(false);
    expect(resolveProjectRoot(decoy)).toBeNull();
    const home = tempDir();
    mkdirSync(join(home, ".aioson", "operators"), { recursive: true });
    writeFileSync(join(home, ".aioson", "config.json"), "{}");
    mkdirSync(join(home, "scratch", "nested"), { recursive: true });
    expect(isProjectRoot(home)).toBe(false);
    expect(resolveProjectRoot(join(home, "scratch", "nested"))).toBeNull();
  });

  test("user-command mode falls back to the directory itself", () => {
    const fresh = tempDir();
    expect(resolveUserRoot(fresh)).toBe(fresh);
    const proj = tempProject();
    mkdirSync(join(proj, "src", "lib"), { recursive: true });
    expect(resolveUserRoot(join(proj, "src", "lib"))).toBe(proj);
  });

  test("escapeDataTree: the first .aioson segment wins; a git worktree inside is kept", () => {
    expect(escapeDataTree("/p/.aioson/briefings/x/.aioson/context")).toBe("/p");
    const proj = tempProject();
    const worktree = join(proj, ".aioson", "squads", "s", "worktrees", "dev");
    mkdirSync(join(worktree, ".git"), { recursive: true });
    mkdirSync(join(worktree, "src"), { recursive: true });
    expect(escapeDataTree(join(worktree, "src"))).toBe(join(worktree, "src"));
    expect(escapeDataTree(join(proj, ".aioson", "briefings", "x"))).toBe(proj);
  });
});
