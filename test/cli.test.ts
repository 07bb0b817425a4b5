import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, onTerminal, runAioson, tempDir, tempProject } from "./helpers.ts";

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

  test("every error a person sees says what to run next, on its own line under it; --json keeps spec 0.3's envelope", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const damaged = tempProject();
    mkdirSync(join(damaged, ".aioson", "runtime"));
    writeFileSync(join(damaged, ".aioson", "runtime", "aios.sqlite"), "not a database at all, a hostile repository's file\n");
    const linked = tempProject();
    mkdirSync(join(linked, ".aioson", "runtime"));
    symlinkSync("/etc/hostname", join(linked, ".aioson", "runtime", "aios.sqlite"));
    const cases: [string[], string, string][] = [
      [["runtime:status", damaged], "Error: file is not a database", "move it away, then run `aioson runtime:init` to start a new one."],
      [["runtime:emit", linked, "--agent=dev"], "Error: refused to open ", "Nothing was changed. Look at what is there"],
      [["live:start", project, "--tool=claude", "--tool-bin=/nonexistent/claude"], "Error: Tool binary not found on PATH: /nonexistent/claude", "--no-launch"],
      [["live:start", project, "--tool=claude", "--plan=nope.md", "--no-launch"], "Error: Plan file not found: nope.md", "then from the project root"],
      [["update", home], " is not an AIOSON project (no .aioson/config.md). Create one with: aioson init", ""],
      [["live:status", home], "Run: aioson runtime:init", ""],
    ];
    for (const [args, first, next] of cases) {
      const run = runAioson(args, { home });
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      const [line, hint = ""] = run.stderr.trimEnd().split("\n");
      expect({ args, line: line?.includes(first) }).toEqual({ args, line: true });
      if (next) expect({ args, hint: hint.includes(next) }).toEqual({ args, hint: true });
    }
    const json = runAioson(["runtime:status", damaged, "--json"], { home });
    expect(json.json).toEqual({ ok: false, error: { code: "command_error", message: "file is not a database", command: "runtime:status" } });
    expect(json.stderr).toBe("");
  });

  test("an error the spec words stays that one line when piped; on a terminal the next step is under it", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    const cases: [string[], string, string][] = [
      [["session:guard", "--once"], "Error: not inside an AIOSON project", "aioson init"],
      [["agent:done", project], "Error: --agent is required", "Name the agent: --agent=<id>, e.g. --agent=dev."],
      [["runtime:emit", project], "Error: Required option missing: --agent", "Name the agent: --agent=<id>, e.g. --agent=dev."],
      [["live:start", project], "Error: --tool is required (claude, codex, opencode).", "e.g. aioson live:start . --tool=claude"],
      [["live:start", project, "--tool=vim"], "Error: Unsupported live tool: vim", "Use --tool=claude, --tool=codex, --tool=opencode."],
    ];
    for (const [args, line, next] of cases) {
      const run = runAioson(args, { home, cwd: args[0] === "session:guard" ? home : project });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 1, stderr: `${line}\n` });
      const shown = onTerminal(args, home, { NO_COLOR: "1" });
      expect({ args, shown: shown.startsWith(`${line}\n`) && shown.includes(next) }).toEqual({ args, shown: true });
    }
  });
});
