/**
 * `hooks:install --tool=gemini` and its handlers, run the way Gemini CLI 0.61.0 runs them: `bash -c <command>` in the
 * payload's cwd with the handler's `env` merged in (src/install/commands.ts `geminiCommand`).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, runAioson, tempDir, tempProject, testEnv } from "./helpers.ts";

afterAll(cleanupTemp);

type Handler = { type: string; name?: string; timeout?: number; command: string; env?: Record<string, string> };
type Group = { matcher?: string; hooks: Handler[] };

const USER_SETTINGS = '{\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "hooks": {\n    "BeforeTool": [{ "matcher": "run_shell_command", "hooks": [{ "type": "command", "command": "./my-check.sh" }] }]\n  }\n}\n';

function home(files: Record<string, string> = {}): string {
  const dir = tempDir("aioson-home-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function settings(homeDir: string): { hooks: Record<string, Group[]> } & Record<string, unknown> {
  return JSON.parse(readFileSync(join(homeDir, ".gemini", "settings.json"), "utf8"));
}

/** A folder holding `aioson` → the built binary: the PATH of a machine where aioson is installed. */
function binFolder(): string {
  const bin = tempDir("aioson-bin-");
  symlinkSync(BINARY, join(bin, "aioson"));
  return bin;
}

/** Runs one installed handler as Gemini CLI does on Unix. */
function runLikeGemini(handler: Handler, project: string, homeDir: string, payload: unknown, path: string) {
  const result = Bun.spawnSync(["bash", "-c", handler.command], {
    cwd: project,
    env: { ...testEnv(homeDir), PATH: path, GEMINI_PROJECT_DIR: project, GEMINI_CWD: project, ...(handler.env ?? {}) },
    stdin: new TextEncoder().encode(JSON.stringify(payload)),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

describe("hooks:install --tool=gemini", () => {
  test("writes named, millisecond-timed groups into ~/.gemini/settings.json next to the user's, and uninstall gives the bytes back", () => {
    const homeDir = home({ ".gemini/settings.json": USER_SETTINGS });
    const project = tempProject();
    const install = runAioson(["hooks:install", project, "--tool=gemini", "--json"], { home: homeDir, cwd: project });
    expect(install.code).toBe(0);
    expect(install.json).toMatchObject({ ok: true, results: [{ tool: "gemini", changed: true }] });
    const written = settings(homeDir);
    expect(written.security).toEqual({ auth: { selectedType: "gemini-api-key" } });
    expect(written.hooks.BeforeTool?.[0]?.hooks[0]?.command).toBe("./my-check.sh");
    const ours = Object.entries(written.hooks).flatMap(([event, groups]) => groups.flatMap((group) => group.hooks.filter((h) => h.command.startsWith("aioson ")).map((h) => ({ event, matcher: group.matcher, ...h }))));
    expect(ours.map((h) => [h.event, h.matcher, h.name, h.timeout])).toEqual([
      ["AfterTool", "write_file|replace|run_shell_command|write_todos|invoke_agent|activate_skill", "aioson-emit", 10_000],
      ["AfterTool", "write_file|replace", "aioson-context-guard", 15_000],
      ["BeforeAgent", undefined, "aioson-emit", 10_000],
      ["AfterAgent", undefined, "aioson-turn-end", 15_000],
      ["BeforeModel", undefined, "aioson-compaction", 10_000],
      ["SessionEnd", undefined, "aioson-session-end", 3_000],
    ]);
    for (const handler of ours) {
      expect(handler.env).toEqual({ null: "/dev/null", NoDefaultCurrentDirectoryInExePath: "1" });
      expect(handler.command).toEndWith(" 2>$null; exit 0");
    }
    expect(written.hooks.PreCompress).toBeUndefined();
    // A second install changes nothing; uninstall restores the user's bytes.
    expect(runAioson(["hooks:install", project, "--tool=gemini", "--json"], { home: homeDir, cwd: project }).json).toMatchObject({ results: [{ tool: "gemini", changed: false }] });
    expect(runAioson(["hooks:uninstall", project, "--tool=gemini"], { home: homeDir, cwd: project }).code).toBe(0);
    expect(readFileSync(join(homeDir, ".gemini", "settings.json"), "utf8")).toBe(USER_SETTINGS);
  });

  test("GEMINI_CLI_HOME moves the settings like it moves Gemini's own folder", () => {
    const homeDir = home();
    const elsewhere = tempDir("aioson-gemini-home-");
    const project = tempProject();
    expect(runAioson(["hooks:install", project, "--tool=gemini"], { home: homeDir, cwd: project, env: { GEMINI_CLI_HOME: elsewhere } }).code).toBe(0);
    expect(settings(elsewhere).hooks.AfterAgent).toBeDefined();
  });

  test("--with adds the guards Gemini has events for, as named handlers with millisecond timeouts", () => {
    const homeDir = home({ ".gemini/settings.json": "{}\n" });
    const project = tempProject();
    const run = runAioson(["hooks:install", project, "--tool=gemini", "--with=pre-commit-guard,stop-checklist,subagent-audit,context-save"], { home: homeDir, cwd: project });
    expect(run.stdout).toContain("no hook for: subagent-audit, context-save");
    const hooks = settings(homeDir).hooks;
    expect(hooks.BeforeTool?.[0]).toEqual({ matcher: "run_shell_command", hooks: [{ type: "command", name: "aioson-guard-pre-commit-guard", timeout: 10_000, command: "aioson guard:pre-commit-guard . --tool=gemini 2>$null; exit 0", env: { null: "/dev/null", NoDefaultCurrentDirectoryInExePath: "1" } }] });
    expect(hooks.AfterAgent?.map((group) => group.hooks[0]?.name)).toEqual(["aioson-turn-end", "aioson-guard-stop-checklist"]);
    expect(hooks.AfterAgent?.[1]?.hooks[0]?.timeout).toBe(30_000);
  });
});

describe("Gemini's handlers run as Gemini runs them", () => {
  const session = "a17c06fc-750b-4721-9134-dba08ee3bb4c";

  test("they record through bash -c, exit 0 and keep stderr empty even when aioson is missing or crashes", () => {
    const homeDir = home({ ".gemini/settings.json": "{}\n" });
    const project = tempProject();
    runAioson(["hooks:install", project, "--tool=gemini"], { home: homeDir, cwd: project });
    const hooks = settings(homeDir).hooks;
    const emitHandler = hooks.AfterTool?.[0]?.hooks[0] as Handler;
    const payload = { session_id: session, cwd: project, hook_event_name: "AfterTool", tool_name: "write_file", tool_input: { file_path: "a.txt", content: "a" }, tool_response: { llmContent: "ok" } };

    const withAioson = runLikeGemini(emitHandler, project, homeDir, payload, `${binFolder()}:/usr/bin:/bin`);
    expect(withAioson).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(rows<{ message: string }>(project, "SELECT message FROM execution_events WHERE event_type = 'artifact'")).toEqual([{ message: "Write: a.txt" }]);

    const missing = runLikeGemini(emitHandler, project, homeDir, payload, "/usr/bin:/bin");
    expect(missing).toEqual({ code: 0, stdout: "", stderr: "" });

    const crashing = tempDir("aioson-bin-");
    writeFileSync(join(crashing, "aioson"), "#!/bin/sh\necho 'panic: something broke' >&2\nexit 3\n");
    chmodSync(join(crashing, "aioson"), 0o755);
    for (const handler of Object.values(hooks).flatMap((groups) => groups.flatMap((group) => group.hooks))) {
      expect(runLikeGemini(handler, project, homeDir, payload, `${crashing}:/usr/bin:/bin`)).toEqual({ code: 0, stdout: "", stderr: "" });
    }
  });

  test("context:guard answers on AfterTool with the rule, in Gemini's shape, judged against the text before the write", () => {
    const homeDir = home({ ".gemini/settings.json": "{}\n" });
    const project = tempProject({ ".aioson/rules/naming.md": "---\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English (no <pt-BR> names).\n" });
    runAioson(["hooks:install", project, "--tool=gemini"], { home: homeDir, cwd: project });
    const guardHandler = settings(homeDir).hooks.AfterTool?.[1]?.hooks[0] as Handler;
    const content = "export function salvarPedido() {}\n";
    mkdirSync(join(project, "src"));
    writeFileSync(join(project, "src", "a.js"), content);
    const written = (originalContent: string, isNewFile: boolean) => ({
      session_id: session, cwd: project, hook_event_name: "AfterTool", tool_name: "write_file",
      tool_input: { file_path: join(project, "src", "a.js"), content },
      tool_response: { llmContent: "ok", returnDisplay: { originalContent, newContent: content, isNewFile } },
    });
    const fresh = runLikeGemini(guardHandler, project, homeDir, written("", true), `${binFolder()}:/usr/bin:/bin`);
    expect(fresh.code).toBe(0);
    expect(/^[\x20-\x7e\n]*$/.test(fresh.stdout)).toBe(true);
    const answer = JSON.parse(fresh.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe("AfterTool");
    expect(answer.hookSpecificOutput.additionalContext).toContain("salvarPedido");
    expect(answer.hookSpecificOutput.additionalContext).toContain("\u2039pt-BR\u203a");
    expect(answer.hookSpecificOutput.additionalContext).not.toMatch(/[<>]/);
    // The same name was already there before the write: nothing new to say (the disk already holds the new text).
    expect(JSON.parse(runLikeGemini(guardHandler, project, homeDir, written(content, false), `${binFolder()}:/usr/bin:/bin`).stdout)).toEqual({});
  });
});

describe("Gemini CLI detection and hooks:doctor", () => {
  test("--tool=all wires Gemini CLI when one of its own files is there, not for Antigravity's folder alone", () => {
    const project = tempProject();
    const antigravityOnly = home({ ".gemini/antigravity/hooks.json": "{}\n" });
    expect(runAioson(["hooks:install", project, "--tool=all", "--dry-run"], { home: antigravityOnly, cwd: project }).stdout).toContain("Detected tools: antigravity\n");
    for (const marker of ["settings.json", "oauth_creds.json", "projects.json"]) {
      const homeDir = home({ [`.gemini/${marker}`]: "{}\n", ".gemini/antigravity/hooks.json": "{}\n" });
      expect(runAioson(["hooks:install", project, "--tool=all", "--dry-run"], { home: homeDir, cwd: project }).stdout).toContain("Detected tools: antigravity, gemini\n");
    }
  });

  test("every installed handler passes, and folder trust and hooksConfig are reported", () => {
    const homeDir = home({ ".gemini/settings.json": "{}\n" });
    const project = tempProject();
    runAioson(["hooks:install", project, "--tool=gemini", "--with=pre-commit-guard"], { home: homeDir, cwd: project });
    const path = `${binFolder()}:/usr/bin:/bin`;
    const doctor = (env: Record<string, string | undefined>) => runAioson(["hooks:doctor", project, "--tool=gemini", "--json"], { home: homeDir, cwd: project, env: { PATH: path, ...env } }).json as {
      harnesses: Array<{ tool: string; handlers: Array<{ event: string; ok: boolean }> }>;
      issues: Array<{ code: string; severity: string }>;
    };
    const untrusted = doctor({});
    expect(untrusted.harnesses[0]?.handlers.map((h) => [h.event, h.ok])).toEqual([
      ["AfterTool", true], ["AfterTool", true], ["BeforeAgent", true], ["AfterAgent", true], ["BeforeModel", true], ["BeforeTool", true], ["SessionEnd", true],
    ]);
    expect(untrusted.issues.filter((i) => i.code.startsWith("gemini_"))).toEqual([expect.objectContaining({ code: "gemini_untrusted", severity: "warning" })]);
    expect(doctor({ GEMINI_CLI_TRUST_WORKSPACE: "true" }).issues.map((i) => i.code)).toContain("gemini_trusted");
    writeFileSync(join(homeDir, ".gemini", "trustedFolders.json"), JSON.stringify({ [project]: "DO_NOT_TRUST" }));
    expect(doctor({}).issues).toContainEqual(expect.objectContaining({ code: "gemini_untrusted", severity: "error" }));
    writeFileSync(join(homeDir, ".gemini", "trustedFolders.json"), JSON.stringify({ [join(project, "..", "x")]: "TRUST_PARENT" }));
    expect(doctor({}).issues.map((i) => i.code)).toContain("gemini_trusted");
    const current = JSON.parse(readFileSync(join(homeDir, ".gemini", "settings.json"), "utf8"));
    writeFileSync(join(homeDir, ".gemini", "settings.json"), JSON.stringify({ ...current, hooksConfig: { enabled: false, disabled: ["aioson-emit"] } }));
    expect(doctor({}).issues.filter((i) => i.code === "gemini_hooks_disabled")).toHaveLength(2);
  });
});

describe("--tool=all on a machine with every harness", () => {
  test("wires all six: Claude Code, Antigravity, Codex, OpenCode, Gemini CLI and the workspace's Copilot file", () => {
    const homeDir = home({
      ".claude/settings.json": "{}\n",
      ".gemini/antigravity/hooks.json": "{}\n",
      ".codex/config.toml": "",
      ".config/opencode/opencode.json": "{}\n",
      ".gemini/settings.json": "{}\n",
    });
    const project = tempProject({ ".github/hooks/team.json": '{"hooks":{}}\n' });
    const run = runAioson(["hooks:install", project, "--tool=all", "--json"], { home: homeDir, cwd: project, env: { CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined, XDG_CONFIG_HOME: undefined, GEMINI_CLI_HOME: undefined } });
    expect(run.code).toBe(0);
    const results = (run.json as { results: Array<{ tool: string; changed: boolean }> }).results;
    expect(results.map((r) => [r.tool, r.changed])).toEqual([["claude", true], ["antigravity", true], ["codex", true], ["opencode", true], ["gemini", true], ["copilot", true]]);
    expect(settings(homeDir).hooks.BeforeModel).toBeDefined();
    expect(readFileSync(join(project, ".github", "hooks", "aioson.json"), "utf8")).toContain("--source='copilot'");
    const removed = runAioson(["hooks:uninstall", project, "--tool=all", "--json"], { home: homeDir, cwd: project }).json as { results: Array<{ tool: string; removed: boolean }> };
    expect(removed.results.filter((r) => r.removed).map((r) => r.tool)).toEqual(["claude", "antigravity", "antigravity", "codex", "opencode", "gemini", "copilot"]);
    // Nothing but aioson's hooks was left in it: removed, as spec 9.9 does for every harness's file.
    expect(existsSync(join(homeDir, ".gemini", "settings.json"))).toBe(false);
  });
});
