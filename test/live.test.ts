import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson, tempDir, tempProject } from "./helpers.ts";
import { openDbFile } from "../scripts/open-db.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;
const runtime = (project: string, ...parts: string[]): string => join(project, ".aioson", "runtime", ...parts);
const sessionFile = (project: string, sessionKey: string, name: string): string => runtime(project, "live", sessionKey.replaceAll(":", "__"), name);
const readJson = (path: string): Json => JSON.parse(readFileSync(path, "utf8"));

function start(project: string, ...flags: string[]): Json {
  const run = runAioson(["live:start", project, "--no-launch", "--json", ...flags]);
  expect(run.code).toBe(0);
  return run.json as Json;
}

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = Bun.spawnSync(["true"]);
  return child.pid;
}

describe("live:start", () => {
  test("opens a live session: rows, pointer, state.json, first ndjson line", () => {
    const project = tempProject();
    const result = start(project, "--tool=codex", "--agent=Dev", "--title=Cart work", "--goal=Ship the cart", "--message=Hello");
    expect(result).toMatchObject({ ok: true, agent: "@dev", tool: "codex", pid: null, processState: "not_tracked", reused: false, open: true, targetDir: project });
    expect(result.sessionKey).toMatch(/^direct-session:\d+:dev$/);
    const [task] = rows<Json>(project, "SELECT * FROM tasks");
    expect(task).toMatchObject({ task_key: result.taskKey, task_kind: "live_session", status: "running", title: "Cart work", goal: "Ship the cart", session_key: result.sessionKey });
    expect(JSON.parse(task?.meta_json)).toMatchObject({ tool_session: "codex", path: project, plan_ref: null, child_pid: null, owner: "live" });
    const [run] = rows<Json>(project, "SELECT * FROM agent_runs");
    expect(run).toMatchObject({ run_key: result.runKey, agent_name: "@dev", source: "live", status: "running" });
    expect(rows<Json>(project, "SELECT event_type, message, phase FROM execution_events")).toEqual([{ event_type: "session_started", message: "Hello", phase: "live" }]);
    expect(readJson(runtime(project, ".sessions", "@dev.json"))).toMatchObject({ runKey: result.runKey, sessionKey: result.sessionKey, finished: false, owner: "live" });
    const state = readJson(sessionFile(project, result.sessionKey, "state.json"));
    expect(state).toMatchObject({ phase: "active", tool_session: "codex", active_agent: "@dev", current_run_key: result.runKey, owner: "live" });
    expect(state.stats.events_total).toBe(1);
    const line = JSON.parse(readFileSync(sessionFile(project, result.sessionKey, "events.ndjson"), "utf8").trim());
    expect(line).toMatchObject({ type: "session_started", summary: "Hello", agent: "dev", run_key: result.runKey, session_key: result.sessionKey });
  });

  test("default agent product, default message, --session key", () => {
    const project = tempProject();
    const result = start(project, "--tool=opencode", "--session=my-session");
    expect(result.agent).toBe("@product");
    expect(result.sessionKey).toBe("my-session");
    expect(rows<Json>(project, "SELECT message FROM execution_events")[0]?.message).toBe("Live session started for @product with opencode");
  });

  test("the same tool reuses the open session", () => {
    const project = tempProject();
    const first = start(project, "--tool=claude", "--agent=dev");
    const second = start(project, "--tool=claude", "--agent=dev");
    expect(second).toMatchObject({ reused: true, runKey: first.runKey, sessionKey: first.sessionKey, taskKey: first.taskKey });
    expect(rows(project, "SELECT * FROM agent_runs")).toHaveLength(1);
  });

  test("(120) a different tool auto-closes the open session and starts a new one", () => {
    const project = tempProject();
    const first = start(project, "--tool=codex", "--agent=dev");
    const second = start(project, "--tool=claude", "--agent=dev");
    expect(second.reused).toBe(false);
    expect(second.runKey).not.toBe(first.runKey);
    const [old] = rows<Json>(project, "SELECT * FROM agent_runs WHERE run_key = ?", first.runKey);
    expect(old?.status).toBe("completed");
    expect(old?.summary).toMatch(/tool changed from codex to claude/);
    expect(old?.finished_at).toBeTruthy();
    expect(rows<Json>(project, "SELECT status FROM tasks WHERE task_key = ?", first.taskKey)[0]?.status).toBe("completed");
    expect(rows<Json>(project, "SELECT message FROM execution_events WHERE run_key = ? AND event_type = 'session_closed'", first.runKey)[0]?.message).toBe(
      "Auto-closed: tool changed from codex to claude",
    );
    expect(readJson(runtime(project, ".sessions", "@dev.json")).runKey).toBe(second.runKey);
    expect(readJson(sessionFile(project, first.sessionKey, "state.json")).phase).toBe("closed");
  });

  test("a dead harness process auto-closes the open session", () => {
    const project = tempProject();
    const first = start(project, "--tool=claude", "--agent=dev");
    const statePath = sessionFile(project, first.sessionKey, "state.json");
    writeFileSync(statePath, JSON.stringify({ ...readJson(statePath), child_pid: deadPid() }));
    const second = start(project, "--tool=claude", "--agent=dev");
    expect(second.reused).toBe(false);
    expect(rows<Json>(project, "SELECT summary FROM agent_runs WHERE run_key = ?", first.runKey)[0]?.summary).toBe(
      "Auto-closed: previous process is no longer running",
    );
  });

  test("--plan: steps from a steps block and headings, de-duplicated; plan_ref project-relative", () => {
    const project = tempProject({
      "docs/plan.md": [
        "# Plan",
        "<!-- aioson:steps",
        "RF-01: Login",
        "RF-02: Logout",
        "-->",
        "### rf-01 - Login again",
        "#### Fase 2.1: Deploy",
        "## AB-3 - too shallow",
      ].join("\n"),
    });
    const result = start(project, "--tool=claude", "--plan=docs/plan.md");
    const meta = JSON.parse(rows<Json>(project, "SELECT meta_json FROM tasks")[0]?.meta_json);
    expect(meta.plan_ref).toBe(join("docs", "plan.md"));
    expect(meta.plan_steps).toEqual([
      { id: "RF-01", title: "Login", done: false },
      { id: "RF-02", title: "Logout", done: false },
      { id: "Fase 2.1", title: "Deploy", done: false },
    ]);
    expect(readJson(sessionFile(project, result.sessionKey, "state.json")).stats.plan_steps_total).toBe(3);
    const missing = runAioson(["live:start", project, "--tool=claude", "--no-launch", "--plan=nope.md"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Plan file not found: nope.md");
  });

  test("option errors", () => {
    const project = tempProject();
    const bad = runAioson(["live:start", project, "--tool=vim", "--no-launch"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error: Unsupported live tool: vim");
    const json = runAioson(["live:start", project, "--tool=claude", "--json"]);
    expect(json.code).toBe(1);
    expect((json.json as Json).error.message).toBe("--json requires --no-launch for live:start because foreground launch is interactive.");
    const missingBin = runAioson(["live:start", project, "--tool=claude", "--tool-bin=aioson-no-such-harness"]);
    expect(missingBin.code).toBe(1);
    expect(missingBin.stderr).toContain("aioson-no-such-harness");
    expect(existsSync(runtime(project))).toBe(false);
  });

  test("launching exports AIOSON_LIVE_SESSION and AIOSON_AGENT and records the pid", () => {
    const project = tempProject();
    const bin = tempDir("aioson-bin-");
    const out = join(bin, "env.txt");
    writeFileSync(join(bin, "fake-harness"), `#!/bin/sh\necho "$AIOSON_LIVE_SESSION|$AIOSON_AGENT|$$" > "${out}"\n`);
    chmodSync(join(bin, "fake-harness"), 0o755);
    const run = runAioson(["live:start", project, "--tool=claude", "--agent=qa", "--tool-bin=fake-harness"], {
      env: { PATH: `${bin}:${process.env.PATH ?? ""}` },
    });
    expect(run.code).toBe(0);
    const [session, agent, pid] = readFileSync(out, "utf8").trim().split("|");
    const pointer = readJson(runtime(project, ".sessions", "@qa.json"));
    expect(session).toBe(pointer.sessionKey);
    expect(agent).toBe("qa");
    expect(readJson(sessionFile(project, pointer.sessionKey, "state.json")).child_pid).toBe(Number(pid));
    expect(JSON.parse(rows<Json>(project, "SELECT meta_json FROM tasks")[0]?.meta_json).child_pid).toBe(Number(pid));
  });
});

describe("live:status", () => {
  test("(113) after events: phase active, tool claude, recentEvents with an artifact", () => {
    const project = tempProject();
    start(project, "--tool=claude", "--agent=dev");
    runAioson(["runtime:emit", project, "--agent=dev", "--type=artifact", "--summary=Write: src/cart.ts"]);
    const run = runAioson(["live:status", project, "--agent=dev", "--json"]);
    expect(run.code).toBe(0);
    const status = run.json as Json;
    expect(status).toMatchObject({ ok: true, phase: "active", open: true, tool: "claude", agent: "@dev", processState: "not_tracked", pid: null, warning: null });
    expect(status.recentEvents.map((event: Json) => event.type)).toEqual(["session_started", "artifact"]);
    expect(status.recentEvents[1]).toEqual({ ts: expect.any(String), type: "artifact", summary: "Write: src/cart.ts" });
    expect(status.run.source).toBe("live");
    expect(status.task.task_kind).toBe("live_session");
  });

  test("(114) --watch with --json is refused", () => {
    const project = tempProject();
    runAioson(["runtime:init", project]);
    for (const args of [["--watch", "--json"], ["--json", "--watch=5"]]) {
      const run = runAioson(["live:status", project, ...args]);
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain("--watch cannot be combined with --json.");
    }
  });

  test("store missing is an error with the runtime:init hint", () => {
    const project = tempProject();
    const run = runAioson(["live:status", project]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Runtime store not found: ${runtime(project, "aios.sqlite")}. Run: aioson runtime:init`);
  });

  test("no session: idle snapshot", () => {
    const project = tempProject();
    runAioson(["runtime:init", project]);
    const status = runAioson(["live:status", project, "--agent=qa", "--json"]).json as Json;
    expect(status).toMatchObject({ phase: "idle", open: false, processState: "not_tracked", sessionKey: null, recentEvents: [], agent: "@qa", run: null });
    expect(status.stats).toEqual({ tasks_completed: 0, events_total: 0, plan_steps_done: 0, plan_steps_total: 0, events_by_type: {} });
    expect(runAioson(["live:status", project]).stdout).toContain("Live session: none\nPhase: idle\nTool: -\nActive agent: -\nProcess: not_tracked\n");
  });

  test("text layout, latest session without --agent, --limit, dead process warning, formats", () => {
    const project = tempProject({ "plan.md": "### RF-1 - One\n### RF-2 - Two\n" });
    const result = start(project, "--tool=codex", "--agent=dev", "--title=Cart", "--plan=plan.md");
    for (const n of [1, 2, 3]) runAioson(["runtime:emit", project, "--agent=dev", `--summary=note ${n}`]);
    const statePath = sessionFile(project, result.sessionKey, "state.json");
    const pid = deadPid();
    writeFileSync(statePath, JSON.stringify({ ...readJson(statePath), child_pid: pid }));
    const text = runAioson(["live:status", project]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 6)).toEqual([
      `Live session: ${result.sessionKey}`,
      "Phase: active",
      "Tool: codex",
      "Active agent: @dev",
      "Plan: 0/2",
      `Process: dead (pid ${pid})`,
    ]);
    expect(lines[6]).toBe(`Task: ${result.taskKey} | status: running | work: Cart`);
    expect(lines[7]).toBe(`Run: ${result.runKey} | status: running | work: Cart`);
    expect(lines[8]).toMatch(/^Started: \d{4}-/);
    expect(lines[9]).toMatch(/^Updated: \d{4}-/);
    expect(lines[10]).toBe("Warning: Process is dead while the live session is still open. Close it manually with `aioson live:close . --status=failed`.");
    expect(lines[11]).toBe("Recent events:");
    expect(lines.slice(12).map((line) => line.replace(/^- \S+ \| /, ""))).toEqual([
      "session_started | Live session started for @dev with codex",
      "note | note 1",
      "note | note 2",
      "note | note 3",
    ]);
    expect(runAioson(["live:status", project, "--format=compact"]).stdout).toContain(`@dev | active | ${result.sessionKey} | events 4 | plan 0/2`);
    expect(runAioson(["live:status", project, "--format=tmux-bar"]).stdout.trim()).toBe("aioson @dev active 0/2 dead");
    // Without state.json the events come from the store: the last --limit rows, oldest first.
    rmSync(statePath);
    const fromDb = runAioson(["live:status", project, "--agent=dev", "--limit=2", "--json"]).json as Json;
    expect(fromDb.recentEvents.map((event: Json) => event.summary)).toEqual(["note 2", "note 3"]);
    expect(fromDb.stats).toMatchObject({ events_total: 4, plan_steps_total: 2, events_by_type: { session_started: 1, note: 3 } });
  });

  test("--watch reprints until SIGTERM, then exits 0", async () => {
    const project = tempProject();
    start(project, "--tool=claude", "--agent=dev");
    const home = tempDir("aioson-home-");
    const child = Bun.spawn([join(import.meta.dir, "..", "dist", "aioson"), "live:status", project, "--watch=0.2"], { env: { ...process.env, HOME: home }, stdout: "pipe" });
    await Bun.sleep(700);
    child.kill("SIGTERM");
    const code = await child.exited;
    const out = await new Response(child.stdout).text();
    expect(code).toBe(0);
    expect(out.split("Live session: ").length - 1).toBeGreaterThanOrEqual(2);
  });
});

describe("agent:done", () => {
  test("--agent is required", () => {
    const run = runAioson(["agent:done", tempProject()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Error: --agent is required");
  });

  test("open session: agent_done appended, artifacts attached, session stays open", () => {
    const project = tempProject();
    const session = start(project, "--tool=claude", "--agent=dev");
    const run = runAioson(["agent:done", project, "--agent=dev", "--summary=Cart done", "--verdict=pass", "--plan-step=RF-01", "--artifacts=src/cart.ts, docs/cart.md", "--json"]);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ ok: true, targetDir: project, dbPath: runtime(project, "aios.sqlite"), agent: "@dev", mode: "live_event", runKey: session.runKey });
    const [event] = rows<Json>(project, "SELECT * FROM execution_events WHERE event_type = 'agent_done'");
    expect(event).toMatchObject({ run_key: session.runKey, phase: "live", status: "running", message: "Cart done", verdict: "PASS", plan_step_id: "RF-01" });
    expect(rows<Json>(project, "SELECT kind, file_path, run_key FROM artifacts ORDER BY id")).toEqual([
      { kind: "output", file_path: "src/cart.ts", run_key: session.runKey },
      { kind: "output", file_path: "docs/cart.md", run_key: session.runKey },
    ]);
    expect(rows<Json>(project, "SELECT status FROM agent_runs")[0]?.status).toBe("running");
    expect(existsSync(runtime(project, ".sessions", "@dev.json"))).toBe(true);
    const state = readJson(sessionFile(project, session.sessionKey, "state.json"));
    expect(state.last_events.at(-1)).toMatchObject({ type: "agent_done", summary: "Cart done" });
    const text = runAioson(["agent:done", project, "--agent=dev"]);
    expect(text.stdout).toBe(`agent:done — @dev | live session active, event logged | run: ${session.runKey} (${runtime(project, "aios.sqlite")})\n`);
    expect(rows<Json>(project, "SELECT message FROM execution_events ORDER BY id DESC LIMIT 1")[0]?.message).toBe("@dev session completed");
  });

  test("no open session: a finished standalone task and run; --status=failed; stale pointer cleared", () => {
    const project = tempProject();
    const ok = runAioson(["agent:done", project, "--agent=qa", "--summary=Reviewed", "--verdict=fail", "--json"]);
    const result = ok.json as Json;
    expect(result).toMatchObject({ ok: true, mode: "standalone", agent: "@qa" });
    expect(rows<Json>(project, "SELECT event_type, phase, verdict FROM execution_events WHERE run_key = ? ORDER BY id", result.runKey)).toEqual([
      { event_type: "start", phase: "direct", verdict: null },
      { event_type: "agent_done", phase: "direct", verdict: "FAIL" },
      { event_type: "finished", phase: "direct", verdict: null },
    ]);
    expect(rows<Json>(project, "SELECT source, status, summary FROM agent_runs")[0]).toEqual({ source: "direct", status: "completed", summary: "Reviewed" });
    expect(rows<Json>(project, "SELECT title, status FROM tasks")[0]).toEqual({ title: "@qa", status: "completed" });

    const session = start(project, "--tool=claude", "--agent=dev");
    // Close the run behind the pointer's back: the pointer becomes stale.
    const db = openDbFile(runtime(project, "aios.sqlite"));
    db.query("UPDATE agent_runs SET status = 'completed' WHERE run_key = ?").run(session.runKey);
    db.close();
    const failed = runAioson(["agent:done", project, "--agent=dev", "--status=failed", "--title=Broken build"]);
    expect(failed.stdout).toMatch(/^agent:done — @dev \| task: task-broken-build-\d+ \| run: dev-\d+ \(/);
    expect(rows<Json>(project, "SELECT status FROM tasks WHERE title = 'Broken build'")[0]?.status).toBe("failed");
    expect(rows<Json>(project, "SELECT event_type FROM execution_events ORDER BY id DESC LIMIT 1")[0]?.event_type).toBe("failed");
    expect(existsSync(runtime(project, ".sessions", "@dev.json"))).toBe(false);
    expect(runAioson(["agent:done", project, "--agent=dev", "--status=weird"]).stderr).toContain("Invalid --status: weird");
  });
});
