/** One decision, each harness's dialect, through the real binary (harness-protocols §1.7, §2.8, §3.3; VS Code hooks reference). */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTemp } from "../helpers.ts";
import { runGuard } from "./helpers.ts";

afterAll(cleanupTemp);

const DENY = 'git commit -m "bad"';
const ASK = "git push";
const ALLOW = 'git commit -m "feat: ok"';

function pre(command: string, extra: Record<string, unknown> = {}) {
  return { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, ...extra };
}

describe("Claude Code dialect", () => {
  test("deny/ask/allow in hookSpecificOutput; Stop blocks at top level", () => {
    for (const [command, permission] of [[DENY, "deny"], [ASK, "ask"], [ALLOW, "allow"]] as const) {
      const run = runGuard("pre-commit-guard", pre(command), { args: ["--tool=claude"] });
      expect(run.output).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: permission, permissionDecisionReason: expect.any(String) } });
    }
    const stop = runGuard("stop-checklist", { hook_event_name: "Stop" }, { args: ["--tool=claude"] });
    expect(Object.keys(stop.output ?? {}).sort()).toEqual(["decision", "reason"]);
  });
});

describe("Codex dialect", () => {
  test("only known keys; allow prints nothing; ask becomes a deny that says to ask the user", () => {
    const deny = runGuard("pre-commit-guard", pre(DENY, { turn_id: "t" }), { args: ["--tool=codex"] });
    expect(deny.output).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: expect.any(String) } });
    const allow = runGuard("pre-commit-guard", pre(ALLOW, { turn_id: "t" }), { args: ["--tool=codex"] });
    expect(allow.stdout).toBe("");
    const ask = runGuard("pre-commit-guard", pre(ASK, { turn_id: "t" }), { args: ["--tool=codex"] });
    const specific = ask.output?.hookSpecificOutput as Record<string, unknown>;
    expect(specific.permissionDecision).toBe("deny");
    expect(String(specific.permissionDecisionReason)).toContain("ask the user");
  });

  test("the payload shape selects Codex without a flag (turn_id, exec_command)", () => {
    const run = runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", tool_name: "exec_command", turn_id: "t", tool_input: { cmd: ASK } });
    expect((run.output?.hookSpecificOutput as Record<string, unknown>).permissionDecision).toBe("deny");
  });
});

describe("GitHub Copilot (VS Code) dialect", () => {
  test("run_in_terminal payloads; ask is kept; Stop carries the nested form", () => {
    const payload = (command: string) => ({ timestamp: "2026-02-09T10:30:00.000Z", cwd: "/w", sessionId: "s", hookEventName: "PreToolUse", tool_name: "run_in_terminal", tool_input: { command, explanation: "x", isBackground: false }, tool_use_id: "t" });
    const ask = runGuard("pre-commit-guard", payload(ASK));
    expect(ask.output).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: expect.any(String) } });
    const other = runGuard("pre-commit-guard", { ...payload(ASK), tool_name: "read_file", tool_input: { filePath: "/w/a.ts" } });
    expect(other.stdout).toBe("");
    const stop = runGuard("output-format", { timestamp: "t", sessionId: "s", hookEventName: "Stop", stop_hook_active: false });
    expect(stop.output?.hookSpecificOutput).toEqual({ hookEventName: "Stop", decision: "block", reason: expect.any(String) });
  });
});

describe("OpenCode dialect (plugin shim reply)", () => {
  test("deny and ask become {block, reason}; allow is silent", () => {
    expect(runGuard("pre-commit-guard", pre(DENY), { args: ["--tool=opencode"] }).output).toEqual({ block: true, reason: expect.any(String) });
    expect(runGuard("pre-commit-guard", pre(ASK), { args: ["--source=opencode"] }).output).toEqual({ block: true, reason: expect.any(String) });
    expect(runGuard("pre-commit-guard", pre(ALLOW), { args: ["--tool=opencode"] }).stdout).toBe("");
  });
});

describe("Gemini CLI dialect", () => {
  const before = (command: string) => ({ hook_event_name: "BeforeTool", session_id: "s", cwd: "/tmp", tool_name: "run_shell_command", tool_input: { command, description: "git" } });

  test("BeforeTool denies and asks with a top-level decision; allow prints nothing; its payloads select it without a flag", () => {
    expect(runGuard("pre-commit-guard", before(DENY), { args: ["--tool=gemini"] }).output).toEqual({ decision: "deny", reason: expect.any(String) });
    expect(runGuard("pre-commit-guard", before(ASK)).output).toEqual({ decision: "ask", reason: expect.any(String) });
    expect(runGuard("pre-commit-guard", before(ALLOW), { args: ["--tool=gemini"] }).stdout).toBe("");
  });

  test("AfterAgent blocks with a deny (its reason becomes the next prompt), and not again once stop_hook_active", () => {
    const stop = runGuard("stop-checklist", { hook_event_name: "AfterAgent", prompt: "x", prompt_response: "done", stop_hook_active: false });
    expect(stop.output).toEqual({ decision: "deny", reason: expect.any(String) });
    expect(runGuard("stop-checklist", { hook_event_name: "AfterAgent", prompt_response: "done", stop_hook_active: true }).stdout).toBe("");
  });
});
