import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookToolFor, installProjectHooks } from "../src/install/project-hooks.ts";
import { cleanupTemp, rows, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

describe("init / update", () => {
  test("init creates the minimal tree and the store, and installs the hooks for --tool", () => {
    const home = tempDir("aioson-home-");
    const run = runAioson(["init", "proj", "--tool=codex", "--json"], { home, cwd: home });
    expect(run.code).toBe(0);
    const project = join(home, "proj");
    expect(existsSync(join(project, ".aioson", "config.md"))).toBe(true);
    expect(readdirSync(join(project, ".aioson", "rules"))).toEqual(["example-source-language.md"]);
    expect(rows(project, "SELECT count(*) AS n FROM sqlite_master WHERE type='table'")[0]!.n).toBeGreaterThan(0);
    expect(run.json).toMatchObject({ ok: true, hooksInstall: { ok: true, results: [{ tool: "codex", changed: true }] } });
    expect(readFileSync(join(home, ".codex", "hooks.json"), "utf8")).toContain("--source='codex'");
  });

  test("init ends with what proves the hooks fire and what shows the sessions; live:status then says what to do", () => {
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".claude"));
    const run = runAioson(["init", "p", "--tool=claude"], { home, cwd: home });
    expect(run.code).toBe(0);
    expect(run.stdout).toEndWith(
      [
        "",
        "To verify that the hooks fire: aioson hooks:doctor",
        "To see the agent's session once it has run: aioson live:status . --agent=dev",
        "To see every session: aioson dashboard",
        "To uninstall: aioson hooks:uninstall --tool=claude",
        "",
      ].join("\n"),
    );
    // A fresh project has no session yet: live:status says so, and what to do, instead of "none" alone.
    const status = runAioson(["live:status", ".", "--agent=dev"], { home, cwd: join(home, "p") });
    expect(status.stdout).toContain("Live session: none\n");
    expect(status.stdout).toEndWith("\nNothing recorded yet for @dev: start a session of your coding agent in this project, or run `aioson hooks:doctor` to check that the hooks fire.\n");
  });

  test("--no-hooks skips the install and says how to do it later (108)", () => {
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".claude"));
    const run = runAioson(["init", "p", "--no-hooks"], { home, cwd: home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hooks skipped (--no-hooks). Install later with: aioson hooks:install");
    expect(existsSync(join(home, ".claude", "settings.json"))).toBe(false);
    expect(runAioson(["init", "q", "--no-hooks", "--json"], { home, cwd: home }).json).toMatchObject({ ok: true, hooksInstall: null });
  });

  test("a hook install failure never fails init (no tool detected)", () => {
    const home = tempDir("aioson-home-");
    const run = runAioson(["init", "p"], { home, cwd: home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hooks install failed (non-blocking): ");
    expect(run.stdout).toContain("Install later with: aioson hooks:install");
  });

  test("a broken settings file is reported by init as a non-blocking failure", () => {
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".claude"));
    writeFileSync(join(home, ".claude", "settings.json"), "{,}");
    const run = runAioson(["init", "p"], { home, cwd: home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hooks install failed (non-blocking): claude: invalid-config. Install later with: aioson hooks:install");
    expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).toBe("{,}");
  });

  test("update migrates the store of an existing project and re-installs without changing anything twice", () => {
    const home = tempDir("aioson-home-");
    mkdirSync(join(home, ".claude"));
    const project = tempProject();
    const first = runAioson(["update", project, "--json"], { home });
    expect(first.json).toMatchObject({ ok: true, storeMigrated: true, hooksInstall: { results: [{ tool: "claude", changed: true }] } });
    expect(existsSync(join(project, ".aioson", "runtime", "aios.sqlite"))).toBe(true);
    const second = runAioson(["update", project, "--json"], { home });
    expect(second.json).toMatchObject({ hooksInstall: { results: [{ tool: "claude", changed: false }] } });
    expect(runAioson(["update", tempDir()], { home }).code).toBe(1);
  });

  test("the --tool of init/update maps to hooks:install's --tool (108)", () => {
    expect(hookToolFor("claude")).toBe("claude");
    expect(hookToolFor("opencode")).toBe("opencode");
    expect(hookToolFor("gemini")).toBe("gemini");
    expect(hookToolFor("cursor")).toBe("all");
    expect(hookToolFor(undefined)).toBe("all");
  });

  test("an installer that throws is reported, non-blocking (108)", () => {
    const out = installProjectHooks({ dir: "/p", cwd: "/p", tool: "claude", hooks: true, dryRun: false, env: {} }, () => {
      throw new Error("settings file locked");
    });
    expect(out.hooksInstall).toEqual({ ok: false, error: "settings file locked" });
    expect(out.lines).toContain("Hooks install failed (non-blocking): settings file locked. Install later with: aioson hooks:install");
  });
});
