/** Spec section 17, hooks:emit cases 9–43, through the real binary. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore, withStoreTransaction } from "../../src/store/db.ts";
import { createSessionRows, publishNewSession } from "../../src/session/sessions.ts";
import { cleanupTemp, rows, runAioson, tempDir, tempProject } from "../helpers.ts";
import { emit, events, hookLog, ndjsonLines, payloadOf, stateOf, storeExists } from "./helpers.ts";

afterAll(cleanupTemp);

const write = (path: string, session = "test-123") => ({ hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: path, content: "x" }, session_id: session });
const bash = (command: string, response: unknown, extra: Record<string, unknown> = {}) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_response: response,
  session_id: "S",
  ...extra,
});
const codexBash = (command: string, output: string) => bash(command, output);

/** Opens a live:start-style session (owner live) directly through the session model. */
function openLiveSession(project: string, agent: string, sessionKey: string): { runKey: string } {
  const store = openStore(project);
  if (!store) throw new Error("no store");
  try {
    const session = withStoreTransaction(store, () =>
      createSessionRows(store.db, { owner: "live", agent, tool: "claude", root: project, sessionKey, title: `live-claude-${agent}`, startedMessage: `Live session started for @${agent} with claude` }),
    );
    publishNewSession(store.db, session, { summary: "started", ndjsonLine: { ts: session.startedAt, type: "session_started", summary: "started" } });
    return { runKey: session.runKey };
  } finally {
    closeStore(store);
  }
}

function bashPayload(project: string, payload: unknown, args: string[] = []): Record<string, unknown> {
  const run = emit(project, payload, args);
  expect(run.code).toBe(0);
  const last = events(project).at(-1);
  expect(last?.event_type).toBe("step_done");
  return payloadOf(last);
}

describe("hooks:emit — project root and skips", () => {
  test("9: fired from a subdirectory writes only under the root", () => {
    const project = tempProject({ "docs/pt/readme.md": "x" });
    const run = emit(project, null, [], { dir: join(project, "docs", "pt") });
    expect(run.code).toBe(0);
    expect(existsSync(join(project, "docs", "pt", ".aioson"))).toBe(false);
    expect(existsSync(join(project, "docs", ".aioson"))).toBe(false);
    emit(project, write("a.ts"), [], { dir: join(project, "docs", "pt") });
    expect(events(project).map((row) => row.message)).toEqual(["Auto-started by hooks:emit (claude)", "Write: a.ts"]);
    expect(existsSync(join(project, "docs", "pt", ".aioson"))).toBe(false);
  });

  test("10: outside any project: reason no-project-root, nothing created", () => {
    const dir = tempDir();
    const run = emit(dir, write("a.ts"));
    expect(run.code).toBe(0);
    expect(run.result).toEqual({ ok: true, skipped: true, reason: "no-project-root" });
    expect(readdirSync(dir)).toEqual([]);
  });

  test("11: `{}` and no stdin skip without creating the store", () => {
    const project = tempProject();
    const run = emit(project, "{}", ["--agent=dev", "--source=claude"]);
    expect(run.code).toBe(0);
    expect(run.result).toEqual({ ok: true, skipped: true });
    const none = emit(project, null);
    expect(none.result).toEqual({ ok: true, skipped: true });
    expect(storeExists(project)).toBe(false);
  });

  test("15: read-only and MCP tools are ignored", () => {
    const project = tempProject();
    for (const tool of ["Read", "Glob", "Grep", "mcp__github__x"]) {
      const run = emit(project, { hook_event_name: "PostToolUse", tool_name: tool, tool_input: { file_path: "a.ts" }, session_id: "S" });
      expect(run.result).toEqual({ ok: true, skipped: true });
    }
    expect(storeExists(project)).toBe(false);
  });
});

describe("hooks:emit — files and sessions", () => {
  test("12/13: first Write auto-starts one hooks session; a second Write joins it", () => {
    const project = tempProject();
    const run = emit(project, { tool_name: "Write", tool_input: { file_path: "src/test.ts" }, session_id: "test-123" });
    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ ok: true, event: "artifact", message: "Write: src/test.ts", harnessSessionId: "test-123", autoStarted: true });
    const tasks = rows<{ task_kind: string; session_key: string; meta_json: string }>(project, "SELECT * FROM tasks");
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.task_kind).toBe("live_session");
    expect(tasks[0]?.session_key).toMatch(/^hooks-dev-\d+$/);
    expect(JSON.parse(tasks[0]?.meta_json ?? "{}")).toMatchObject({ tool_session: "claude", auto_started: true, owner: "hooks" });
    const runs = rows<{ run_key: string; source: string; agent_name: string; status: string }>(project, "SELECT * FROM agent_runs");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ source: "live", agent_name: "@dev", status: "running" });
    const rowsNow = events(project);
    expect(rowsNow.map((row) => [row.event_type, row.message])).toEqual([
      ["session_started", "Auto-started by hooks:emit (claude)"],
      ["artifact", "Write: src/test.ts"],
    ]);
    expect(rowsNow.every((row) => row.harness_session_id === "test-123")).toBe(true);
    expect(payloadOf(rowsNow[1])).toEqual({ tool: "Write", file: "src/test.ts", written_by: "hooks:emit", harness_session_id: "test-123" });
    expect(payloadOf(rowsNow[0])).toMatchObject({ tool_session: "claude", path: project, hooks_version: "1" });
    const status = runAioson(["runtime:status", project, "--json"]).json as { recentEvents: Array<{ event_type: string }> };
    expect(status.recentEvents[0]?.event_type).toBe("artifact");
    const pointer = JSON.parse(readFileSync(join(project, ".aioson", "runtime", ".sessions", "@dev.json"), "utf8"));
    expect(pointer).toMatchObject({ runKey: runs[0]?.run_key, finished: false, owner: "hooks" });

    const second = emit(project, write("src/other.ts"));
    expect(second.result).toMatchObject({ runKey: runs[0]?.run_key, autoStarted: false });
    const after = events(project);
    expect(after).toHaveLength(3);
    expect(after[2]?.sequence_no).toBe(3);
    expect(rows(project, "SELECT * FROM tasks")).toHaveLength(1);
  });

  test("14: absolute paths become project-relative; outside paths are kept", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { file_path: join(project, "src", "cart.ts") }, session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, "cart.ts") }, session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "./lib/x.ts" }, cwd: join(project, "pkg"), session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "/etc/hosts" }, session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "NotebookEdit", tool_input: { notebook_path: join(project, "n.ipynb") }, session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Write", session_id: "S" });
    const messages = events(project).slice(1).map((row) => row.message);
    expect(messages).toEqual(["Edit: src/cart.ts", "Write: cart.ts", "Write: pkg/lib/x.ts", "Write: /etc/hosts", "NotebookEdit: n.ipynb", "Write"]);
    expect(payloadOf(events(project).at(-1))).toEqual({ tool: "Write", written_by: "hooks:emit", harness_session_id: "S" });
  });

  test("Write content is never stored", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "a.ts", content: "SECRET-CONTENT-XYZ" }, session_id: "S" });
    expect(JSON.stringify(events(project))).not.toContain("SECRET-CONTENT-XYZ");
  });
});

describe("hooks:emit — commands", () => {
  test("16: Claude Bash npm test passes with exit 0", () => {
    const project = tempProject();
    const run = emit(project, bash("npm test -- --filter=cart", { stdout: "Tests: 3 passed", stderr: "", interrupted: false }));
    expect(run.result).toMatchObject({ event: "step_done", message: "$ npm test -- --filter=cart" });
    expect(payloadOf(events(project).at(-1))).toMatchObject({ tool: "Bash", command: "npm test -- --filter=cart", outcome: "passed", test_runner: true, exit_code: 0 });
  });

  test("17: a 100-character command gives `$ ` + its first 80 characters", () => {
    const project = tempProject();
    const command = `echo ${"a".repeat(95)}`;
    emit(project, bash(command, { stdout: "", stderr: "", interrupted: false }));
    const row = events(project).at(-1);
    expect(row?.message).toBe(`$ ${command.slice(0, 80)}`);
    expect(payloadOf(row).command).toBe(command);
  });

  test("18: PostToolUseFailure Bash is failed with the exit code of the error", () => {
    const project = tempProject();
    const payload = bashPayload(project, { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "npm run build" }, error: "Exit code 1\nbuild failed", session_id: "S" });
    expect(payload).toMatchObject({ outcome: "failed", exit_code: 1, error: "Exit code 1\nbuild failed" });
    const failedWrite = emit(project, { hook_event_name: "PostToolUseFailure", tool_name: "Write", tool_input: { file_path: "a.ts" }, error: "denied", session_id: "S" });
    expect(failedWrite.result).toEqual({ ok: true, skipped: true });
  });

  test("19: Codex exit lines decide any command", () => {
    const project = tempProject();
    expect(bashPayload(project, codexBash("ls", "a\nb\nProcess exited with code 2\n"), ["--source=codex"])).toMatchObject({ outcome: "failed", exit_code: 2 });
    expect(bashPayload(project, codexBash("ls", "a\nExit code: 0\n"), ["--source=codex"])).toMatchObject({ outcome: "passed", exit_code: 0 });
  });

  test("20: Codex test summaries", () => {
    const project = tempProject();
    expect(bashPayload(project, codexBash("npm test", "Tests: 1 failed, 9 passed"), ["--source=codex"])).toMatchObject({ outcome: "failed", test_runner: true, summary: "Tests: 1 failed, 9 passed" });
    expect(bashPayload(project, codexBash("npm test", "Tests: 10 passed"), ["--source=codex"])).toMatchObject({ outcome: "passed", exit_code: null });
  });

  test("21: TAP TODO and SKIP never count as failures", () => {
    const project = tempProject();
    expect(bashPayload(project, codexBash("node --test", "ok 1 - a\nnot ok 3 - later # TODO\n# pass 1\n# fail 0\n"), ["--source=codex"]).outcome).toBe("passed");
    expect(bashPayload(project, codexBash("node --test", "ok 1 - a\nnot ok 4 - x # SKIP\n# fail 0\n"), ["--source=codex"]).outcome).toBe("passed");
    expect(bashPayload(project, codexBash("node --test", "ok 1 - a\nnot ok 2 - breaks\n"), ["--source=codex"]).outcome).toBe("failed");
  });

  test("22: no runner, no exit line, or empty output → unknown", () => {
    const project = tempProject();
    expect(bashPayload(project, codexBash("git log", "fix: 3 failing tests"), ["--source=codex"])).toMatchObject({ outcome: "unknown", exit_code: null, test_runner: false });
    expect(bashPayload(project, codexBash("npm test", ""), ["--source=codex"]).outcome).toBe("unknown");
  });

  test("23: go test", () => {
    const project = tempProject();
    expect(bashPayload(project, codexBash("go test ./...", "--- FAIL: TestX (0.00s)\nFAIL\n"), ["--source=codex"]).outcome).toBe("failed");
    expect(bashPayload(project, codexBash("go test ./...", "ok  \texample.com/pkg\t0.12s\n"), ["--source=codex"]).outcome).toBe("passed");
  });

  test("42: secrets are redacted from the message and the payload", () => {
    const project = tempProject();
    emit(project, bash("mysql -pS3cret -u root app", { stdout: "", stderr: "", interrupted: false }));
    const row = events(project).at(-1);
    expect(row?.message).toContain("-p[REDACTED]");
    expect(row?.payload_json).toContain("-p[REDACTED]");
    const everything = JSON.stringify(events(project)) + JSON.stringify(ndjsonLines(project, row?.session_key ?? ""));
    expect(everything).not.toContain("S3cret");
  });
});

describe("hooks:emit — patches, plans, tasks, skills, prompts", () => {
  const patch = ["*** Begin Patch", "*** Add File: a.ts", "+x", "*** Update File: b.ts", "*** Move to: c.ts", "@@", "-a", "+b", "*** Delete File: d.ts", "*** End Patch", ""].join("\n");

  test("24: apply_patch headers give one artifact per added/updated file", () => {
    const project = tempProject();
    const run = emit(project, { hook_event_name: "PostToolUse", tool_name: "apply_patch", tool_input: { command: patch }, tool_response: "Success.", session_id: "S" }, ["--source=codex"]);
    expect(run.result).toMatchObject({ files: ["a.ts", "c.ts"], count: 2 });
    const artifacts = events(project).filter((row) => row.event_type === "artifact");
    expect(artifacts.map((row) => row.message)).toEqual(["apply_patch: a.ts", "apply_patch: c.ts"]);
    expect(payloadOf(artifacts[0])).toMatchObject({ tool: "apply_patch", file: "a.ts", op: "add" });
    expect(payloadOf(artifacts[1])).toMatchObject({ file: "c.ts", op: "move", from: "b.ts" });
    expect(JSON.stringify(events(project))).not.toContain("d.ts");
  });

  test("25: a delete-only patch is skipped and starts no session", () => {
    const project = tempProject();
    const run = emit(project, { hook_event_name: "PostToolUse", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Delete File: d.ts\n*** End Patch\n" }, session_id: "S" }, ["--source=codex"]);
    expect(run.result).toEqual({ ok: true, skipped: true });
    expect(storeExists(project)).toBe(false);
  });

  test("26: TodoWrite and update_plan share the summary", () => {
    const project = tempProject();
    const statuses = ["completed", "completed", "in_progress", "pending", "pending"];
    emit(project, { hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: statuses.map((status, i) => ({ content: `t${i}`, status, activeForm: "x" })) }, session_id: "S" });
    const todo = events(project).at(-1);
    expect(todo).toMatchObject({ event_type: "note", message: "Task list updated" });
    expect(payloadOf(todo)).toMatchObject({ tool: "TodoWrite", done: 2, total: 5, summary: "Tasks: 2 of 5 done" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "update_plan", tool_input: { plan: statuses.map((status, i) => ({ step: `s${i}`, status })) }, session_id: "S" }, ["--source=codex"]);
    expect(payloadOf(events(project).at(-1))).toMatchObject({ tool: "update_plan", summary: "Tasks: 2 of 5 done", todos: expect.arrayContaining([{ content: "s0", status: "completed" }]) });
  });

  test("27: Task notes", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Task", tool_input: { description: "Explore auth", subagent_type: "Explore" }, session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Task", tool_input: {}, session_id: "S" });
    const notes = events(project).slice(1);
    expect(notes.map((row) => [row.event_type, row.message])).toEqual([["note", "Explore auth"], ["note", "Task launched"]]);
    expect(payloadOf(notes[0])).toMatchObject({ tool: "Task", subagent_type: "Explore" });
  });

  test("28: /aioson:agent:qa activates @qa and the prompt is stored nowhere", () => {
    const project = tempProject();
    const run = emit(project, { hook_event_name: "UserPromptSubmit", prompt: "/aioson:agent:qa review the cart", session_id: "S" });
    expect(run.result).toMatchObject({ event: "agent_activated", message: "Agent activated: @qa" });
    const row = events(project).at(-1);
    expect(payloadOf(row)).toEqual({ agent: "qa", via: "prompt", written_by: "hooks:emit", harness_session_id: "S" });
    const key = row?.session_key ?? "";
    expect(stateOf(project, key).active_agent).toBe("@qa");
    const runtime = join(project, ".aioson", "runtime");
    for (const file of readdirSync(runtime, { recursive: true }) as string[]) {
      const path = join(runtime, file);
      if (file.endsWith(".json") || file.endsWith(".ndjson") || file.endsWith(".log")) expect(readFileSync(path, "utf8")).not.toContain("review the cart");
    }
    expect(JSON.stringify(events(project))).not.toContain("review the cart");
  });

  test("29: @qa activates; @types/node, /compact and plain prompts do not (no session)", () => {
    const project = tempProject();
    for (const prompt of ["@types/node is broken", "/compact", "please fix the cart"]) {
      expect(emit(project, { hook_event_name: "UserPromptSubmit", prompt, session_id: "S" }).result).toEqual({ ok: true, skipped: true });
    }
    expect(storeExists(project)).toBe(false);
    expect(emit(project, { hook_event_name: "UserPromptSubmit", prompt: "@qa check it", session_id: "S" }).result).toMatchObject({ message: "Agent activated: @qa" });
  });

  test("29b: a custom agent activates only when .aioson/agents/<name>.md exists", () => {
    const project = tempProject({ ".aioson/agents/reviewer.md": "# reviewer" });
    expect(emit(project, { prompt: "/reviewer go", session_id: "S" }).result).toMatchObject({ message: "Agent activated: @reviewer" });
    expect(emit(project, { prompt: "/stranger go", session_id: "S" }).result).toEqual({ ok: true, skipped: true });
  });

  test("30: Skill aioson:agent:planner activates via skill; other skills are notes", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Skill", tool_input: { skill: "aioson:agent:planner" }, session_id: "S" });
    emit(project, { hook_event_name: "PostToolUse", tool_name: "Skill", tool_input: { skill: "pdf" }, session_id: "S" });
    const [activation, note] = events(project).slice(1);
    expect(activation).toMatchObject({ event_type: "agent_activated", message: "Agent activated: @planner" });
    expect(payloadOf(activation)).toMatchObject({ agent: "planner", via: "skill" });
    expect(note).toMatchObject({ event_type: "note", message: "Skill: pdf" });
  });

  test("other tools are notes tagged with the source", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "PostToolUse", tool_name: "WebSearch", tool_input: { query: "x" }, session_id: "S" });
    expect(events(project).at(-1)).toMatchObject({ event_type: "note", message: "[claude] WebSearch", tool_name: "WebSearch" });
  });
});

describe("hooks:emit — Stop, PreCompact, SessionEnd", () => {
  test("31: Stop with --then=agent:done records the message then agent_done; the run stays open", () => {
    const project = tempProject();
    const run = emit(project, { hook_event_name: "Stop", last_assistant_message: "All tests pass", session_id: "S" }, ["--then=agent:done", "--agent=dev"]);
    expect(run.result).toMatchObject({ ok: true, event: "agent_message", then: { command: "agent:done", ok: true, mode: "live_event" } });
    const tail = events(project).slice(1);
    expect(tail.map((row) => [row.event_type, row.message])).toEqual([["agent_message", "All tests pass"], ["agent_done", "Session ended via dev hook"]]);
    expect(new Set(tail.map((row) => row.run_key)).size).toBe(1);
    expect((run.result.then as Record<string, unknown>).runKey).toBe(tail[0]?.run_key);
    expect(payloadOf(tail[0])).toMatchObject({ text: "All tests pass" });
    expect(rows<{ status: string }>(project, "SELECT status FROM agent_runs")[0]?.status).toBe("running");
  });

  test("31b: --then runs even when Stop has no message; long messages are capped with a visible mark", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "Stop", session_id: "S" }, ["--then=agent:done"]);
    expect(events(project).map((row) => row.event_type)).toEqual(["session_started", "agent_done"]);
    const long = `start ${"word ".repeat(3000)}`;
    emit(project, { hook_event_name: "Stop", last_assistant_message: long, session_id: "S" });
    const row = events(project).at(-1);
    expect(row?.message.length).toBe(200);
    const text = payloadOf(row).text as string;
    expect(text.endsWith("…[truncated]")).toBe(true);
    expect(text.length).toBe(8000 + "…[truncated]".length);
  });

  test("31c: Stop without a message falls back to the transcript's last assistant text", () => {
    const project = tempProject();
    const transcript = join(project, "t.jsonl");
    writeFileSync(
      transcript,
      [
        { type: "user", message: { role: "user", content: "hi" } },
        { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Done: cart fixed" }] } },
      ].map((line) => JSON.stringify(line)).join("\n"),
    );
    emit(project, { hook_event_name: "Stop", transcript_path: transcript, session_id: "S" });
    expect(events(project).at(-1)).toMatchObject({ event_type: "agent_message", message: "Done: cart fixed" });
  });

  test("32: Stop --then outside any project creates nothing", () => {
    const dir = tempDir();
    const run = emit(dir, { hook_event_name: "Stop", last_assistant_message: "x", session_id: "S" }, ["--then=agent:done", "--agent=dev"]);
    expect(run.code).toBe(0);
    expect(run.result).toEqual({ ok: true, skipped: true, reason: "no-project-root" });
    expect(readdirSync(dir)).toEqual([]);
  });

  test("33: PreCompact marker with the harness session id", () => {
    const project = tempProject();
    emit(project, { hook_event_name: "PreCompact", trigger: "manual", session_id: "S1", custom_instructions: "keep-this-out" });
    const row = events(project).at(-1);
    expect(row).toMatchObject({ event_type: "compaction", message: "Compaction (manual)", harness_session_id: "S1" });
    expect(row?.payload_json).not.toContain("keep-this-out");
  });

  test("34: SessionEnd closes an open hooks session", () => {
    const project = tempProject();
    emit(project, write("a.ts"));
    const run = emit(project, { session_id: "S", reason: "prompt_input_exit" }, ["--event=SessionEnd", "--source=codex"]);
    expect(run.result).toMatchObject({ ok: true, event: "session_ended" });
    const row = events(project).at(-1);
    expect(row).toMatchObject({ event_type: "session_ended", message: "Session ended (codex): prompt_input_exit" });
    expect(rows<{ status: string; summary: string; finished_at: string | null }>(project, "SELECT * FROM agent_runs")[0]).toMatchObject({ status: "completed", summary: "Closed by SessionEnd (codex)" });
    expect(rows<{ status: string }>(project, "SELECT status FROM tasks")[0]?.status).toBe("completed");
    expect(existsSync(join(project, ".aioson", "runtime", ".sessions", "@dev.json"))).toBe(false);
    const state = stateOf(project, row?.session_key ?? "");
    expect(state.phase).toBe("closed");
    expect(state.closed_at).toEqual(expect.any(String));
    // The next event opens a fresh hooks session.
    emit(project, write("b.ts"));
    expect(rows(project, "SELECT * FROM agent_runs WHERE status = 'running'")).toHaveLength(1);
    expect(rows(project, "SELECT * FROM agent_runs")).toHaveLength(2);
  });

  test("35: SessionEnd on a live:start session appends but does not close it", () => {
    const project = tempProject();
    const { runKey } = openLiveSession(project, "dev", "direct-session:1:dev");
    emit(project, {}, ["--event=SessionEnd"]);
    expect(events(project).at(-1)).toMatchObject({ event_type: "session_ended", run_key: runKey, message: "Session ended (claude)" });
    expect(rows<{ status: string }>(project, "SELECT status FROM agent_runs")[0]?.status).toBe("running");
  });

  test("36: SessionEnd with no open session is skipped and creates nothing", () => {
    const project = tempProject();
    expect(emit(project, {}, ["--event=SessionEnd"]).result).toEqual({ ok: true, skipped: true, reason: "no-open-session" });
    expect(storeExists(project)).toBe(false);
    emit(project, write("a.ts"));
    emit(project, {}, ["--event=SessionEnd"]);
    expect(emit(project, {}, ["--event=SessionEnd"]).result).toEqual({ ok: true, skipped: true, reason: "no-open-session" });
    expect(rows(project, "SELECT * FROM agent_runs")).toHaveLength(1);
  });
});

describe("hooks:emit — session adoption", () => {
  test("37: hooks write into the agent's live:start session", () => {
    const project = tempProject();
    const { runKey } = openLiveSession(project, "dev", "direct-session:1:dev");
    emit(project, write("a.ts"), ["--agent=dev"]);
    expect(events(project).at(-1)).toMatchObject({ run_key: runKey, message: "Write: a.ts" });
    expect(rows(project, "SELECT * FROM agent_runs WHERE session_key LIKE 'hooks-%'")).toHaveLength(0);
  });

  test("37/38 with the real live:start: adopted, unless AIOSON_LIVE_SESSION=none", () => {
    const project = tempProject();
    const bin = tempDir();
    writeFileSync(join(bin, "claude"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const started = runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", "--json"], { env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
    const runKey = (started.json as { runKey: string }).runKey;
    expect(runKey).toEqual(expect.any(String));
    expect(emit(project, write("a.ts"), ["--agent=dev"]).result).toMatchObject({ runKey, autoStarted: false });
    expect(rows(project, "SELECT * FROM agent_runs WHERE session_key LIKE 'hooks-%'")).toHaveLength(0);
    const lane = emit(project, write("b.ts"), ["--agent=dev"], { env: { AIOSON_LIVE_SESSION: "none" } });
    expect(lane.result).toMatchObject({ autoStarted: true });
    expect(lane.result.runKey).not.toBe(runKey);
    expect(events(project).filter((row) => row.run_key === runKey).map((row) => row.message)).not.toContain("Write: b.ts");
  });

  test("37b: the only open live:start session is adopted even for another agent", () => {
    const project = tempProject();
    const { runKey } = openLiveSession(project, "product", "direct-session:1:product");
    emit(project, write("a.ts"), ["--agent=dev"]);
    expect(events(project).at(-1)?.run_key).toBe(runKey);
  });

  test("38: AIOSON_LIVE_SESSION=none uses the per-agent hooks session", () => {
    const project = tempProject();
    const { runKey } = openLiveSession(project, "dev", "direct-session:1:dev");
    emit(project, write("a.ts"), ["--agent=dev"], { env: { AIOSON_LIVE_SESSION: "none" } });
    const row = events(project).at(-1);
    expect(row?.run_key).not.toBe(runKey);
    expect(row?.session_key).toMatch(/^hooks-dev-/);
    expect(events(project).filter((r) => r.run_key === runKey)).toHaveLength(1);
    emit(project, write("b.ts"), ["--agent=dev"], { env: { AIOSON_LIVE_SESSION: "none" } });
    expect(events(project).at(-1)?.run_key).toBe(row?.run_key ?? "");
  });

  test("39: AIOSON_LIVE_SESSION=<key> of another agent's session wins", () => {
    const project = tempProject();
    openLiveSession(project, "dev", "direct-session:1:dev");
    const { runKey } = openLiveSession(project, "qa", "direct-session:2:qa");
    emit(project, write("a.ts"), ["--agent=dev"], { env: { AIOSON_LIVE_SESSION: "direct-session:2:qa" } });
    expect(events(project).at(-1)?.run_key).toBe(runKey);
  });

  test("40: two simultaneous first events make one hooks session", async () => {
    const project = tempProject();
    const { BINARY, testEnv } = await import("../helpers.ts");
    const home = tempDir();
    const procs = [0, 1].map((i) =>
      Bun.spawn([BINARY, "hooks:emit", project, "--json"], { stdin: new TextEncoder().encode(JSON.stringify(write(`f${i}.ts`))), env: testEnv(home), stdout: "pipe" }),
    );
    await Promise.all(procs.map((proc) => proc.exited));
    expect(rows(project, "SELECT * FROM agent_runs")).toHaveLength(1);
    const artifacts = events(project).filter((row) => row.event_type === "artifact");
    expect(artifacts).toHaveLength(2);
    expect(new Set(events(project).map((row) => row.sequence_no)).size).toBe(3);
  });

  test("41: --agent with literal quotes", () => {
    const project = tempProject();
    emit(project, write("a.ts"), ["--agent='dev'"]);
    expect(existsSync(join(project, ".aioson", "runtime", ".sessions", "@dev.json"))).toBe(true);
    expect(rows<{ agent_name: string }>(project, "SELECT agent_name FROM agent_runs")[0]?.agent_name).toBe("@dev");
    emit(project, write("b.ts"), ["--agent=\"'QA'\""]);
    expect(existsSync(join(project, ".aioson", "runtime", ".sessions", "@qa.json"))).toBe(true);
    emit(project, write("c.ts"), ["--agent=bad name!"]);
    expect(rows(project, "SELECT * FROM agent_runs")).toHaveLength(2);
  });

  test("43: state.json keeps the last 10 events and counts all; lines carry the hooks fields", () => {
    const project = tempProject();
    for (let i = 0; i < 12; i++) emit(project, write(`f${i}.ts`));
    const key = events(project)[0]?.session_key ?? "";
    const state = stateOf(project, key);
    expect((state.last_events as unknown[]).length).toBe(10);
    expect((state.stats as Record<string, unknown>).events_total).toBe(13);
    expect((state.stats as { events_by_type: Record<string, number> }).events_by_type).toEqual({ session_started: 1, artifact: 12 });
    const lines = ndjsonLines(project, key);
    expect(lines).toHaveLength(13);
    for (const line of lines) for (const field of ["ts", "type", "summary", "message", "tool", "source", "agent"]) expect(line).toHaveProperty(field);
    expect(lines[5]).toMatchObject({ type: "artifact", file: "f4.ts", source: "claude", agent: "dev", harness_session_id: "test-123" });
  });

  test("--then with another command is reported unsupported", () => {
    const project = tempProject();
    expect(emit(project, write("a.ts"), ["--then=live:close"]).result.then).toEqual({ command: "live:close", ok: false, reason: "unsupported" });
  });

  test("hook log records why a payload was ignored", () => {
    const project = tempProject();
    emit(project, "not json");
    emit(project, { hook_event_name: "Bogus" });
    const log = hookLog(project);
    expect(log).toContain("no payload (invalid-json)");
    expect(log).toContain("unknown event: Bogus");
    mkdirSync(join(project, "x"));
    expect(runAioson(["hooks:emit", project]).stdout).toBe("");
  });
});
