/**
 * What Claude Code 2.1.3xx really sends (real-harnesses §1, the payloads the bench in test/real logged), through
 * hooks:emit and hooks:recap: task-by-task plans, `<task-notification>` prompts, continued Stops, compactions
 * confirmed by their SessionStart(compact) or PostCompact (and the ones that never happened), SessionEnd.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTemp, runAioson, tempProject } from "../helpers.ts";
import { emit, events, payloadOf, stateOf } from "./helpers.ts";

afterAll(cleanupTemp);

const S = "f97a0628-4226-4291-bfc9-a25eba0fd597";
const base = (event: string, extra: Record<string, unknown>) => ({ session_id: S, transcript_path: "/nonexistent.jsonl", hook_event_name: event, ...extra });
const taskCreate = (id: string, subject: string) =>
  base("PostToolUse", { tool_name: "TaskCreate", tool_input: { subject, description: "d", activeForm: "Doing" }, tool_response: { task: { id, subject, description: "d" } } });
const taskUpdate = (id: string, input: Record<string, unknown>, to?: string) =>
  base("PostToolUse", { tool_name: "TaskUpdate", tool_input: { taskId: id, ...input }, tool_response: { success: true, taskId: id, updatedFields: Object.keys(input), ...(to ? { statusChange: { from: "pending", to } } : {}) } });
const write = (file: string) => base("PostToolUse", { tool_name: "Write", tool_input: { file_path: file, content: "x" }, tool_response: { type: "create", filePath: file } });

function notes(project: string) {
  return events(project).filter((row) => row.event_type === "note");
}

function recap(project: string, stdin: Record<string, unknown> = { hook_event_name: "SessionStart", source: "compact", session_id: S }): string {
  const run = runAioson(["hooks:recap", project], { stdin: JSON.stringify(stdin) });
  expect(run.code).toBe(0);
  return run.stdout;
}

describe("plans from TaskCreate / TaskUpdate / TaskCreated", () => {
  test("each change is stored as the whole plan, with TodoWrite's note and summary; the recap shows it", () => {
    const project = tempProject();
    emit(project, base("TaskCreated", { task_id: "1", task_subject: "Add totals", task_description: "d" }));
    const duplicate = emit(project, taskCreate("1", "Add totals"));
    expect(duplicate.result).toEqual({ ok: true, skipped: true });
    emit(project, taskCreate("2", "Write tests"));
    emit(project, taskCreate("3", "Drop the old cart"));
    emit(project, taskUpdate("1", { status: "in_progress" }, "in_progress"));
    emit(project, taskUpdate("1", { status: "completed" }, "completed"));
    emit(project, taskUpdate("3", { status: "deleted" }));
    emit(project, taskUpdate("2", { subject: "Write the totals tests" }));
    // An update that changes nothing the plan shows (a description) is not a new note.
    expect(emit(project, taskUpdate("2", { description: "more" })).result).toEqual({ ok: true, skipped: true });

    const all = notes(project);
    expect(all.map((row) => row.message)).toEqual(Array(7).fill("Task list updated"));
    expect(all.map((row) => row.tool_name)).toEqual(["TaskCreated", "TaskCreate", "TaskCreate", "TaskUpdate", "TaskUpdate", "TaskUpdate", "TaskUpdate"]);
    expect(all.map((row) => payloadOf(row).summary)).toEqual([
      "Tasks: 0 of 1 done", "Tasks: 0 of 2 done", "Tasks: 0 of 3 done", "Tasks: 0 of 3 done", "Tasks: 1 of 3 done", "Tasks: 1 of 2 done", "Tasks: 1 of 2 done",
    ]);
    expect(payloadOf(all.at(-1))).toMatchObject({
      tool: "TaskUpdate",
      todos: [{ id: "1", content: "Add totals", status: "completed" }, { id: "2", content: "Write the totals tests", status: "pending" }],
      done: 1,
      total: 2,
      written_by: "hooks:emit",
      harness_session_id: S,
    });
    emit(project, base("PreCompact", { trigger: "manual" }));
    expect(recap(project)).toContain("Plan: Tasks: 1 of 2 done\n- [x] Add totals\n- [ ] Write the totals tests");
  });

  test("an update for a task created before the hooks saw the plan still counts; TaskGet/TaskList record nothing", () => {
    const project = tempProject();
    emit(project, taskUpdate("4", { status: "in_progress" }, "in_progress"));
    expect(payloadOf(notes(project)[0])).toMatchObject({ todos: [{ id: "4", content: "Task 4", status: "in_progress" }], summary: "Tasks: 0 of 1 done" });
    expect(emit(project, base("PostToolUse", { tool_name: "TaskList", tool_input: {}, tool_response: { tasks: [] } })).result).toEqual({ ok: true, skipped: true });
    expect(emit(project, base("PostToolUse", { tool_name: "TaskGet", tool_input: { taskId: "4" }, tool_response: { task: null } })).result).toEqual({ ok: true, skipped: true });
  });

  test("plans are per harness session; TodoWrite keeps working (CLAUDE_CODE_ENABLE_TASKS=0)", () => {
    const project = tempProject();
    emit(project, taskCreate("1", "Mine"));
    emit(project, { ...taskCreate("1", "Another window's"), session_id: "other-window" });
    emit(project, taskUpdate("1", { status: "completed" }, "completed"));
    expect(payloadOf(notes(project).at(-1))).toMatchObject({ todos: [{ id: "1", content: "Mine", status: "completed" }], done: 1, total: 1 });
    emit(project, base("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos: [{ content: "a", status: "completed", activeForm: "A" }, { content: "b", status: "pending", activeForm: "B" }] } }));
    expect(payloadOf(notes(project).at(-1))).toMatchObject({ tool: "TodoWrite", summary: "Tasks: 1 of 2 done" });
  });

  test("a hostile subject is redacted and capped like any plan item", () => {
    const project = tempProject();
    emit(project, taskCreate("1", `deploy with PGPASSWORD=hunter2 ${"x".repeat(400)}`));
    const todo = (payloadOf(notes(project)[0]).todos as Array<{ content: string }>)[0] as { content: string };
    expect(todo.content).toContain("PGPASSWORD=[REDACTED]");
    expect(todo.content.length).toBeLessThanOrEqual(200);
  });
});

describe("turns and sub-agents", () => {
  test("a Stop that continues a blocked Stop records the answer but no second agent_done", () => {
    const project = tempProject();
    emit(project, base("Stop", { stop_hook_active: false, last_assistant_message: "Done: I wrote src/cart.ts." }), ["--then=agent:done"]);
    const continued = emit(project, base("Stop", { stop_hook_active: true, last_assistant_message: "Verified src/cart.ts." }), ["--then=agent:done"]);
    expect(continued.result.then).toEqual({ command: "agent:done", ok: true, reason: "stop_hook_active" });
    expect(events(project).map((row) => row.event_type)).toEqual(["session_started", "agent_message", "agent_done", "agent_message"]);
    const usage = runAioson(["context:usage", project, "--json"]);
    expect((usage.json as { session_ends: number }).session_ends).toBe(1);
  });

  test("an async Agent is recorded once, at launch; its <task-notification> prompt activates nothing", () => {
    const project = tempProject();
    emit(project, base("PostToolUse", {
      tool_name: "Agent",
      tool_input: { description: "Review cart", prompt: "review /aioson:agent:qa", subagent_type: "general-purpose" },
      tool_response: { isAsync: true, status: "async_launched", agentId: "ad63d90d91ae76b0b", description: "Review cart" },
    }));
    const prompt = "<task-notification>\n<task-id>ad63d90d91ae76b0b</task-id>\n<status>completed</status>\n<result>/aioson:agent:qa says fine</result>\n</task-notification>";
    expect(emit(project, base("UserPromptSubmit", { prompt })).result).toEqual({ ok: true, skipped: true });
    expect(events(project).filter((row) => row.event_type !== "session_started").map((row) => [row.event_type, row.message])).toEqual([["note", "Review cart"]]);
  });

  test("SessionEnd closes the Claude hooks session", () => {
    const project = tempProject();
    const first = emit(project, write("src/a.ts"));
    const end = emit(project, base("SessionEnd", { reason: "other" }), ["--event=SessionEnd"]);
    expect(end.result.ok).toBe(true);
    expect(events(project).at(-1)).toMatchObject({ event_type: "session_ended", message: "Session ended (claude): other" });
    expect(stateOf(project, String(first.result.sessionKey)).phase).toBe("closed");
  });
});

describe("a compaction counts once it is confirmed", () => {
  function session(project: string) {
    emit(project, write("src/before-first.ts"));
    emit(project, base("PreCompact", { trigger: "auto" }));
  }

  test("the SessionStart(compact) recap confirms its marker; a PreCompact that never compacted is replaced by the next", () => {
    const project = tempProject();
    session(project);
    expect(recap(project)).toContain("- src/before-first.ts");
    expect(events(project).at(-1)).toMatchObject({ event_type: "compaction_confirmed", harness_session_id: S });
    emit(project, write("src/between.ts"));
    // "compaction cannot help": PreCompact fired, no SessionStart(compact), no PostCompact.
    emit(project, base("PreCompact", { trigger: "auto" }));
    emit(project, write("src/after-bail.ts"));
    emit(project, base("PreCompact", { trigger: "manual" }));
    const text = recap(project);
    expect(text).toContain("Files changed since the previous compaction:\n- src/after-bail.ts\n- src/between.ts");
    expect(text).not.toContain("before-first");
  });

  test("a PreCompact that gave up before the first real compaction does not bound anything", () => {
    const project = tempProject();
    session(project);
    emit(project, write("src/after-bail.ts"));
    emit(project, base("PreCompact", { trigger: "manual" }));
    expect(recap(project)).toContain("- src/after-bail.ts\n- src/before-first.ts");
  });

  test("PostCompact confirms too (one row per marker); an on-demand recap confirms nothing", () => {
    const project = tempProject();
    session(project);
    expect(recap(project, { session_id: S, source: "compact" }).length).toBeGreaterThan(0);
    const onDemand = runAioson(["hooks:recap", project, "--when=always", `--session=${S}`], { stdin: null });
    expect(onDemand.code).toBe(0);
    expect(events(project).filter((row) => row.event_type === "compaction_confirmed").length).toBe(1);
    expect(emit(project, base("PostCompact", { trigger: "auto", compact_summary: "…" })).result).toEqual({ ok: true, skipped: true });
    emit(project, base("PreCompact", { trigger: "auto" }));
    expect(emit(project, base("PostCompact", { trigger: "auto", compact_summary: "…" })).result).toMatchObject({ event: "compaction_confirmed" });
    expect(events(project).filter((row) => row.event_type === "compaction_confirmed").map((row) => payloadOf(row).via)).toEqual(["SessionStart", "PostCompact"]);
  });

  test("a confirmation never opens a session; markers of other harnesses count as soon as they are written", () => {
    const project = tempProject();
    expect(emit(project, base("PostCompact", { trigger: "auto" })).result).toMatchObject({ skipped: true });
    const codex = (payload: Record<string, unknown>) => emit(project, payload, ["--source=codex"]);
    codex(write("src/one.ts"));
    codex(base("PreCompact", { trigger: "auto" }));
    expect(payloadOf(events(project).at(-1))).not.toHaveProperty("needs_confirmation");
    codex(write("src/two.ts"));
    codex(base("PreCompact", { trigger: "auto" }));
    expect(recap(project)).not.toContain("src/one.ts");
  });
});
