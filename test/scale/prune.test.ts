/**
 * Issue 16 item 3: `aioson runtime:prune [dir] [--older-than=<duration>] [--dry-run] [--json]`. It removes what is
 * older than the retention period without touching what an open session, a recap or context:usage still reads, gives
 * the space back (incremental vacuum on a store this version made, `--vacuum` for an older one), writes nothing in a
 * dry run, and races live hook writes without losing one of them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore, withStoreTransaction } from "../../src/store/db.ts";
import { appendRunEvent, insertStandaloneEvent, startRun, startTask, updateRunRow, updateTask } from "../../src/store/records.ts";
import { buildBigStore } from "../../scripts/big-store.ts";
import { BINARY, cleanupTemp, rows, runAioson, tempDir, tempProject, testEnv } from "../helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const dbFile = (project: string) => join(project, ".aioson", "runtime", "aios.sqlite");
/** A payload of about 2 KB, so removing a few thousand rows frees pages worth measuring. */
const BULK = "x".repeat(2_000);

type Json = Record<string, unknown>;
type Report = { removed: { events: number; harnessSessions: number; runs: number; tasks: number; agentEvents: number }; remaining: { events: number }; bytes: { before: number; after: number }; vacuum: string; dryRun: boolean };

/**
 * A project of two months: an open hooks run whose harness sessions OLD1 and OLD2 stopped more than 30 days ago and
 * LONG started 40 days ago and recorded yesterday; runtime notes without a session id before and after LONG began;
 * briefs 40 and 20 days old; a closed direct run 50 days old and one 10 days old (with an artifact); a closed live
 * session with a micro-task, 45 days old; an open live session idle for 40 days.
 */
function seed(project: string): { hooksRun: string; idleRun: string } {
  const store = openStore(project);
  if (!store) throw new Error("no store");
  const db = store.db;
  db.exec("PRAGMA synchronous = OFF");
  try {
    return withStoreTransaction(store, () => {
      const event = (run: string, at: string, type: string, message: string, session: string | null, payload: Json = {}) =>
        appendRunEvent(db, run, { eventType: type, message, phase: "live", at, harnessSessionId: session, payload: { ...payload, ...(session ? { written_by: "hooks:emit", harness_session_id: session } : {}) } });
      const hooksTask = startTask(db, { title: "[hooks] dev via claude", sessionKey: "hooks-dev-1", taskKind: "live_session", meta: { owner: "hooks", auto_started: true }, at: ago(60) });
      const hooksRun = startRun(db, { taskKey: hooksTask, agentName: "@dev", sessionKey: "hooks-dev-1", source: "live", at: ago(60), firstEvent: { eventType: "session_started", message: "Auto-started by hooks:emit (claude)", phase: "live", harnessSessionId: "OLD1", at: ago(60) } }).runKey;
      const idleTask = startTask(db, { title: "[live] qa", sessionKey: "direct-session:1:qa", taskKind: "live_session", meta: { owner: "live" }, at: ago(40) });
      const idleRun = startRun(db, { taskKey: idleTask, agentName: "@qa", sessionKey: "direct-session:1:qa", source: "live", at: ago(40) }).runKey;
      for (let i = 0; i < 30; i++) event(idleRun, ago(40), "note", `idle note ${i}`, null);
      for (let i = 0; i < 400; i++) event(hooksRun, ago(60 - i / 100), "artifact", `Write: src/old1-${i}.ts`, "OLD1", { tool: "Write", file: `src/old1-${i}.ts`, bulk: BULK });
      event(hooksRun, ago(50), "milestone", "runtime note before LONG", null);
      for (let i = 0; i < 400; i++) event(hooksRun, ago(45 - i / 100), "step_done", `$ npm test ${i}`, "OLD2", { tool: "Bash", command: "npm test", outcome: i % 2 ? "passed" : "failed", test_runner: true, bulk: BULK });
      insertStandaloneEvent(db, { source: "context_guard", eventType: "guard_injected", message: "Injected 1 rule", payload: { file: "src/a.ts", rules: [], violations: [], harness_session_id: "OLD2" }, harnessSessionId: "OLD2", at: ago(41) });
      event(hooksRun, ago(40), "agent_activated", "Agent activated: @dev", "LONG", { agent: "dev", via: "prompt" });
      event(hooksRun, ago(35), "milestone", "runtime note after LONG began", null);
      for (let i = 0; i < 50; i++) event(hooksRun, ago(39 - i * 0.7), i % 3 ? "artifact" : "step_done", `long ${i}`, "LONG", i % 3 ? { tool: "Edit", file: `src/long-${i % 7}.ts` } : { tool: "Bash", command: `make ${i % 4}`, outcome: i % 2 ? "passed" : "failed", test_runner: false });
      event(hooksRun, ago(1), "compaction", "Compaction (auto)", "LONG", { trigger: "auto" });
      for (const days of [40, 20]) insertStandaloneEvent(db, { source: "context_brief", eventType: "brief_built", agentName: "@dev", message: `brief ${days}`, payload: { must_load: ["docs/a.md"], should_load: [] }, at: ago(days) });
      for (const days of [50, 10]) {
        const task = startTask(db, { title: `agent:done @qa ${days}`, status: "completed", taskKind: "runtime_event", at: ago(days) });
        const run = startRun(db, { taskKey: task, agentName: "@qa", source: "direct", status: "completed", at: ago(days), firstEvent: { eventType: "agent_done", message: `done ${days}`, phase: "direct", at: ago(days) } }).runKey;
        if (days === 10) db.query("INSERT INTO artifacts (task_key, run_key, agent_name, kind, file_path, created_at) VALUES (?, ?, '@qa', 'file', 'docs/x.md', ?)").run(task, run, ago(days));
      }
      const liveTask = startTask(db, { title: "[live] planner", sessionKey: "direct-session:2:planner", taskKind: "live_session", at: ago(46) });
      const liveRun = startRun(db, { taskKey: liveTask, agentName: "@planner", sessionKey: "direct-session:2:planner", source: "live", at: ago(46) }).runKey;
      startTask(db, { title: "micro", taskKind: "micro_task", parentTaskKey: liveTask, status: "completed", at: ago(45) });
      event(liveRun, ago(45), "task_completed", "micro done", null);
      updateRunRow(db, liveRun, { status: "completed", summary: "closed", at: ago(45) });
      updateTask(db, liveTask, { status: "completed", at: ago(45) });
      return { hooksRun, idleRun };
    });
  } finally {
    closeStore(store);
  }
}

function prune(project: string, ...flags: string[]): Report {
  const result = runAioson(["runtime:prune", project, "--json", ...flags]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return result.json as Report;
}

function snapshot(project: string): Json {
  return {
    events: rows(project, "SELECT * FROM execution_events ORDER BY id"),
    runs: rows(project, "SELECT * FROM agent_runs ORDER BY run_key"),
    tasks: rows(project, "SELECT * FROM tasks ORDER BY task_key"),
    mirror: rows(project, "SELECT COUNT(*) AS n FROM agent_events"),
  };
}

function messages(project: string): string[] {
  return rows<{ message: string }>(project, "SELECT message FROM execution_events ORDER BY id").map((row) => row.message);
}

describe("runtime:prune", () => {
  test("a dry run counts exactly what the prune then removes, and writes nothing", () => {
    const project = tempProject();
    seed(project);
    const before = snapshot(project);
    const bytes = statSync(dbFile(project)).size;
    const dry = prune(project, "--dry-run", "--older-than=30d");
    expect(dry.dryRun).toBe(true);
    expect(snapshot(project)).toEqual(before);
    expect(statSync(dbFile(project)).size).toBe(bytes);
    const real = prune(project, "--older-than=30d");
    expect(real.removed).toEqual(dry.removed);
    expect(real.remaining).toEqual(dry.remaining);
    expect(real.removed).toMatchObject({ harnessSessions: 2, runs: 2, tasks: 3 });
    expect(rows(project, "SELECT COUNT(*) AS n FROM execution_events")[0]).toEqual({ n: real.remaining.events });
    // A second prune finds nothing more.
    expect(prune(project, "--older-than=30d").removed).toEqual({ events: 0, harnessSessions: 0, runs: 0, tasks: 0, agentEvents: 0 });
  });

  test("what it keeps: active sessions whole, their run's later notes, open runs and their tail, context:usage's 30 days", () => {
    const project = tempProject();
    const { hooksRun, idleRun } = seed(project);
    const recapBefore = runAioson(["hooks:recap", project, "--when=always", "--session=LONG"]).stdout;
    const usageBefore = runAioson(["context:usage", project, "--json"]).json;
    prune(project, "--older-than=7d");
    const kept = messages(project);
    // Expired harness sessions, with their standalone guard rows, are gone; the active one is whole.
    expect(kept.some((m) => m.startsWith("Write: src/old1-") || m.startsWith("$ npm test") || m === "Injected 1 rule")).toBe(false);
    expect(rows(project, "SELECT COUNT(*) AS n FROM execution_events WHERE harness_session_id = 'LONG'")[0]).toEqual({ n: 52 });
    // A recap of the active session reads its run's notes from its first row on: those stay, the earlier one goes.
    expect(kept).toContain("runtime note after LONG began");
    expect(kept).not.toContain("runtime note before LONG");
    expect(runAioson(["hooks:recap", project, "--when=always", "--session=LONG"]).stdout).toBe(recapBefore);
    // An open session idle for 40 days keeps its newest 20 events (live:status shows them) and its rows.
    expect(rows(project, "SELECT COUNT(*) AS n FROM execution_events WHERE run_key = ?", idleRun)[0]).toEqual({ n: 20 });
    expect(rows(project, "SELECT status FROM agent_runs WHERE run_key IN (?, ?) ORDER BY run_key", hooksRun, idleRun)).toEqual([{ status: "running" }, { status: "running" }]);
    // context:usage's default 30 days are untouched by a 7-day retention.
    expect(kept).toContain("brief 20");
    expect(kept).not.toContain("brief 40");
    expect(runAioson(["context:usage", project, "--json"]).json).toEqual(usageBefore);
    // Closed runs: the old one goes with its task, the recent one (with an artifact) stays; the closed live
    // session goes with its micro-task.
    expect(rows<{ title: string }>(project, "SELECT title FROM tasks ORDER BY title").map((row) => row.title)).toEqual(["[hooks] dev via claude", "[live] qa", "agent:done @qa 10"]);
  });

  test("space is given back: the file shrinks on a store made by this version, and with --vacuum on an older one", () => {
    const project = tempProject();
    seed(project);
    const report = prune(project, "--older-than=30d");
    expect(report.vacuum).toBe("incremental");
    expect(report.bytes.after).toBeLessThan(report.bytes.before * 0.6);
    expect(statSync(dbFile(project)).size).toBe(report.bytes.after);
    const db = openDbFile(dbFile(project), { readonly: true });
    expect((db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count).toBe(0);
    expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    db.close();

    // A store created before incremental vacuum: the pages are freed for reuse; --vacuum gives them back once.
    const older = tempProject();
    mkdirSync(join(older, ".aioson", "runtime"), { recursive: true });
    const raw = openDbFile(dbFile(older), { create: true });
    raw.exec("PRAGMA journal_mode = WAL; CREATE TABLE keep_me (x)");
    raw.close();
    seed(older);
    const reused = prune(older, "--older-than=30d");
    expect(reused.vacuum).toBe("none");
    expect(reused.bytes.after).toBeGreaterThan(reused.bytes.before * 0.9);
    const text = runAioson(["runtime:prune", older]).stdout;
    expect(text).toContain("--vacuum");
    const vacuumed = prune(older, "--older-than=30d", "--vacuum");
    expect(vacuumed.vacuum).toBe("full");
    expect(vacuumed.bytes.after).toBeLessThan(reused.bytes.after * 0.6);
    const after = openDbFile(dbFile(older), { readonly: true });
    expect((after.query("PRAGMA auto_vacuum").get() as { auto_vacuum: number }).auto_vacuum).toBe(2);
    after.close();
  });

  test("events an OpenTelemetry destination still exporting has not taken stay; a destination silent for the period is given up", () => {
    const project = tempProject();
    seed(project);
    const ids = rows<{ id: number; message: string }>(project, "SELECT id, message FROM execution_events ORDER BY id");
    const sentUpTo = (ids.find((row) => row.message === "Write: src/old1-199.ts") as { id: number }).id;
    const cursors = openDbFile(dbFile(project));
    const cursor = cursors.query("INSERT INTO otel_export_cursors (destination, signal, last_event_id, updated_at) VALUES (?, ?, ?, ?)");
    cursor.run("collector-down", "traces", sentUpTo, ago(0.5));
    cursor.run("abandoned", "logs", 3, ago(40));
    cursors.close();
    prune(project, "--older-than=30d");
    const kept = messages(project);
    expect(kept).not.toContain("Write: src/old1-199.ts");
    expect(kept).toContain("Write: src/old1-200.ts");
    expect(kept).toContain("runtime note before LONG");
    expect(rows(project, "SELECT 1 FROM execution_events WHERE id <= ? AND harness_session_id = 'OLD1'", sentUpTo)).toEqual([]);
  });

  test("bad input: an unknown duration, no store (nothing created)", () => {
    const project = tempProject();
    const bad = runAioson(["runtime:prune", project, "--older-than=soon"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid --older-than: soon");
    const missing = runAioson(["runtime:prune", project, "--json"]);
    expect(missing.code).toBe(1);
    expect(missing.json).toMatchObject({ ok: false, error: "store_missing" });
    expect(() => statSync(dbFile(project))).toThrow();
  });

  test("a prune racing live hook writes loses none of them and removes only expired sessions", async () => {
    const project = tempProject();
    // 30,000 events of ten weeks ago, in an open hooks run, then a harness session active now in the same run.
    buildBigStore(project, { events: 30_000, now: Date.now() - 70 * DAY });
    const home = tempDir("aioson-home-");
    const env = testEnv(home);
    const write = (i: number) =>
      JSON.stringify({ session_id: "ACTIVE", cwd: project, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, `src/live-${i}.ts`), content: "x" }, tool_response: {} });
    const emit = async (i: number) => {
      const child = Bun.spawn([BINARY, "hooks:emit", project, "--agent=dev"], { env, stdin: new TextEncoder().encode(write(i)), stdout: "ignore", stderr: "ignore" });
      return child.exited;
    };
    expect(await emit(0)).toBe(0);
    const recapBefore = runAioson(["hooks:recap", project, "--when=always", "--session=ACTIVE"]).stdout;
    const newestBefore = (rows<{ id: number }>(project, "SELECT MAX(id) AS id FROM execution_events")[0] as { id: number }).id;
    const pruner = Bun.spawn([BINARY, "runtime:prune", project, "--json"], { env, stdout: "pipe", stderr: "pipe" });
    let done = false;
    void pruner.exited.then(() => {
      done = true;
    });
    let sent = 1;
    const codes: number[] = [];
    // Four writers at once until the prune is over (and at least 40 events).
    while (!done || sent < 40) {
      const batch = [sent, sent + 1, sent + 2, sent + 3];
      sent += 4;
      codes.push(...(await Promise.all(batch.map(emit))));
    }
    expect(await pruner.exited).toBe(0);
    const report = JSON.parse(await new Response(pruner.stdout).text()) as Report;
    expect(codes.every((code) => code === 0)).toBe(true);
    // Every event written during the prune is in the store, with the active session's first one.
    const files = rows<{ file: string }>(project, "SELECT json_extract(payload_json, '$.file') AS file FROM execution_events WHERE harness_session_id = 'ACTIVE'");
    expect(new Set(files.map((row) => row.file))).toEqual(new Set(Array.from({ length: sent }, (_, i) => `src/live-${i}.ts`)));
    // Everything else was older than 30 days: every expired session went, the run stays open with its tail.
    expect(report.removed.harnessSessions).toBeGreaterThan(50);
    // Of the expired sessions only the open run's newest rows of when the prune began are left (its tail).
    const leftover = rows<{ id: number }>(project, "SELECT id FROM execution_events WHERE harness_session_id IS NOT NULL AND harness_session_id <> 'ACTIVE'");
    expect(leftover.length).toBeLessThan(20);
    expect(leftover.every((row) => row.id > newestBefore - 20)).toBe(true);
    expect(rows(project, "SELECT status FROM agent_runs WHERE status = 'running'")).toHaveLength(1);
    expect(recapBefore).toContain("src/live-0.ts");
    expect(runAioson(["hooks:recap", project, "--when=always", "--session=ACTIVE"]).stdout).toContain(`src/live-${sent - 1}.ts`);
    expect(rows(project, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
  }, 60_000);
});

describe("automatic prune", () => {
  const marker = (project: string) => join(project, ".aioson", "runtime", "prune.next");
  const nextPrune = (project: string) => Number(readFileSync(marker(project), "utf8"));
  const userConfig = (home: string, config: unknown) => {
    mkdirSync(join(home, ".config", "aioson"), { recursive: true });
    writeFileSync(join(home, ".config", "aioson", "config.json"), JSON.stringify(config));
  };

  test("a SessionEnd starts one detached prune a day; the hook does not wait for it", async () => {
    const project = tempProject();
    seed(project);
    const before = rows(project, "SELECT 1 FROM execution_events").length;
    const end = runAioson(["hooks:emit", project, "--agent=dev", "--event=SessionEnd"], { stdin: JSON.stringify({ session_id: "LONG", cwd: project, reason: "exit" }) });
    expect(end.code).toBe(0);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && rows(project, "SELECT 1 FROM execution_events WHERE harness_session_id = 'OLD1'").length > 0) await Bun.sleep(50);
    expect(rows(project, "SELECT 1 FROM execution_events WHERE harness_session_id IN ('OLD1', 'OLD2')")).toEqual([]);
    expect(rows(project, "SELECT 1 FROM execution_events").length).toBeLessThan(before);
    const next = nextPrune(project);
    expect(Math.abs(next - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);
    // The next session end of the day starts none: the marker stays as the first prune left it.
    runAioson(["hooks:emit", project, "--agent=dev", "--event=SessionEnd"], { stdin: JSON.stringify({ session_id: "LONG", cwd: project }) });
    await Bun.sleep(1_500);
    expect(nextPrune(project)).toBe(next);
  });

  test("bounded work: one automatic run removes at most 20,000 events, and asks to go on soon", () => {
    const project = tempProject();
    buildBigStore(project, { events: 30_000, now: Date.now() - 70 * DAY });
    const before = rows(project, "SELECT 1 FROM execution_events").length;
    expect(runAioson(["runtime:prune", project, "--auto"]).code).toBe(0);
    const removed = before - rows(project, "SELECT 1 FROM execution_events").length;
    expect(removed).toBe(20_000);
    expect(Math.abs(nextPrune(project) - (Date.now() + 10 * 60_000))).toBeLessThan(60_000);
    expect(runAioson(["runtime:prune", project, "--auto"]).code).toBe(0);
    expect(rows(project, "SELECT 1 FROM execution_events WHERE created_at < ?", ago(30)).length).toBeLessThan(25);
  }, 60_000);

  test("the user decides: a longer retention, no automatic prune, and a section it cannot read prunes nothing", () => {
    for (const [config, kept] of [[{ retention: { days: 90 } }, true], [{ retention: { auto: false } }, true], [{ retention: { days: "a month" } }, true], [{}, false]] as const) {
      const project = tempProject();
      seed(project);
      const home = tempDir("aioson-home-");
      userConfig(home, config);
      expect(runAioson(["runtime:prune", project, "--auto"], { home }).stdout).toBe("");
      expect({ config, kept: rows(project, "SELECT 1 FROM execution_events WHERE harness_session_id = 'OLD1'").length > 0 }).toEqual({ config, kept });
      if (JSON.stringify(config).includes("a month")) expect(readFileSync(join(project, ".aioson", "runtime", "hooks.log"), "utf8")).toContain('not pruned: user config "retention"');
    }
  });
});
