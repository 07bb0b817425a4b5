import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson, tempDir, tempProject } from "./helpers.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;
const dbFile = (project: string): string => join(project, ".aioson", "runtime", "aios.sqlite");

describe("runtime:init", () => {
  test("(112) creates the store and answers {ok:true,…}; idempotent", () => {
    const project = tempProject();
    const first = runAioson(["runtime:init", project, "--json"]);
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      ok: true,
      targetDir: project,
      runtimeDir: join(project, ".aioson", "runtime"),
      dbPath: dbFile(project),
    });
    expect(existsSync(dbFile(project))).toBe(true);
    const again = runAioson(["runtime:init"], { cwd: join(project) });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Runtime store initialized: ${dbFile(project)}\n`);
  });

  test("from inside the data tree the project root is used", () => {
    const project = tempProject({ ".aioson/context/notes.md": "x" });
    const run = runAioson(["runtime:init", join(project, ".aioson", "context"), "--json"]);
    expect((run.json as Json).targetDir).toBe(project);
    expect(existsSync(join(project, ".aioson", "context", ".aioson"))).toBe(false);
  });
});

describe("runtime:status", () => {
  test("(118) --json without a store: {ok:false, error:'store_missing', dbPath}, exit 1, nothing created", () => {
    const project = tempProject();
    const run = runAioson(["runtime:status", project, "--json"]);
    expect(run.code).toBe(1);
    expect(run.json).toEqual({ ok: false, error: "store_missing", dbPath: dbFile(project) });
    expect(existsSync(join(project, ".aioson", "runtime"))).toBe(false);
  });

  test("text mode without a store: the runtime:init hint on stderr", () => {
    const project = tempProject();
    const run = runAioson(["runtime:status", project]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(`Error: Runtime store not found: ${dbFile(project)}. Run: aioson runtime:init`);
  });

  test("recentEvents: newest first with payload, ts, type, summary; decorated rows; text layout", () => {
    const project = tempProject();
    runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", "--json"]);
    runAioson(["runtime:emit", project, "--agent=dev", "--type=task_started", "--summary=First", "--used-skills=tdd"]);
    runAioson(["runtime:emit", project, "--agent=dev", "--type=note", "--summary=Latest note", "--meta={\"k\":1}"]);
    const run = runAioson(["runtime:status", project, "--json"]);
    expect(run.code).toBe(0);
    const status = run.json as Json;
    expect(status.ok).toBe(true);
    expect(status.taskCounts).toEqual({ queued: 0, running: 2, completed: 0, failed: 0 });
    expect(status.counts).toEqual({ queued: 0, running: 1, completed: 0, failed: 0 });
    const [newest, middle, oldest] = status.recentEvents;
    expect(newest).toMatchObject({ type: "note", summary: "Latest note", event_type: "note", message: "Latest note" });
    expect(newest.ts).toBe(newest.created_at);
    expect(newest.payload).toMatchObject({ k: 1 });
    expect(middle.type).toBe("task_started");
    expect(oldest.type).toBe("session_started");
    expect(newest.id).toBeGreaterThan(middle.id);
    expect(status.recentExecutionEvents).toEqual(status.recentEvents);
    const session = status.activeLiveSessions[0];
    expect(session).toMatchObject({ is_live_session: true, is_micro_task: false, agent_count: 1, child_task_count: 1, completed_child_task_count: 0, latest_agent_name: "@dev" });
    expect(session.meta).toMatchObject({ tool_session: "claude", owner: "live" });
    expect(status.activeMicroTasks[0]).toMatchObject({ is_micro_task: true, parent_task_key: session.task_key });
    expect(status.activeRuns[0]).toMatchObject({ used_skills: ["tdd"], is_live: true, is_handoff_child: false });

    const text = runAioson(["runtime:status", project]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`Runtime status: ${project}`);
    expect(lines[1]).toBe(`DB: ${dbFile(project)}`);
    expect(lines[2]).toBe("Tasks -> Queued: 0 | Running: 2 | Completed: 0 | Failed: 0");
    expect(lines[3]).toBe("Runs  -> Queued: 0 | Running: 1 | Completed: 0 | Failed: 0");
    expect(lines[4]).toBe("Active tasks:");
    expect(text.stdout).toContain("Active runs:\n- @dev | squad: — | status: running | work: live-claude-");
    expect(text.stdout).toMatch(/Active live sessions:\n- task-\S+ \| agent: @dev \| status: running \| plan: — \| micro: 0\/1 \| handoffs: 0 \| work: live-claude-/);
    expect(text.stdout).toContain("Active micro-tasks:");
  });

  test("an empty store prints the no-active lines", () => {
    const project = tempProject();
    runAioson(["runtime:init", project]);
    const run = runAioson(["runtime:status", project]);
    expect(run.stdout).toContain("No active tasks.\nNo active agent runs.\n");
    expect(run.stdout).not.toContain("Active live sessions:");
  });
});

describe("runtime:emit", () => {
  test("--agent is required", () => {
    const project = tempProject();
    const run = runAioson(["runtime:emit", project, "--type=note"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Error: Required option missing: --agent");
  });

  test("(115) standalone event with refs, skills and meta; no pointer", () => {
    const project = tempProject();
    const run = runAioson([
      "runtime:emit", project, "--agent=orchestrator", "--type=milestone", "--summary=Phase one done",
      "--refs=docs/a.md, docs/b.md,docs/a.md", "--used-skills=a,$b", "--meta={\"worker\":\"agent-1\"}", "--json",
    ]);
    expect(run.code).toBe(0);
    const result = run.json as Json;
    expect(result).toMatchObject({ ok: true, standalone: true, open: false, sessionKey: null, currentTask: null, agent: "@orchestrator", eventType: "milestone", usedSkills: ["a", "b"] });
    const [runRow] = rows<Json>(project, "SELECT * FROM agent_runs");
    expect(runRow).toMatchObject({ run_key: result.runKey, source: "direct", status: "completed", used_skills_json: '["a","b"]', agent_name: "@orchestrator", summary: "Phase one done" });
    const [task] = rows<Json>(project, "SELECT * FROM tasks");
    expect(task).toMatchObject({ title: "runtime:emit @orchestrator", status: "completed", task_kind: "runtime_event", goal: "Phase one done" });
    expect(JSON.parse(task?.meta_json)).toEqual({ mode: "standalone", reason: "no_active_live_session" });
    const [event] = rows<Json>(project, "SELECT * FROM execution_events");
    expect(event).toMatchObject({ event_type: "milestone", phase: "direct", message: "Phase one done" });
    expect(JSON.parse(event?.payload_json)).toEqual({
      worker: "agent-1", refs: ["docs/a.md", "docs/b.md"], used_skills: ["a", "b"], standalone: true, reason: "no_active_live_session",
    });
    expect(existsSync(join(project, ".aioson", "runtime", ".sessions"))).toBe(false);
    const text = runAioson(["runtime:emit", project, "--agent=orchestrator"]);
    expect(text.stdout).toMatch(/^Standalone runtime event recorded: @orchestrator \| note \| run: orchestrator-\d+(-\d+)? \(.*aios\.sqlite\)\n$/);
    expect(rows<Json>(project, "SELECT message FROM execution_events ORDER BY id DESC LIMIT 1")[0]?.message).toBe("note emitted by @orchestrator");
  });

  test("summary fallbacks and the 500-character cap; meta that is not an object", () => {
    const project = tempProject();
    runAioson(["runtime:emit", project, "--agent=dev", `--summary=${"x".repeat(600)}`, "--meta=[1,2]"]);
    runAioson(["runtime:emit", project, "--agent=dev", "--message=  from message  ", "--meta={broken"]);
    const events = rows<Json>(project, "SELECT message, payload_json FROM execution_events ORDER BY id");
    expect(events[0]?.message).toBe(`${"x".repeat(497)}...`);
    expect(JSON.parse(events[0]?.payload_json).value).toEqual([1, 2]);
    expect(events[1]?.message).toBe("from message");
    expect(JSON.parse(events[1]?.payload_json).raw).toBe("{broken");
  });

  test("into an open session: columns, skills merged, ndjson line, state, text line", () => {
    const project = tempProject();
    const started = runAioson(["live:start", project, "--tool=codex", "--agent=dev", "--no-launch", "--json"]).json as Json;
    const run = runAioson([
      "runtime:emit", project, "--agent=@Dev", "--type=note", "--summary=Checkpoint", "--worker-status=busy", "--verdict=pass",
      "--token-count=1200", "--progress-pct=abc", "--skill=$review", "--refs=src/a.ts", "--json",
    ]);
    expect(run.json).toMatchObject({ ok: true, open: true, agent: "@dev", eventType: "note", sessionKey: started.sessionKey, runKey: started.runKey, taskKey: started.taskKey, currentTask: null, usedSkills: ["review"] });
    const [event] = rows<Json>(project, "SELECT * FROM execution_events WHERE event_type = 'note'");
    expect(event).toMatchObject({ phase: "live", worker_status: "busy", verdict: "PASS", token_count: 1200, progress_pct: null, session_key: started.sessionKey, sequence_no: 2 });
    expect(rows<Json>(project, "SELECT used_skills_json FROM agent_runs")[0]?.used_skills_json).toBe('["review"]');
    const dir = join(project, ".aioson", "runtime", "live", String(started.sessionKey).replaceAll(":", "__"));
    const lines = readFileSync(join(dir, "events.ndjson"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ type: "note", summary: "Checkpoint", agent: "dev", run_key: started.runKey, session_key: started.sessionKey, refs: ["src/a.ts"], plan_step: null, status: "running" });
    const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
    expect(state.stats.events_total).toBe(2);
    expect(state.last_events.at(-1)).toMatchObject({ type: "note", summary: "Checkpoint" });
    const text = runAioson(["runtime:emit", project, "--agent=dev", "--type=milestone"]);
    expect(text.stdout).toBe(`Live event recorded: @dev | milestone | ${started.sessionKey} (${dbFile(project)})\n`);
  });

  test("(116) micro-tasks: a second task_started fails; task_completed closes; implicit completion", () => {
    const project = tempProject();
    const started = runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", "--json"]).json as Json;
    const first = runAioson(["runtime:emit", project, "--agent=dev", "--type=task_started", "--title=Cart", "--summary=Build the cart", "--plan-step=RF-01", "--json"]);
    const micro = (first.json as Json).currentTask;
    expect(micro).toMatch(/^task-cart-/);
    const second = runAioson(["runtime:emit", project, "--agent=dev", "--type=task_started", "--summary=Other"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("micro-task");
    expect(second.stderr).toContain("A live micro-task is already open for @dev. Emit task_completed before task_started again.");
    const done = runAioson(["runtime:emit", project, "--agent=dev", "--type=task_completed", "--summary=Cart built", "--json"]);
    expect((done.json as Json).currentTask).toBeNull();
    const implicit = runAioson(["runtime:emit", project, "--agent=dev", "--type=task_completed", "--summary=Hotfix"]);
    expect(implicit.code).toBe(0);
    const tasks = rows<Json>(project, "SELECT * FROM tasks WHERE task_kind = 'micro_task' ORDER BY created_at, task_key");
    expect(tasks).toHaveLength(2);
    expect(tasks[0]).toMatchObject({ task_key: micro, title: "Cart", goal: "Cart built", status: "completed", parent_task_key: started.taskKey });
    expect(JSON.parse(tasks[0]?.meta_json)).toEqual({ refs: [], plan_step: "RF-01" });
    expect(JSON.parse(tasks[1]?.meta_json)).toMatchObject({ implicit: true });
    const payloads = rows<Json>(project, "SELECT payload_json FROM execution_events WHERE event_type LIKE 'task_%' ORDER BY id");
    expect(JSON.parse(payloads[0]?.payload_json).micro_task_key).toBe(micro);
    const status = runAioson(["live:status", project, "--agent=dev", "--json"]).json as Json;
    expect(status.stats.tasks_completed).toBe(2);
    expect(status.currentTask).toBeNull();
  });

  test("(117) plan_checkpoint marks a step of the session's plan done", () => {
    const project = tempProject({
      "plan.md": "# Plan\n<!-- aioson:steps\nRF-01: Login\nRF-02: Logout\n-->\n",
    });
    runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", `--plan=${join(project, "plan.md")}`]);
    const run = runAioson(["runtime:emit", project, "--agent=dev", "--type=plan_checkpoint", "--plan-step=rf-01", "--summary=Login done", "--progress-pct=50"]);
    expect(run.code).toBe(0);
    const status = runAioson(["live:status", project, "--agent=dev", "--json"]).json as Json;
    expect(status.stats.plan_steps_done).toBe(1);
    expect(status.stats.plan_steps_total).toBe(2);
    const [task] = rows<Json>(project, "SELECT meta_json FROM tasks WHERE task_kind = 'live_session'");
    expect(JSON.parse(task?.meta_json).plan_steps).toEqual([
      { id: "RF-01", title: "Login", done: true },
      { id: "RF-02", title: "Logout", done: false },
    ]);
    expect(rows<Json>(project, "SELECT plan_step_id, progress_pct FROM execution_events WHERE event_type = 'plan_checkpoint'")[0]).toEqual({ plan_step_id: "rf-01", progress_pct: 50 });
  });

  test("outside any project the start directory becomes the root (user command)", () => {
    const dir = tempDir();
    const run = runAioson(["runtime:emit", dir, "--agent=dev", "--json"]);
    expect(run.code).toBe(0);
    expect((run.json as Json).targetDir).toBe(dir);
  });
});
