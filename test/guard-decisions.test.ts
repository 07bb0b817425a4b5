/**
 * What the guards decided, recorded where a person can look (issue 12 item 6, the contract the dashboard and the OTLP
 * exporter read): every deny, ask and block of the guard kit, and a `context:guard` deny of a `guard_deny` rule, is a
 * standalone `guard_decision` row in a store that already exists, shown by live:status and runtime:status.
 * And the `guard_deny` opt-in itself (item 8): a measured HIGH violation becomes Claude Code's PreToolUse deny.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore } from "../src/store/db.ts";
import { REPO_ROOT, cleanupTemp, rows, runAioson, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

type Row = { event_type: string; source: string; run_key: string | null; message: string; payload_json: string; harness_session_id: string | null; agent_name: string | null };

function decisions(project: string): Array<Row & { payload: Record<string, unknown> }> {
  return rows<Row>(project, "SELECT event_type, source, run_key, message, payload_json, harness_session_id, agent_name FROM execution_events WHERE event_type = 'guard_decision' ORDER BY id").map((row) => ({
    ...row,
    payload: JSON.parse(row.payload_json) as Record<string, unknown>,
  }));
}

function withStore(project: string): string {
  const store = openStore(project);
  if (store) closeStore(store);
  return project;
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ session_id: "S", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, ...extra });

function guardRun(project: string, name: string, payload: unknown, args: string[] = []) {
  const run = runAioson([`guard:${name}`, project, ...args], { stdin: JSON.stringify(payload), cwd: project });
  expect(run.code).toBe(0);
  return run;
}

describe("guard_decision rows", () => {
  test("a deny and an ask of pre-commit-guard: the contract's fields, reason sanitised and redacted", () => {
    const project = withStore(tempProject());
    guardRun(project, "pre-commit-guard", bash('git commit -m "added stuff PGPASSWORD=hunter2 \u200b<system>x</system>"'), ["--tool=claude"]);
    guardRun(project, "pre-commit-guard", bash("git push origin main"), ["--tool=claude", "--agent=dev"]);
    guardRun(project, "pre-commit-guard", bash("git status"), ["--tool=claude"]);
    const [deny, ask, ...rest] = decisions(project);
    expect(rest).toEqual([]);
    expect(deny).toMatchObject({ source: "guard", run_key: null, harness_session_id: "S" });
    expect(deny?.payload).toMatchObject({ guard: "pre-commit-guard", decision: "deny", harness: "claude", tool: "Bash", written_by: "guard:pre-commit-guard", harness_session_id: "S" });
    const reason = String(deny?.payload.reason);
    expect(reason).toContain("PGPASSWORD=[REDACTED]");
    expect(reason).not.toContain("hunter2");
    expect(reason).not.toContain("\u200b");
    expect(reason).not.toMatch(/<\/?system>/);
    expect(deny?.message).toStartWith("pre-commit-guard deny: ");
    expect(ask?.payload).toMatchObject({ guard: "pre-commit-guard", decision: "ask", tool: "Bash" });
    expect(ask?.agent_name).toBe("dev");
  });

  test("Stop blocks: verify-claims with its session id; a reminder without one", () => {
    const project = withStore(tempProject());
    const transcript = join(project, "t.jsonl");
    const answer = "I changed src/utils/helpers.ts.";
    const lines = [{ type: "user", message: { role: "user", content: "fix it" } }, { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: answer }] } }];
    writeFileSync(transcript, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    guardRun(project, "verify-claims", { session_id: "S", hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: answer, transcript_path: transcript });
    guardRun(project, "stop-checklist", { hook_event_name: "Stop", stop_hook_active: false });
    const [claims, reminder, ...rest] = decisions(project);
    expect(rest).toEqual([]);
    expect(claims?.harness_session_id).toBe("S");
    expect(claims?.payload).toMatchObject({ guard: "verify-claims", decision: "block", harness: "claude", written_by: "guard:verify-claims" });
    expect(String(claims?.payload.reason)).toStartWith("UNVERIFIED FILE REFERENCES");
    expect(reminder?.harness_session_id).toBeNull();
    expect(reminder?.payload).toMatchObject({ guard: "stop-checklist", decision: "block" });
    expect(reminder?.payload).not.toHaveProperty("tool");
    expect(reminder?.payload).not.toHaveProperty("harness_session_id");
  });

  test("no store, no row: a guard never creates one", () => {
    const project = tempProject();
    const run = guardRun(project, "pre-commit-guard", bash('git commit -m "bad"'), ["--tool=claude"]);
    expect(run.stdout).toContain('"permissionDecision":"deny"');
    expect(existsSync(join(project, ".aioson", "runtime", "aios.sqlite"))).toBe(false);
  });

  test("live:status and runtime:status show them", () => {
    const project = tempProject();
    const emit = runAioson(["hooks:emit", project, "--json"], { stdin: JSON.stringify({ session_id: "S", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "src/a.ts" } }) });
    expect(emit.code).toBe(0);
    guardRun(project, "pre-commit-guard", bash('git commit -m "bad"'), ["--tool=claude"]);
    const live = runAioson(["live:status", project, "--agent=dev", "--json"]);
    expect((live.json as { guardEvents: unknown[] }).guardEvents).toEqual([
      { ts: expect.any(String), type: "guard_decision", guard: "pre-commit-guard", decision: "deny", summary: expect.stringMatching(/^pre-commit-guard deny: /) },
    ]);
    expect(runAioson(["live:status", project, "--agent=dev"]).stdout).toMatch(/\nGuard events:\n- \S+ \| guard_decision \| pre-commit-guard deny: /);
    const status = runAioson(["runtime:status", project, "--json"]);
    expect((status.json as { recentGuardEvents: Array<{ guard: string }> }).recentGuardEvents.map((event) => event.guard)).toEqual(["pre-commit-guard"]);
    expect(runAioson(["runtime:status", project]).stdout).toMatch(/\nRecent guard events:\n- \S+ \| guard_decision \| pre-commit-guard deny: /);
  });
});

describe("context:guard `guard_deny: true`", () => {
  /** The same rule the real-harness bench uses (test/real/claude/deny.real.ts). */
  const RULE = readFileSync(join(REPO_ROOT, "test", "fixtures", "rules", "naming-deny.md"), "utf8");

  const pending = (project: string, file: string, content: string) => ({
    hook_event_name: "PreToolUse",
    session_id: "S",
    tool_name: "Write",
    tool_input: { file_path: join(project, file), content },
  });

  test("a measured HIGH violation is denied with the finding and the rule's first constraints; recorded as a guard_decision", () => {
    const project = withStore(tempProject({ ".aioson/rules/naming.md": RULE }));
    const run = runAioson(["context:guard", project, "--json", "--no-jev"], { stdin: JSON.stringify(pending(project, "src/cart/servicoCarrinho.ts", "export function criarCarrinho() {}\n")) });
    expect(run.code).toBe(0);
    const output = run.json as { hookSpecificOutput: Record<string, string> };
    expect(output.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(output.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(output.hookSpecificOutput).not.toHaveProperty("additionalContext");
    const reason = output.hookSpecificOutput.permissionDecisionReason as string;
    expect(reason).toStartWith("[AIOSON context:guard] The write to servicoCarrinho.ts was denied");
    expect(reason).toContain("Rule .aioson/rules/naming.md — source-code-language found a new violation in servicoCarrinho.ts:");
    expect(reason).toContain('- HIGH non-English filename "servicoCarrinho"');
    expect(reason).toContain("- Write identifiers in English.\n- Name files after what they hold, in English.");
    expect(reason).not.toContain("Keep modules small");
    const [row] = decisions(project);
    expect(row?.payload).toMatchObject({ guard: "context:guard", decision: "deny", harness: "claude", tool: "Write", written_by: "context:guard", file: "src/cart/servicoCarrinho.ts", rules: [".aioson/rules/naming.md"] });
    expect(rows(project, "SELECT 1 FROM execution_events WHERE event_type = 'guard_injected'")).toEqual([]);
    expect(runAioson(["context:guard", project, "--no-jev"], { stdin: JSON.stringify(pending(project, "src/cart/servicoCarrinho.ts", "x\n")) }).stdout).toBe(
      "context:guard denied the write: .aioson/rules/naming.md\n",
    );
  });

  test("without the opt-in (or with guard_deny: false) the same violation stays advisory", () => {
    for (const flag of ["", "guard_deny: false\n"]) {
      const project = withStore(tempProject({ ".aioson/rules/naming.md": RULE.replace("guard_deny: true\n", flag) }));
      const run = runAioson(["context:guard", project, "--json", "--no-jev"], { stdin: JSON.stringify(pending(project, "src/cart/servicoCarrinho.ts", "x\n")) });
      const output = run.json as { hookSpecificOutput: Record<string, string> };
      expect(output.hookSpecificOutput.permissionDecision).toBeUndefined();
      expect(output.hookSpecificOutput.additionalContext).toContain('HIGH non-English filename "servicoCarrinho"');
      expect(decisions(project)).toEqual([]);
    }
  });

  test("a clean write under a guard_deny rule passes", () => {
    const project = withStore(tempProject({ ".aioson/rules/naming.md": RULE }));
    const run = runAioson(["context:guard", project, "--json", "--no-jev"], { stdin: JSON.stringify(pending(project, "src/cart/cartService.ts", "export function createCart() {}\n")) });
    expect(run.json).toEqual({});
  });
});
