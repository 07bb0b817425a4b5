import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

describe("cli", () => {
  test("--version prints the version and the commit it was built from", () => {
    const run = runAioson(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^aioson \d+\.\d+\.\d+\S* \(\S+\)$/);
  });

  test("--help lists commands grouped by area", () => {
    const run = runAioson(["--help"]);
    expect(run.code).toBe(0);
    for (const heading of ["Hooks:", "Context:", "Sessions:", "Runtime:"]) expect(run.stdout).toContain(heading);
    expect(run.stdout).toContain("hooks:emit");
  });

  test("an unknown command is a clear error", () => {
    const run = runAioson(["no-such-command"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Unknown command: no-such-command");
  });

  test("a near miss of a command is named: separators, a letter too many or too few, a prefix, the part after the colon", () => {
    for (const [typed, meant] of [["hooks-instal", "`hooks:install`"], ["hook:install", "`hooks:install`"], ["hooksinstall", "`hooks:install`"], ["hooks:doc", "`hooks:doctor`"], ["install", "`hooks:install`"], ["live-stauts", "`live:status`"], ["guard:pre-comit-guard", "`guard:pre-commit-guard`"]] as const) {
      const run = runAioson([typed]);
      expect({ typed, code: run.code, stdout: run.stdout }).toEqual({ typed, code: 1, stdout: "" });
      expect(run.stderr).toStartWith(`Error: Unknown command: ${typed}. Did you mean ${meant}?\n`);
      expect(run.stderr).toContain("Run `aioson --help` for every command.");
    }
    expect(runAioson(["status"]).stderr).toContain("Did you mean `live:status` or `runtime:status`?");
  });

  test("a command nowhere near any is answered with the list of commands, by area", () => {
    const run = runAioson(["frobnicate", "."]);
    expect(run.code).toBe(1);
    expect(run.stderr).toStartWith("Error: Unknown command: frobnicate.\nThe commands:\nHooks:\n  hooks:install ");
    for (const name of ["hooks:doctor", "live:status", "guard:pre-commit-guard", "init"]) expect(run.stderr).toContain(`  ${name} `);
    expect(run.stderr).not.toContain("Did you mean");
  });

  test("with --json an unknown command is spec 0.3's error envelope", () => {
    const run = runAioson(["hooks-instal", "--json"]);
    expect(run.code).toBe(1);
    expect(run.json).toEqual({ ok: false, error: { code: "command_error", message: "Unknown command: hooks-instal. Did you mean `hooks:install`?", command: "hooks-instal" } });
    expect(run.stderr).toBe("");
  });

  test("an option a person's command does not know is refused before anything is done, with the nearest one", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const dryRun = runAioson(["hooks:install", project, "--tool=claude", "--dryrun"], { home });
    expect(dryRun.code).toBe(1);
    expect(dryRun.stderr).toStartWith("Error: Unknown option --dryrun for hooks:install. Did you mean `--dry-run`?\n");
    expect(dryRun.stderr).toContain("Its options: --tool, --agent, --no-guard, --with, --dry-run, --json; `aioson hooks:install --help` says what each does.");
    // The typo of --dry-run must not install for real.
    expect(readdirSync(home)).toEqual([]);
    expect(runAioson(["hooks:uninstall", "--tol=claude"], { home }).stderr).toContain("Did you mean `--tool`?");
    expect(runAioson(["init", project, "--no-hook"], { home }).stderr).toContain("Did you mean `--no-hooks`?");
    expect(existsSync(join(project, ".aioson", "runtime"))).toBe(false);
    const several = runAioson(["live:status", project, "--agnet=dev", "--frob", "-x"], { home });
    expect(several.stderr).toStartWith("Error: Unknown options for live:status: --agnet (did you mean `--agent`?), --frob, -x.\n");
    const none = runAioson(["runtime:init", project, "--force"], { home });
    expect(none.stderr).toBe("Error: Unknown option --force for runtime:init.\nIts options: --json; `aioson runtime:init --help` says what each does.\n");
  });

  test("declared options keep every spelling they had: kebab, camel case, --no-<switch>, short aliases, --flag value", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    for (const args of [["--dryRun"], ["--dry-run"], ["-d"], ["--no-guard", "--dry-run"], ["--tool", "claude", "--dry-run"], ["--dry-run", "--json"], ["-d", "-j"]]) {
      const run = runAioson(["hooks:install", project, "--tool=claude", ...args], { home });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
    }
    const watch = runAioson(["session:guard", project, "--idleMinutes=5", "--once", "--json"], { home });
    expect(watch.code).toBe(0);
  });

  test("hook-facing commands ignore an option they do not know: a harness's line never turns into an error", () => {
    const project = tempProject();
    for (const command of ["hooks:emit", "hooks:recap", "context:guard", "guard:pre-commit-guard", "guard:stop-guards"]) {
      const run = runAioson([command, project, "--frob=1", "--dryrun", "-x"], { stdin: "{}" });
      expect({ command, code: run.code, stderr: run.stderr }).toEqual({ command, code: 0, stderr: "" });
    }
  });
});

