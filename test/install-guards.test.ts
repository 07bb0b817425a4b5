/**
 * `hooks:install --with=<guards>` and the GitHub Copilot (VS Code) target, through the real binary: golden files,
 * install → reinstall → uninstall byte-exactness with user hooks around ours, detection, dry-run, errors, and the
 * installed command strings really running the guards.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, REPO_ROOT, runAioson, tempDir, tempProject, testEnv } from "./helpers.ts";

afterAll(cleanupTemp);

const FIXTURES = join(import.meta.dir, "fixtures", "install");
const golden = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const read = (path: string) => readFileSync(path, "utf8");
type Json = Record<string, any>;
const parse = (path: string): Json => JSON.parse(read(path));

function machine() {
  const home = tempDir("aioson-home-");
  const env = { CLAUDE_CONFIG_DIR: join(home, "claude"), CODEX_HOME: join(home, "codex"), XDG_CONFIG_HOME: join(home, "xdg") };
  const run = (args: string[], cwd = home, extra: Record<string, string> = {}) => runAioson(args, { home, env: { ...env, ...extra }, cwd });
  return { home, env, run, claude: join(home, "claude", "settings.json"), codex: join(home, "codex", "hooks.json"), plugin: join(home, "xdg", "opencode", "plugins", "aioson.js") };
}

const copilotFile = (project: string) => join(project, ".github", "hooks", "aioson.json");

/** Every handler command of a Claude/Codex (grouped) or Copilot (flat) hooks tree, per event. */
function commands(config: Json, event?: string): string[] {
  const found: string[] = [];
  for (const [name, entries] of Object.entries(config.hooks ?? {}) as [string, any[]][]) {
    if (event && name !== event) continue;
    for (const entry of entries) {
      if (Array.isArray(entry.hooks)) for (const h of entry.hooks) found.push(h.command);
      else found.push(entry.command);
    }
  }
  return found;
}

/** A PATH folder whose `aioson` is the binary under test (the installed command strings call `aioson`). */
function pathWithAioson(): string {
  const dir = tempDir("aioson-path-");
  symlinkSync(BINARY, join(dir, "aioson"));
  return `${dir}:/usr/bin:/bin`;
}

/** Runs an installed command string the way the harness does (`sh -c`, cwd = the project), payload on stdin. */
function runInstalled(command: string, project: string, payload: unknown, extra: Record<string, string> = {}) {
  const result = Bun.spawnSync(["/bin/sh", "-c", command], {
    cwd: project,
    env: testEnv(tempDir("aioson-home-"), { PATH: pathWithAioson(), PWD: project, ...extra }),
    stdin: new TextEncoder().encode(JSON.stringify(payload)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = result.stdout.toString().trim();
  return { code: result.exitCode, out, json: out ? (JSON.parse(out) as Json) : null };
}

describe("hooks:install --with golden files", () => {
  test("--with=all: Claude, Codex, Copilot and the OpenCode plugin match their golden files", () => {
    const m = machine();
    const project = tempProject();
    const run = m.run(["hooks:install", project, "--tool=claude,codex,opencode,copilot", "--with=all"], project);
    expect(run.code).toBe(0);
    expect(read(m.claude)).toBe(golden("claude-settings-with-all.json"));
    expect(read(m.codex)).toBe(golden("codex-hooks-with-all.json"));
    expect(read(m.plugin)).toBe(golden("opencode-aioson-with-all.js"));
    expect(read(copilotFile(project))).toBe(golden("copilot-hooks-with-all.json"));
    expect(run.stdout).toContain("  ✓ GitHub Copilot (VS Code, Copilot CLI) — .github/hooks/aioson.json");
    expect(run.stdout).toContain("    + guards: pre-commit-guard, verify-claims, context-confidence-check, stop-checklist, output-format, skill-feedback, subagent-audit, lesson-injector, session-context, context-save");
    expect(run.stdout).toContain("  • Guards (opencode) → pre-commit-guard, lesson-injector, context-save");
    expect(run.stdout).toContain("  ⚠ OpenCode — no plugin hook for: verify-claims");
    expect(run.stdout).toContain("  • End of each turn → logged as agent:done (claude, copilot)");
  });

  test("Copilot without guards: flat telemetry handlers plus the Write|Edit context:guard group, each with VS Code's cmd.exe `windows` and Copilot CLI's `powershell` form", () => {
    const m = machine();
    const project = tempProject();
    const run = m.run(["hooks:install", "--tool=copilot", "--json"], project);
    expect(run.code).toBe(0);
    expect(read(copilotFile(project))).toBe(golden("copilot-hooks.json"));
    expect((run.json as Json).results).toEqual([{ tool: "copilot", configPath: copilotFile(project), changed: true }]);
    const hooks = parse(copilotFile(project)).hooks;
    expect(Object.keys(hooks)).toEqual(["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"]);
    expect(hooks.PreToolUse).toEqual([{ matcher: "Write|Edit", hooks: [expect.objectContaining({ command: expect.stringContaining("context:guard \"$PWD\" --tool=copilot") })] }]);
    for (const [event, entries] of Object.entries(hooks) as [string, Json[]][]) {
      for (const h of event === "PreToolUse" ? (entries[0]?.hooks as Json[]) : entries) {
        if (event !== "PreToolUse") expect(h.hooks).toBeUndefined();
        expect(h.windows).toEndWith(" 2>nul & exit /b 0");
        expect(h.powershell).toEndWith(" 2>$null; exit 0");
        if (event !== "PreToolUse") expect(h.command).toContain("--source='copilot'");
      }
    }
    expect(hooks.Stop[0].command).toContain("--then=agent:done");
    expect(hooks.SessionEnd[0].command).toContain("--event=SessionEnd");
    expect(parse(copilotFile(project)).hooks).toEqual(hooks);
    const bare = m.run(["hooks:install", "--tool=copilot", "--no-guard"], tempProject());
    expect(bare.code).toBe(0);
  });

  test("guards land on each harness's event with its matcher", () => {
    const m = machine();
    expect(m.run(["hooks:install", "--tool=claude,codex", "--with=pre-commit-guard,session-context,subagent-audit"]).code).toBe(0);
    for (const [file, tool] of [[m.claude, "claude"], [m.codex, "codex"]] as const) {
      const hooks = parse(file).hooks;
      const pre = hooks.PreToolUse.find((g: Json) => g.hooks[0].command.includes("guard:pre-commit-guard"));
      expect(pre.matcher).toBe(tool === "claude" ? "Bash|PowerShell" : "Bash|shell|exec_command|local_shell");
      expect(pre.hooks[0].timeout).toBe(10);
      expect(pre.hooks[0].command).toBe(`aioson guard:pre-commit-guard "$PWD" --tool=${tool} 2>/dev/null || true`);
      const start = hooks.SessionStart.find((g: Json) => g.hooks[0].command.includes("guard:session-context"));
      expect(start.matcher).toBe("startup|resume|clear");
      const audit = hooks.SubagentStart[0].hooks[0];
      expect(audit.command).not.toContain("2>/dev/null");
      expect(audit.async).toBeUndefined();
    }
    expect(parse(m.codex).hooks.PreToolUse[0].hooks[0].commandWindows).toBe("C:\\Windows\\System32\\cmd.exe --% /d /c type nul& set NoDefaultCurrentDirectoryInExePath=1& aioson guard:pre-commit-guard . --tool=codex 2>nul & exit /b 0");
    expect(parse(m.claude).hooks.PreToolUse[1].hooks[0].commandWindows).toBeUndefined();
  });
});

describe("hooks:install --with lifecycle", () => {
  const USER_CLAUDE = `{
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./scripts/no-rm.sh" } ] }
        ],
        "Stop": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ]
    }
}
`;
  const USER_CODEX = `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"npx aioson guard:pre-commit-guard"}]}]}}`;

  test("install → reinstall (guards kept, nothing written) → --with=none → uninstall gives back the user's bytes", () => {
    const m = machine();
    const project = tempProject();
    mkdirSync(join(m.home, "claude"), { recursive: true });
    mkdirSync(join(m.home, "codex"), { recursive: true });
    writeFileSync(m.claude, USER_CLAUDE);
    writeFileSync(m.codex, USER_CODEX);
    const tools = "--tool=claude,codex,copilot,opencode";
    expect(m.run(["hooks:install", tools, "--with=pre-commit-guard,verify-claims,lesson-injector"], project).code).toBe(0);
    const after = [read(m.claude), read(m.codex), read(copilotFile(project)), read(m.plugin)];
    expect(commands(parse(m.claude), "PreToolUse")).toEqual(["./scripts/no-rm.sh", expect.stringContaining("context:guard"), expect.stringContaining("guard:pre-commit-guard")]);
    expect(commands(parse(m.codex), "PreToolUse")[0]).toBe("npx aioson guard:pre-commit-guard");

    const again = m.run(["hooks:install", tools], project);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Nothing to do: the AIOSON hooks are already installed and up to date.");
    expect([read(m.claude), read(m.codex), read(copilotFile(project)), read(m.plugin)]).toEqual(after);

    const same = m.run(["hooks:install", tools, "--with=lesson-injector,verify-claims,guard:pre-commit-guard"], project);
    expect(same.stdout).toContain("Nothing to do");

    expect(m.run(["hooks:install", tools, "--with=none"], project).code).toBe(0);
    for (const file of [m.claude, m.codex, copilotFile(project)]) expect(read(file)).not.toContain(`"aioson guard:`);
    expect(read(m.plugin)).not.toContain("GUARDS");
    expect(commands(parse(m.codex), "PreToolUse")).toEqual(["npx aioson guard:pre-commit-guard"]);

    expect(m.run(["hooks:install", tools, "--with=verify-claims"], project).code).toBe(0);
    expect(commands(parse(m.claude), "Stop").filter((c) => c.includes("guard:"))).toEqual([expect.stringContaining("guard:verify-claims")]);

    const removed = m.run(["hooks:uninstall", tools], project);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("  ✓ GitHub Copilot (VS Code, Copilot CLI) hooks removed — .github/hooks/aioson.json");
    expect(read(m.claude)).toBe(USER_CLAUDE);
    expect(read(m.codex)).toBe(USER_CODEX);
    expect(existsSync(m.plugin)).toBe(false);
    expect(existsSync(join(project, ".github"))).toBe(false);
  });

  test("Copilot: a user's handler in our file and the user's other hook files stay", () => {
    const m = machine();
    const project = tempProject({ ".github/workflows/ci.yml": "on: push\n", ".github/hooks/format.json": `{"hooks":{"PostToolUse":[{"type":"command","command":"npx prettier --write ."}]}}\n` });
    const detected = m.run(["hooks:install"], project);
    expect(detected.stdout).toContain("Detected tools: copilot");
    const file = copilotFile(project);
    const ours = parse(file);
    ours.hooks.Stop.unshift({ type: "command", command: "./scripts/report.sh" });
    writeFileSync(file, `${JSON.stringify(ours, null, 2)}\n`);
    expect(m.run(["hooks:install", "--tool=copilot", "--with=stop-checklist"], project).code).toBe(0);
    expect(commands(parse(file), "Stop")).toEqual(["./scripts/report.sh", expect.stringContaining("hooks:emit"), expect.stringContaining("guard:stop-guards \"$PWD\" --tool=copilot --guards=stop-checklist")]);
    const removed = m.run(["hooks:uninstall", "--tool=all"], project);
    expect(removed.code).toBe(0);
    expect(parse(file)).toEqual({ hooks: { Stop: [{ type: "command", command: "./scripts/report.sh" }] } });
    expect(read(join(project, ".github", "hooks", "format.json"))).toContain("prettier");
    expect(read(join(project, ".github", "workflows", "ci.yml"))).toBe("on: push\n");
  });

  test("Copilot: a pre-existing aioson.json of the user's comes back byte-for-byte after install and uninstall", () => {
    const m = machine();
    const mine = `{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{ "type": "command", "command": "./scripts/guard.sh", "timeout": 5 }\n\t\t]\n\t},\n\t"note": "team hooks"\n}\n`;
    const project = tempProject({ ".github/hooks/aioson.json": mine });
    expect(m.run(["hooks:install", "--tool=copilot", "--with=pre-commit-guard"], project).code).toBe(0);
    const file = copilotFile(project);
    expect(commands(parse(file), "PreToolUse")).toEqual(["./scripts/guard.sh", expect.stringContaining("context:guard"), expect.stringContaining("guard:pre-commit-guard")]);
    expect(read(file)).toContain(`\t\t\t{ "type": "command", "command": "./scripts/guard.sh", "timeout": 5 },\n`);
    const dry = m.run(["hooks:uninstall", "--tool=copilot", "--dry-run"], project);
    expect(dry.stdout).toContain("  [dry-run] Would remove AIOSON hooks from: .github/hooks/aioson.json");
    expect(m.run(["hooks:uninstall", "--tool=copilot"], project).code).toBe(0);
    expect(read(file)).toBe(mine);
    expect(m.run(["hooks:uninstall", "--tool=copilot"], project).stdout).toContain("  GitHub Copilot (VS Code, Copilot CLI) — no AIOSON hooks in .github/hooks/aioson.json");
  });

  test("--tool=all takes Copilot only when the workspace has .github/hooks; uninstall all leaves .github alone without our file", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"), { recursive: true });
    const project = tempProject({ ".github/workflows/ci.yml": "on: push\n" });
    const run = m.run(["hooks:install", "--with=verify-claims"], project);
    expect(run.stdout).toContain("Detected tools: claude\n");
    expect(existsSync(join(project, ".github", "hooks"))).toBe(false);
    const removed = m.run(["hooks:uninstall", "--tool=all", "--json"], project);
    expect(((removed.json as Json).results as Json[]).map((r) => r.tool)).toEqual(["claude", "antigravity", "antigravity", "codex", "opencode"]);
    expect(read(join(project, ".github", "workflows", "ci.yml"))).toBe("on: push\n");
  });

  test("unknown guard names: a clear error listing the known ones, nothing written", () => {
    const m = machine();
    const project = tempProject();
    const run = m.run(["hooks:install", "--tool=claude,copilot", "--with=pre-commit-guard,no-such-guard"], project);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Invalid --with: unknown guard: no-such-guard — known: pre-commit-guard, verify-claims, context-confidence-check, stop-checklist, output-format, skill-feedback, subagent-audit, lesson-injector, session-context, context-save (or all, none)");
    expect(existsSync(m.claude)).toBe(false);
    expect(existsSync(join(project, ".github"))).toBe(false);
    const json = m.run(["hooks:install", "--tool=claude", "--with=", "--json"], project);
    expect(json.code).toBe(1);
    expect(json.json).toMatchObject({ ok: false, reason: "unknown_guard" });
  });

  test("--dry-run lists the guards per harness and touches nothing", () => {
    const m = machine();
    const project = tempProject();
    const run = m.run(["hooks:install", "--tool=claude,copilot,opencode", "--with=pre-commit-guard,verify-claims", "--dry-run"], project);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("    PreToolUse (Bash|PowerShell) → guard:pre-commit-guard");
    expect(run.stdout).toContain("    Stop → guard:verify-claims");
    expect(run.stdout).toContain("  [dry-run] Would write: .github/hooks/aioson.json");
    expect(run.stdout).toContain("    PreToolUse → guard:pre-commit-guard");
    expect(run.stdout).toContain("    guards: pre-commit-guard");
    expect(existsSync(m.claude)).toBe(false);
    expect(existsSync(join(project, ".github"))).toBe(false);
    expect(existsSync(m.plugin)).toBe(false);
  });
});

describe("installed guard handlers run the guards", () => {
  const commit = (tool: string, command: string) => (tool === "copilot"
    ? { timestamp: "2026-01-01T00:00:00.000Z", hook_event_name: "PreToolUse", session_id: "s1", tool_name: "run_in_terminal", tool_input: { command, explanation: "commit", isBackground: false }, tool_use_id: "t1" }
    : { hook_event_name: "PreToolUse", session_id: "s1", tool_name: "Bash", tool_input: { command } });

  for (const tool of ["claude", "codex", "copilot"]) {
    test(`${tool}: the installed pre-commit-guard command denies a bad commit and lets a good one through`, () => {
      const m = machine();
      const project = tempProject();
      expect(m.run(["hooks:install", `--tool=${tool}`, "--with=pre-commit-guard"], project).code).toBe(0);
      const file = tool === "claude" ? m.claude : tool === "codex" ? m.codex : copilotFile(project);
      const command = commands(parse(file), "PreToolUse").find((c) => c.includes("guard:pre-commit-guard"))!;
      const bad = runInstalled(command, project, commit(tool, `git commit -m "added stuff"`));
      expect(bad.code).toBe(0);
      expect(bad.json?.hookSpecificOutput?.permissionDecision).toBe("deny");
      const good = runInstalled(command, project, commit(tool, `git commit -m "feat: add cart"`));
      expect(good.code).toBe(0);
      expect(good.json?.hookSpecificOutput?.permissionDecision ?? null).toBe(tool === "codex" ? null : "allow");
      if (tool === "copilot") {
        const other = runInstalled(command, project, { ...commit(tool, ""), tool_name: "create_file", tool_input: { filePath: "a.ts", content: "x" } });
        expect(other.out).toBe("");
      }
    });
  }

  test("a missing binary never fails the hook (exit 0, no output)", () => {
    const m = machine();
    const project = tempProject();
    expect(m.run(["hooks:install", "--tool=copilot", "--with=verify-claims"], project).code).toBe(0);
    const command = commands(parse(copilotFile(project)), "Stop").find((c) => c.includes("guard:"))!;
    const result = Bun.spawnSync(["/bin/sh", "-c", command], { cwd: project, env: { PATH: "/nonexistent", PWD: project }, stdin: new TextEncoder().encode("{}"), stdout: "pipe", stderr: "pipe" });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe("");
  });
});

describe("guards scoped to agents (kit.json `agents`)", () => {
  const kit = JSON.stringify({ "stop-checklist": { agents: ["qa"] } });
  const stop = { hook_event_name: "Stop", session_id: "s1", stop_hook_active: false };
  const blocks = (run: { json: Json | null }) => run.json?.decision === "block";

  test("the agent comes from the installed --agent, else AIOSON_AGENT", () => {
    const m = machine();
    const project = tempProject({ ".aioson/hooks/kit.json": kit });
    expect(m.run(["hooks:install", "--tool=claude", "--with=stop-checklist"], project).code).toBe(0);
    const unscoped = commands(parse(m.claude), "Stop").find((c) => c.includes("guard:stop-checklist"))!;
    expect(unscoped).not.toContain("--agent");
    expect(blocks(runInstalled(unscoped, project, stop))).toBe(false);
    expect(blocks(runInstalled(unscoped, project, stop, { AIOSON_AGENT: "dev" }))).toBe(false);
    expect(blocks(runInstalled(unscoped, project, stop, { AIOSON_AGENT: "qa" }))).toBe(true);
    expect(blocks(runInstalled(unscoped, project, { ...stop, agent_type: "qa" }, { AIOSON_AGENT: "dev" }))).toBe(true);

    expect(m.run(["hooks:install", "--tool=claude", "--with=stop-checklist", "--agent=qa"], project).code).toBe(0);
    const fixed = commands(parse(m.claude), "Stop").find((c) => c.includes("guard:stop-checklist"))!;
    expect(fixed).toContain("--agent='qa'");
    expect(blocks(runInstalled(fixed, project, stop))).toBe(true);
    expect(blocks(runInstalled(fixed, project, stop, { AIOSON_AGENT: "dev" }))).toBe(true);
  });
});

describe("hooks:doctor with guards and Copilot", () => {
  /** PATH `aioson`: hooks:emit records a row (independent of the hooks:emit implementation); guards are the real binary. */
  function doctorPath(): string {
    const dir = tempDir("aioson-doctor-bin-");
    writeFileSync(join(dir, "aioson"), `#!/bin/sh
case "$1" in
  --version|guard:*) exec "${BINARY}" "$@";;
  hooks:emit) cat >/dev/null; exec "${process.execPath}" "${join(REPO_ROOT, "test", "fixtures", "doctor-insert.ts")}" "$2";;
  *) cat >/dev/null; echo '{}';;
esac
`);
    Bun.spawnSync(["chmod", "755", join(dir, "aioson")]);
    return `${dir}:/usr/bin:/bin`;
  }

  test("guard handlers are probed like the others and a healthy install reports no problem", () => {
    const m = machine();
    const project = tempProject();
    expect(m.run(["hooks:install", "--tool=claude,copilot,opencode", "--with=all"], project).code).toBe(0);
    const run = m.run(["hooks:doctor", project, "--tool=claude,copilot,opencode", "--json"], project, { PATH: doctorPath() });
    const json = run.json as Json;
    // Only Copilot CLI's folder-trust note, which is no problem.
    expect(json.issues.map((i: Json) => [i.code, i.severity])).toEqual([["copilot_cli_trust", "info"]]);
    expect(run.code).toBe(0);
    const claude = json.harnesses.find((h: Json) => h.tool === "claude");
    expect(claude.handlers.filter((h: Json) => h.command.includes("guard:")).length).toBe(10);
    expect(claude.handlers.every((h: Json) => h.ok)).toBe(true);
    const copilot = json.harnesses.find((h: Json) => h.tool === "copilot");
    expect(copilot.path).toBe(copilotFile(project));
    // 7 core handlers (context:guard and six hooks:emit) + 6 guard handlers (the five Stop guards share one).
    expect(copilot.handlers.length).toBe(7 + 6);
    expect(copilot.handlers.every((h: Json) => h.ok)).toBe(true);
    expect(copilot.handlers.filter((h: Json) => h.landed === true).length).toBe(6);
  });

  test("without --tool, the workspace's Copilot file is checked when it exists; drift there is reported", () => {
    const m = machine();
    const project = tempProject();
    expect(m.run(["hooks:install", "--tool=copilot"], project).code).toBe(0);
    const file = copilotFile(project);
    const config = parse(file);
    delete config.hooks.PreCompact;
    writeFileSync(file, JSON.stringify(config));
    const run = m.run(["hooks:doctor", project, "--json"], project, { PATH: doctorPath() });
    const json = run.json as Json;
    expect(json.harnesses.map((h: Json) => h.tool)).toContain("copilot");
    expect(json.issues.map((i: Json) => `${i.tool}:${i.code}`)).toEqual(["copilot:stale_handlers", "copilot:copilot_cli_trust"]);
  });
});
