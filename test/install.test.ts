import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

const FIXTURES = join(import.meta.dir, "fixtures", "install");
const golden = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const read = (path: string) => readFileSync(path, "utf8");
type Json = Record<string, any>;
const parse = (path: string): Json => JSON.parse(read(path));

/** A temp HOME plus the env overrides of spec 9.3, all pointing inside it. */
function machine() {
  const home = tempDir("aioson-home-");
  const env = {
    CLAUDE_CONFIG_DIR: join(home, "claude"),
    CODEX_HOME: join(home, "codex"),
    XDG_CONFIG_HOME: join(home, "xdg"),
  };
  const run = (args: string[], cwd = home) => runAioson(args, { home, env, cwd });
  return { home, env, run, claude: join(home, "claude", "settings.json"), codex: join(home, "codex", "hooks.json"), plugin: join(home, "xdg", "opencode", "plugins", "aioson.js"), agGlobal: join(home, ".gemini", "antigravity", "hooks.json") };
}

function commands(config: Json): string[] {
  const found: string[] = [];
  for (const entries of Object.values(config.hooks ?? {}) as any[]) {
    for (const entry of entries) {
      if (Array.isArray(entry.hooks)) for (const h of entry.hooks) found.push(h.command);
      else found.push(entry.command);
    }
  }
  return found;
}

describe("hooks:install golden files", () => {
  test("every harness's generated config matches its golden file", () => {
    const m = machine();
    const project = tempProject();
    const run = m.run(["hooks:install", project, "--tool=claude,codex,antigravity,opencode"], project);
    expect(run.code).toBe(0);
    expect(read(m.claude)).toBe(golden("claude-settings.json"));
    expect(read(m.codex)).toBe(golden("codex-hooks.json"));
    expect(read(m.agGlobal)).toBe(golden("antigravity-hooks.json"));
    expect(read(join(project, ".agents", "hooks.json"))).toBe(golden("antigravity-hooks.json"));
    expect(read(m.plugin)).toBe(golden("opencode-aioson.js"));
    expect(run.stdout).toContain("  ✓ Antigravity workspace — .agents/hooks.json");
    expect(run.stdout).toContain("⚠ Codex runs a new or changed hook only after you trust it");
    expect(run.stdout).toContain("⚠ OpenCode loads plugins at startup: restart it to pick the plugin up.");
    expect(run.stdout).toContain("• End of each turn → logged as agent:done (claude, antigravity)");
    expect(run.stdout).toContain("• End of a session → logged as session_ended, the hooks session is closed (claude, codex, antigravity)");
  });

  test("Claude entries follow spec 9.5 (case 87)", () => {
    const m = machine();
    expect(m.run(["hooks:install", "--tool=claude"]).code).toBe(0);
    const hooks = parse(m.claude).hooks;
    expect(Object.keys(hooks)).toEqual(["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "PreCompact", "SessionStart", "SessionEnd"]);
    const guard = hooks.PreToolUse[0].hooks[0].command;
    expect(hooks.PreToolUse[0].matcher).toBe("Write|Edit|MultiEdit|NotebookEdit");
    for (const part of ["--agent='auto'", "--tool=claude", "--json", "2>/dev/null || true"]) expect(guard).toContain(part);
    // Claude Code 2.1.3xx plans through TaskCreate/TaskUpdate (real-harnesses §1); `Task` also catches `Agent`.
    expect(hooks.PostToolUse.map((g: Json) => g.matcher)).toEqual(["Write|Edit|MultiEdit", "Bash", "Task|TodoWrite|TaskCreate|TaskUpdate|Skill"]);
    expect(hooks.PostToolUse[0].hooks[0].command).toContain("--agent='dev' --source='claude'");
    expect(hooks.Stop[0].hooks[0].command).toContain("--then=agent:done");
    expect(hooks.Stop[0].matcher).toBeUndefined();
    expect(hooks.SessionStart[0]).toEqual({ matcher: "compact", hooks: [{ type: "command", timeout: 30, command: expect.stringContaining("hooks:recap") }] });
    // The hooks session closes at Claude Code's SessionEnd, as on Codex and Antigravity.
    expect(hooks.SessionEnd).toEqual([{ hooks: [{ type: "command", timeout: 3, command: `aioson hooks:emit "$PWD" --agent='dev' --source='claude' --event=SessionEnd 2>/dev/null || true` }] }]);
  });
});

describe("hooks:install agents", () => {
  test("--agent=qa fixes both agents and a reinstall without --agent keeps them (88, 89)", () => {
    const m = machine();
    m.run(["hooks:install", "--tool=claude", "--agent=@QA"]);
    m.run(["hooks:install", "--tool=claude"]);
    const all = commands(parse(m.claude));
    expect(all.filter((c) => c.includes("--agent='qa'")).length).toBe(all.length);
  });

  test("shell-control agent names are rejected before anything is written (97)", () => {
    const m = machine();
    for (const bad of ["dev; echo X", "dev && echo X", "dev$(echo X)", "dev name", "dev\nname", 'dev"name', "dev'name", "`dev`"]) {
      const run = m.run(["hooks:install", "--tool=claude", `--agent=${bad}`, "--json"]);
      expect(run.code).toBe(1);
      expect(run.json).toMatchObject({ ok: false, reason: "invalid_agent_name" });
      expect(run.stdout + run.stderr).not.toContain("--agent=dev; echo");
    }
    expect(existsSync(m.claude)).toBe(false);
  });

  test("agent normalisation: /dev, @pair, custom ids (98)", () => {
    for (const [input, id] of [["/dev", "dev"], ["@pair", "deyvin"], ["custom-agent-2", "custom-agent-2"]]) {
      const m = machine();
      const run = m.run(["hooks:install", "--tool=claude", `--agent=${input}`, "--json"]);
      expect(run.json).toMatchObject({ agentName: id, guardAgent: id });
    }
  });
});

describe("hooks:install merge and write rules", () => {
  test("--no-guard removes a previously installed guard (90)", () => {
    const m = machine();
    m.run(["hooks:install", "--tool=claude"]);
    m.run(["hooks:install", "--tool=claude", "--no-guard"]);
    const hooks = parse(m.claude).hooks;
    expect(hooks.PreToolUse).toBeUndefined();
    expect(hooks.PostToolUse.length).toBe(3);
    expect(hooks.Stop.length).toBe(1);
  });

  test("user handlers sharing our group stay; ours are appended once (91)", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"), { recursive: true });
    const ours = { type: "command", command: "aioson hooks:emit \"$PWD\" --agent='dev' --source='claude' 2>/dev/null || true" };
    const user = { matcher: "Bash", hooks: [{ type: "command", command: "npx aioson hooks:emit . --source=claude" }] };
    writeFileSync(m.claude, JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Write", hooks: [ours, { type: "command", command: "npm run lint" }] }, user] } }, null, 2));
    for (let i = 0; i < 3; i++) m.run(["hooks:install", "--tool=claude"]);
    const post = parse(m.claude).hooks.PostToolUse;
    expect(post[0]).toEqual({ matcher: "Write", hooks: [{ type: "command", command: "npm run lint" }] });
    expect(post[1]).toEqual(user);
    expect(post.length).toBe(5);
  });

  test("an unparsable settings file is left byte-identical with a warning (92)", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"), { recursive: true });
    writeFileSync(m.claude, '{"model":"opus",}');
    const run = m.run(["hooks:install", "--tool=claude,codex", "--json"]);
    expect(read(m.claude)).toBe('{"model":"opus",}');
    expect(run.json).toMatchObject({ ok: true, results: [{ tool: "claude", skipped: "invalid-config" }, { tool: "codex", changed: true }] });
    expect(run.code).toBe(1);
    const human = m.run(["hooks:install", "--tool=claude"]);
    expect(human.stdout).toContain("exists but is not valid JSON; leaving it untouched. Fix the file and re-run: aioson hooks:install");
  });

  test("a symlinked settings file stays a link, the target gets the hooks and keeps its mode (94)", () => {
    const m = machine();
    const dotfiles = join(m.home, "dotfiles");
    mkdirSync(dotfiles);
    mkdirSync(join(m.home, "claude"));
    writeFileSync(join(dotfiles, "settings.json"), '{\n  "model": "opus"\n}\n');
    chmodSync(join(dotfiles, "settings.json"), 0o600);
    symlinkSync(join(dotfiles, "settings.json"), m.claude);
    m.run(["hooks:install", "--tool=claude"]);
    expect(lstatSync(m.claude).isSymbolicLink()).toBe(true);
    expect(parse(join(dotfiles, "settings.json")).hooks.Stop).toBeDefined();
    expect(statSync(join(dotfiles, "settings.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dotfiles)).toEqual(["settings.json"]);
  });

  test("an identical reinstall does not touch the file and prints no trust line (95)", () => {
    const m = machine();
    const first = m.run(["hooks:install", "--tool=codex"]);
    expect(first.stdout).toContain("Codex runs a new or changed hook");
    const before = statSync(m.codex);
    const bytes = read(m.codex);
    Bun.sleepSync(20);
    const second = m.run(["hooks:install", "--tool=codex"]);
    const after = statSync(m.codex);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(read(m.codex)).toBe(bytes);
    expect(second.stdout).not.toContain("Codex runs a new or changed hook");
    expect(second.stdout).toContain("Nothing to do");
  });

  test("an unreadable settings file is left alone with its error code (96)", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"));
    writeFileSync(m.claude, "{}");
    chmodSync(m.claude, 0);
    const run = m.run(["hooks:install", "--tool=claude,codex", "--json"]);
    expect(run.json).toMatchObject({ ok: true, results: [{ tool: "claude", skipped: "unreadable" }, { tool: "codex", changed: true }] });
    expect(m.run(["hooks:install", "--tool=claude"]).stdout).toContain("could not be read right now (EACCES); leaving it untouched. Re-run later: aioson hooks:install");
    expect(statSync(m.claude).mode & 0o777).toBe(0);
    chmodSync(m.claude, 0o644);
    expect(read(m.claude)).toBe("{}");
  });

  test("a directory where the settings file should be is reported, not replaced", () => {
    const m = machine();
    mkdirSync(m.claude, { recursive: true });
    const run = m.run(["hooks:install", "--tool=claude", "--json"]);
    expect(run.json).toMatchObject({ results: [{ tool: "claude", skipped: "unreadable" }] });
    expect(statSync(m.claude).isDirectory()).toBe(true);
  });

  test("a write that fails is reported as ✗ <tool>, other tools go on, the dangling dotfiles link stays a link", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"));
    symlinkSync(join(m.home, "dotfiles-not-cloned", "settings.json"), m.claude);
    const run = m.run(["hooks:install", "--tool=claude,codex", "--json"]);
    expect(run.json).toMatchObject({ ok: true, results: [{ tool: "claude", changed: false, error: expect.stringContaining("ENOENT") }, { tool: "codex", changed: true }] });
    expect(run.code).toBe(1);
    expect(lstatSync(m.claude).isSymbolicLink()).toBe(true);
    expect(existsSync(join(m.home, "dotfiles-not-cloned"))).toBe(false);
    expect(readdirSync(join(m.home, "claude"))).toEqual(["settings.json"]);
    expect(m.run(["hooks:install", "--tool=claude"]).stdout).toContain("  ✗ claude: ");
  });

  test("a read-only settings file is replaced atomically and keeps its read-only mode", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"));
    writeFileSync(m.claude, "{}\n");
    chmodSync(m.claude, 0o444);
    const run = m.run(["hooks:install", "--tool=claude", "--json"]);
    expect(run.json).toMatchObject({ ok: true, results: [{ tool: "claude", changed: true }] });
    expect(statSync(m.claude).mode & 0o777).toBe(0o444);
    expect(parse(m.claude).hooks.Stop).toBeDefined();
    expect(readdirSync(join(m.home, "claude"))).toEqual(["settings.json"]);
  });

  test("Codex entries follow spec 9.6 as corrected by the real Codex 0.169 (99)", () => {
    const m = machine();
    m.run(["hooks:install", "--tool=codex"]);
    const hooks = parse(m.codex).hooks;
    for (const [event, entries] of Object.entries(hooks) as [string, Json[]][]) {
      const handler = entries[0]!.hooks[0];
      // Synchronous everywhere (real-harnesses §2: `codex exec` kills async hooks still running at exit).
      expect(handler.async).toBeUndefined();
      // PowerShell hands the rest to cmd.exe, named by its absolute path (a repository's cmd.bat is never looked up);
      // `type nul` is the no-op that Codex's cmd.exe fallback runs in a cmd.exe of its own, so the one switch serves
      // the cmd.exe that names aioson either way (issue 23: it was written twice).
      expect(handler.commandWindows).toStartWith("C:\\Windows\\System32\\cmd.exe --% /d /c type nul& set NoDefaultCurrentDirectoryInExePath=1& aioson ");
      expect(handler.commandWindows).toEndWith("2>nul & exit /b 0");
      expect(handler.commandWindows).not.toContain('"');
      expect(handler.commandWindows.split("NoDefaultCurrentDirectoryInExePath").length).toBe(2);
      expect(event).toBeString();
    }
    expect(hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
    expect(hooks.SessionStart[0].hooks[0].statusMessage).toBe("AIOSON: restoring the session checkpoint");
  });

  test("Antigravity: legacy live:start removed, a user handler in our group kept (100)", () => {
    const m = machine();
    const project = tempProject({
      ".agents/hooks.json": JSON.stringify({
        hooks: {
          SessionStart: [{ type: "command", command: "aioson live:start \"$PWD\" --agent=dev" }],
          PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "aioson hooks:emit \"$PWD\" --agent='dev'" }, { type: "command", command: "my-own-tool log" }] }],
        },
      }),
    });
    m.run(["hooks:install", ".", "--tool=antigravity"], project);
    const hooks = parse(join(project, ".agents", "hooks.json")).hooks;
    expect(hooks.SessionStart).toBeUndefined();
    expect(hooks.PostToolUse[0]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "my-own-tool log" }] });
    expect(hooks.Stop).toEqual([{ type: "command", timeout: 15, command: expect.stringContaining("--then=agent:done") }]);
  });
});

describe("hooks:uninstall", () => {
  test("install then uninstall gives back the original bytes, user hooks intact", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"));
    mkdirSync(join(m.home, "codex"));
    const claudeOriginal = '{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]\r\n\t}\r\n}';
    const codexOriginal = '{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"log-it"}]}]},"x":[1,2]}\n';
    writeFileSync(m.claude, claudeOriginal);
    writeFileSync(m.codex, codexOriginal);
    m.run(["hooks:install", "--tool=claude,codex"]);
    expect(parse(m.claude).hooks.Stop.length).toBe(2);
    m.run(["hooks:uninstall", "--tool=claude,codex"]);
    expect(read(m.claude)).toBe(claudeOriginal);
    expect(read(m.codex)).toBe(codexOriginal);
  });

  test("a file created by install is removed by uninstall; the workspace folder too", () => {
    const m = machine();
    const project = tempProject();
    m.run(["hooks:install", ".", "--tool=claude,antigravity,opencode"], project);
    const run = m.run(["hooks:uninstall", ".", "--tool=all"], project);
    expect(run.code).toBe(0);
    expect(existsSync(m.claude)).toBe(false);
    expect(existsSync(m.agGlobal)).toBe(false);
    expect(existsSync(join(project, ".agents"))).toBe(false);
    expect(existsSync(m.plugin)).toBe(false);
    expect(run.stdout).toContain("✓ OpenCode plugin removed");
    expect(run.stdout).toContain("Codex hooks not found — nothing to remove");
    expect(m.run(["hooks:uninstall", ".", "--tool=antigravity"], project).stdout).toContain("  Antigravity workspace not found — nothing to remove");
  });

  test("scrub keeps only foreign handlers (101)", () => {
    const m = machine();
    mkdirSync(join(m.home, "claude"));
    writeFileSync(m.claude, JSON.stringify({
      hooks: {
        PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "aioson hooks:emit . --agent=dev" }] }, { matcher: "Write", hooks: [{ type: "command", command: "my-own-tool log" }] }],
        SessionStart: [{ type: "command", command: "aioson live:start \"$PWD\"" }],
      },
    }));
    const run = m.run(["hooks:uninstall", "--json"]);
    expect(run.json).toMatchObject({ ok: true, results: [{ tool: "claude", removed: true }] });
    expect(parse(m.claude)).toEqual({ hooks: { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "my-own-tool log" }] }] } });
  });

  test("tool lists, unknown tools and dry-run (102, 103)", () => {
    const m = machine();
    const both = m.run(["hooks:uninstall", "--tool=antigravity,codex", "--dry-run", "--json"]);
    expect(both.json).toMatchObject({ ok: true });
    expect((both.json as Json).results.map((r: Json) => r.tool)).toEqual(["antigravity", "antigravity", "codex"]);
    const unknown = m.run(["hooks:uninstall", "--tool=sublime"]);
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toContain("Unknown tool: sublime");
    expect(m.run(["hooks:uninstall", "--tool=sublime", "--json"]).json).toMatchObject({ ok: true, results: [{ tool: "sublime", removed: false, reason: "unsupported" }] });
  });
});

describe("Codex Windows lines of earlier versions", () => {
  test("the switch written twice (before issue 23) is ours: reinstall replaces each line once, uninstall removes them", () => {
    const m = machine();
    mkdirSync(join(m.home, "codex"));
    const old = "C:\\Windows\\System32\\cmd.exe --% /d /c set NoDefaultCurrentDirectoryInExePath=1& set NoDefaultCurrentDirectoryInExePath=1& aioson hooks:emit . --agent=dev --source=codex 2>nul & exit /b 0";
    const user = { type: "command", command: "log-it" };
    const handler = { type: "command", command: "aioson hooks:emit \"$PWD\" --agent='dev' --source='codex' 2>/dev/null || true", commandWindows: old };
    writeFileSync(m.codex, JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [handler, user] }] } }));
    m.run(["hooks:install", "--tool=codex"]);
    const lines = Object.values(parse(m.codex).hooks as Record<string, Json[]>).flatMap((groups) => groups.flatMap((g) => g.hooks as Json[]));
    expect(lines.filter((h) => h.commandWindows === old)).toEqual([]);
    expect(lines.filter((h) => h.command === "log-it")).toHaveLength(1);
    const windows = lines.flatMap((h) => (typeof h.commandWindows === "string" ? [h.commandWindows as string] : []));
    expect(windows.length).toBeGreaterThan(3);
    for (const line of windows) expect(line.split("NoDefaultCurrentDirectoryInExePath").length).toBe(2);
    m.run(["hooks:uninstall", "--tool=codex"]);
    expect(JSON.stringify(parse(m.codex))).not.toContain("aioson");
  });
});

describe("Codex legacy wrapper", () => {
  test("install turns the old wrapper into a pass-through and warns; uninstall deletes it", () => {
    const m = machine();
    mkdirSync(join(m.home, "codex"));
    const wrapper = join(m.home, "codex", "aioson-wrapper.sh");
    writeFileSync(wrapper, "#!/bin/sh\naioson live:start . && exec codex \"$@\"\n");
    chmodSync(wrapper, 0o755);
    const install = m.run(["hooks:install", "--tool=codex"]);
    expect(install.stdout).toContain(`  ⚠ ${wrapper} is obsolete — it now only forwards to codex; remove the alias from your shell rc and delete the file.`);
    expect(read(wrapper)).toContain("exec codex");
    expect(read(wrapper)).not.toContain("live:start");
    expect(statSync(wrapper).mode & 0o777).toBe(0o755);
    m.run(["hooks:uninstall", "--tool=codex"]);
    expect(existsSync(wrapper)).toBe(false);
  });
});

describe("OpenCode plugin file and detection", () => {
  test("a foreign aioson.js is never overwritten or removed (104)", () => {
    const m = machine();
    mkdirSync(join(m.home, "xdg", "opencode", "plugins"), { recursive: true });
    writeFileSync(m.plugin, "export const Mine = async () => ({});\n");
    const install = m.run(["hooks:install", "--tool=opencode"]);
    expect(install.stdout).toContain("was not written by AIOSON; leaving it untouched.");
    m.run(["hooks:uninstall", "--tool=opencode"]);
    expect(read(m.plugin)).toBe("export const Mine = async () => ({});\n");
  });

  test("--tool=all detects only present tools; none present is an error (105)", () => {
    const m = machine();
    mkdirSync(join(m.home, "codex"));
    const run = m.run(["hooks:install"]);
    expect(run.stdout).toContain("Detected tools: codex");
    expect(run.stdout).toContain("• After a compaction");
    expect(run.stdout).not.toContain("agent:done (");
    const none = machine();
    const empty = none.run(["hooks:install", "--json"]);
    expect(empty.code).toBe(1);
    expect(empty.json).toMatchObject({ ok: false, reason: "no_tools_detected" });
  });

  test("--dry-run creates no file and no directory (106)", () => {
    const m = machine();
    const project = tempProject();
    const run = m.run(["hooks:install", ".", "--tool=claude,codex,antigravity,opencode", "--dry-run"], project);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[dry-run] Would write: ");
    expect(run.stdout).toContain("    PreToolUse (Write|Edit|MultiEdit|NotebookEdit) → context:guard");
    expect(run.stdout).toContain("    PostToolUse (Write|Edit|MultiEdit|Bash|Task|TodoWrite|TaskCreate|TaskUpdate|Skill), PostToolUseFailure (Bash), UserPromptSubmit, PreCompact → hooks:emit");
    expect(run.stdout).toContain("    SessionEnd → hooks:emit --event=SessionEnd");
    expect(readdirSync(m.home)).toEqual([]);
    expect(readdirSync(project)).toEqual([".aioson"]);
  });
});
