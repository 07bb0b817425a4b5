/**
 * GitHub Copilot in VS Code through the real binary, with the handlers the real `hooks:install` writes. VS Code
 * runs `.github/hooks/*.json` and also `.claude/settings.json` (matchers ignored), so with Claude and Copilot both
 * installed every Copilot event reaches two hooks:emit handlers: it must be recorded exactly once.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { emit, events, ndjsonLines, payloadOf } from "./helpers.ts";

afterAll(cleanupTemp);

const SESSION = "6c2f9a1e-58d3-4b7e-a0c4-2e91f7d3b865";
const STAMP = "2026-11-20T14:10:07.259Z";

type Handler = { event: string; flags: string[] };

function install(project: string, home: string, tool: string): void {
  const run = runAioson(["hooks:install", ".", `--tool=${tool}`], { cwd: project, home });
  expect(run.code).toBe(0);
}

/** The hooks:emit handlers of a hook file, as VS Code sees them: per event, matchers ignored, flags unquoted. */
function emitHandlers(path: string): Handler[] {
  if (!existsSync(path)) return [];
  const hooks = (JSON.parse(readFileSync(path, "utf8")) as { hooks: Record<string, unknown[]> }).hooks;
  const handlers: Handler[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of groups as Array<{ command?: string; hooks?: Array<{ command?: string }> }>) {
      for (const command of [group.command, ...(group.hooks ?? []).map((hook) => hook.command)]) {
        if (typeof command !== "string" || !command.startsWith("aioson hooks:emit ")) continue;
        const flags = (command.match(/--[a-z]+=(?:'[^']*'|\S+)/g) ?? []).map((flag) => flag.replaceAll("'", ""));
        handlers.push({ event, flags });
      }
    }
  }
  return handlers;
}

/** VS Code's default `chat.hookFilesLocations`: the workspace's `.github/hooks`, `.claude/settings*.json`, and `~/.claude/settings.json`. */
function vscodeHandlers(project: string, home: string): Handler[] {
  return [
    join(project, ".github", "hooks", "aioson.json"),
    join(project, ".claude", "settings.local.json"),
    join(project, ".claude", "settings.json"),
    join(home, ".claude", "settings.json"),
  ].flatMap(emitHandlers);
}

/** What VS Code does for one event: run every handler registered for it, in turn. */
function fire(project: string, handlers: Handler[], payload: Record<string, unknown>) {
  const event = (payload.hook_event_name ?? payload.hookEventName) as string;
  return handlers.filter((handler) => handler.event === event).map((handler) => {
    const run = emit(project, payload, handler.flags);
    expect(run.code).toBe(0);
    return { source: handler.flags.find((flag) => flag.startsWith("--source="))?.slice(9), result: run.result };
  });
}

function common(event: string, transcript: string): Record<string, unknown> {
  return { timestamp: STAMP, hook_event_name: event, session_id: SESSION, transcript_path: transcript, cwd: "" };
}

function copilotSession(project: string, transcript: string): Record<string, unknown>[] {
  const tool = (tool_name: string, tool_input: Record<string, unknown>, tool_response: string) => ({ ...common("PostToolUse", transcript), cwd: project, tool_name, tool_input, tool_use_id: "call_1", tool_response });
  return [
    { ...common("UserPromptSubmit", transcript), cwd: project, prompt: "/aioson:agent:dev fix the rounding" },
    tool("read_file", { filePath: join(project, "src", "total.ts"), startLine: 1, endLine: 40 }, "..."),
    tool("create_file", { filePath: join(project, "src", "rounding.ts"), content: "export {}" }, "created"),
    tool("multi_replace_string_in_file", { replacements: [{ filePath: join(project, "src", "total.ts") }, { filePath: join(project, "src", "format.ts") }] }, "edited"),
    tool("run_in_terminal", { command: "npm test", explanation: "tests", goal: "verify", isBackground: false }, " Test Files  2 passed (2)\n      Tests  9 passed (9)\n"),
    { ...common("PreCompact", transcript), cwd: project, trigger: "auto" },
    { ...common("Stop", transcript), cwd: project, stop_hook_active: false },
  ];
}

function transcriptWith(text: string): string {
  const dir = join(tempDir(), "workspaceStorage", "8f3a", "GitHub.copilot-chat", "transcripts");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${SESSION}.jsonl`);
  writeFileSync(path, `${JSON.stringify({ type: "assistant.message", data: { messageId: "m1", content: text, toolRequests: [] }, id: "e1", timestamp: STAMP, parentId: null })}\n`);
  return path;
}

const EXPECTED_MESSAGES = [
  "Auto-started by hooks:emit (copilot)",
  "Agent activated: @dev",
  "Write: src/rounding.ts",
  "Edit: src/total.ts",
  "Edit: src/format.ts",
  "$ npm test",
  "Compaction (auto)",
  "Rounding fixed; 9 tests pass.",
  "Session ended via dev hook",
];

describe("Copilot and Claude handlers both installed: each Copilot event recorded once", () => {
  test("the installed handlers, run the way VS Code runs them", () => {
    const project = tempProject();
    const home = tempDir();
    install(project, home, "claude");
    install(project, home, "copilot");
    const handlers = vscodeHandlers(project, home);
    // The scenario only means something when both files really route these events to hooks:emit.
    for (const event of ["PostToolUse", "UserPromptSubmit", "Stop", "PreCompact"]) {
      expect(new Set(handlers.filter((handler) => handler.event === event).map((handler) => handler.flags.find((flag) => flag.startsWith("--source="))))).toEqual(new Set(["--source=copilot", "--source=claude"]));
    }
    const runs = copilotSession(project, transcriptWith("Rounding fixed; 9 tests pass.")).flatMap((payload) => fire(project, handlers, payload));
    for (const run of runs.filter((run) => run.source === "claude")) expect(run.result).toEqual({ ok: true, skipped: true, reason: "duplicate-copilot" });

    const rows = events(project);
    expect(rows.map((row) => row.message)).toEqual(EXPECTED_MESSAGES);
    expect(rows.filter((row) => row.event_type === "agent_done")).toHaveLength(1);
    expect(new Set(rows.map((row) => row.harness_session_id))).toEqual(new Set([SESSION]));
    const sessionKey = rows[0]?.session_key as string;
    const lines = ndjsonLines(project, sessionKey);
    expect(lines).toHaveLength(EXPECTED_MESSAGES.length);
    expect(new Set(lines.map((line) => line.source))).toEqual(new Set(["copilot"]));
  });

  test("the older camelCase envelope is recognised as well", () => {
    const project = tempProject();
    const home = tempDir();
    install(project, home, "claude");
    install(project, home, "copilot");
    const payload = { timestamp: STAMP, hookEventName: "PostToolUse", sessionId: SESSION, cwd: project, tool_name: "create_file", tool_input: { filePath: join(project, "a.ts") }, tool_response: "ok" };
    const runs = fire(project, vscodeHandlers(project, home), payload);
    expect(runs.find((run) => run.source === "claude")?.result).toEqual({ ok: true, skipped: true, reason: "duplicate-copilot" });
    expect(runs.find((run) => run.source === "copilot")?.result).toMatchObject({ ok: true, message: "Write: a.ts", harnessSessionId: SESSION });
    expect(events(project).map((row) => row.message)).toEqual(["Auto-started by hooks:emit (copilot)", "Write: a.ts"]);
  });

  test("a real Claude Code event is never taken for a duplicate", () => {
    const project = tempProject();
    const home = tempDir();
    install(project, home, "claude");
    install(project, home, "copilot");
    const claude = { session_id: "cc-1", transcript_path: join(home, ".claude", "projects", "x", "cc-1.jsonl"), cwd: project, permission_mode: "default", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, "b.ts"), content: "x" }, tool_response: { success: true } };
    const run = emit(project, claude, ["--agent=dev", "--source=claude"]);
    expect(run.result).toMatchObject({ ok: true, message: "Write: b.ts", harnessSessionId: "cc-1" });
    expect(ndjsonLines(project, run.result.sessionKey as string).at(-1)?.source).toBe("claude");
  });
});

describe("Copilot events reaching the Claude handlers", () => {
  test("Claude handlers only: each Copilot event would reach three of them, so none records it (install --tool=copilot)", () => {
    const project = tempProject();
    const home = tempDir();
    install(project, home, "claude");
    const handlers = vscodeHandlers(project, home);
    expect(handlers.filter((handler) => handler.event === "PostToolUse").length).toBeGreaterThan(1);
    const runs = copilotSession(project, transcriptWith("x")).flatMap((payload) => fire(project, handlers, payload));
    expect(runs.length).toBeGreaterThan(7);
    for (const run of runs) expect(run.result).toEqual({ ok: true, skipped: true, reason: "duplicate-copilot" });
    expect(existsSync(join(project, ".aioson", "runtime", "aios.sqlite"))).toBe(false);
  });

  test("with --agent and --then on the Claude Stop line: nothing runs, not even agent:done", () => {
    const project = tempProject();
    const run = emit(project, { timestamp: STAMP, hook_event_name: "Stop", session_id: SESSION, stop_hook_active: false }, ["--agent=dev", "--source=claude", "--then=agent:done"]);
    expect(run.result).toEqual({ ok: true, skipped: true, reason: "duplicate-copilot" });
    expect(existsSync(join(project, ".aioson", "runtime"))).toBe(false);
  });

  test("the same payload with --source=copilot is recorded", () => {
    const project = tempProject();
    const payload = { ...common("PostToolUse", transcriptWith("x")), cwd: project, tool_name: "replace_string_in_file", tool_input: { filePath: join(project, "c.ts"), oldString: "a", newString: "b" }, tool_response: "ok" };
    expect(emit(project, payload, ["--agent=dev", "--source=claude"]).result).toEqual({ ok: true, skipped: true, reason: "duplicate-copilot" });
    const run = emit(project, payload, ["--agent=dev", "--source=copilot"]);
    expect(run.result).toMatchObject({ ok: true, message: "Edit: c.ts" });
    expect(payloadOf(events(project).at(-1))).toMatchObject({ tool: "Edit", file: "c.ts" });
  });

  test("no project: skipped before anything is read or routed", () => {
    const outside = tempDir();
    const run = emit(outside, { timestamp: STAMP, hook_event_name: "Stop", session_id: SESSION }, ["--source=claude", "--then=agent:done"]);
    expect(run.result).toEqual({ ok: true, skipped: true, reason: "no-project-root" });
    expect(existsSync(join(outside, ".aioson"))).toBe(false);
  });
});
