import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, runAioson, tempDir, tempProject, testEnv } from "./helpers.ts";
import { openDbFile } from "../scripts/open-db.ts";

afterAll(cleanupTemp);

type Json = Record<string, any>;
const dbFile = (project: string): string => join(project, ".aioson", "runtime", "aios.sqlite");

/** The tables as the first AIOSON releases created them: none of the added columns, no indexes on them. */
const OLD_SCHEMA = `
CREATE TABLE tasks (task_key TEXT PRIMARY KEY, squad_slug TEXT, title TEXT NOT NULL, goal TEXT, meta_json TEXT,
  status TEXT NOT NULL, created_by TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT);
CREATE TABLE agent_runs (run_key TEXT PRIMARY KEY, task_key TEXT, agent_name TEXT NOT NULL,
  agent_kind TEXT NOT NULL DEFAULT 'official', squad_slug TEXT, workflow_id TEXT, workflow_stage TEXT, parent_run_key TEXT,
  title TEXT, status TEXT NOT NULL, summary TEXT, used_skills_json TEXT, output_path TEXT, started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, finished_at TEXT);
CREATE TABLE agent_events (id INTEGER PRIMARY KEY AUTOINCREMENT, run_key TEXT NOT NULL, event_type TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '', payload_json TEXT, created_at TEXT NOT NULL);
CREATE TABLE execution_events (id INTEGER PRIMARY KEY AUTOINCREMENT, task_key TEXT, run_key TEXT, agent_name TEXT,
  agent_kind TEXT, squad_slug TEXT, session_key TEXT, source TEXT, workflow_id TEXT, workflow_stage TEXT, parent_run_key TEXT,
  event_type TEXT NOT NULL, phase TEXT, status TEXT, tool_name TEXT, message TEXT NOT NULL DEFAULT '', payload_json TEXT,
  sequence_no INTEGER NOT NULL DEFAULT 1, parent_event_id INTEGER, created_at TEXT NOT NULL);
INSERT INTO tasks VALUES ('task-old-1', NULL, 'Old task', NULL, NULL, 'completed', 'dev', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', NULL);
INSERT INTO agent_runs (run_key, task_key, agent_name, status, started_at, updated_at) VALUES ('dev-1', 'task-old-1', 'dev', 'completed', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
INSERT INTO execution_events (task_key, run_key, agent_name, event_type, message, created_at) VALUES ('task-old-1', 'dev-1', 'dev', 'note', 'kept', '2025-01-01T00:00:00.000Z');
`;

function createStore(project: string, sql: string): void {
  mkdirSync(join(project, ".aioson", "runtime"), { recursive: true });
  const db = openDbFile(dbFile(project), { create: true });
  db.exec(sql);
  db.close();
}

/** Moves the WAL into the database and empties it, as a writer's close does past 512 KiB. */
function checkpoint(project: string): void {
  const db = openDbFile(dbFile(project));
  try {
    db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
  } finally {
    db.close();
  }
}

function columns(project: string, table: string): string[] {
  return rows<{ name: string }>(project, `PRAGMA table_info(${table})`).map((column) => column.name);
}

describe("store migrations", () => {
  test("an older store gains the added columns and keeps its rows; user_version set", () => {
    const project = tempProject();
    createStore(project, OLD_SCHEMA);
    const run = runAioson(["runtime:init", project, "--json"]);
    expect(run.code).toBe(0);
    expect(columns(project, "execution_events")).toEqual(
      expect.arrayContaining(["plan_step_id", "worker_status", "verdict", "token_count", "progress_pct", "harness_session_id", "harness", "duration_ms"]),
    );
    expect(rows<Json>(project, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'otel_export_%' ORDER BY name")).toEqual([{ name: "otel_export_cursors" }, { name: "otel_export_state" }]);
    expect(columns(project, "tasks")).toEqual(expect.arrayContaining(["task_kind", "parent_task_key", "session_key"]));
    expect(columns(project, "agent_runs")).toEqual(expect.arrayContaining(["session_key", "source"]));
    expect(rows<Json>(project, "SELECT source FROM agent_runs WHERE run_key = 'dev-1'")[0]?.source).toBe("direct");
    expect(rows<Json>(project, "SELECT message FROM execution_events")).toEqual([{ message: "kept" }]);
    expect(rows<Json>(project, "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('artifacts', 'content_items') ORDER BY name")).toHaveLength(2);
    expect(rows<Json>(project, "SELECT name FROM sqlite_master WHERE name = 'idx_execution_events_harness_session'")).toHaveLength(1);
    expect(rows<{ user_version: number }>(project, "PRAGMA user_version")[0]?.user_version).toBeGreaterThan(0);
    const status = runAioson(["runtime:status", project, "--json"]).json as Json;
    expect(status.recentEvents[0]).toMatchObject({ type: "note", summary: "kept", payload: null });
    expect(runAioson(["runtime:emit", project, "--agent=dev", "--verdict=ok", "--json"]).code).toBe(0);
  });

  test("a store another AIOSON tool versioned (user_version 4) without aioson's columns still gains them: every write lands", () => {
    const project = tempProject();
    createStore(project, `${OLD_SCHEMA}\nPRAGMA user_version = 4;`);
    const run = runAioson(["runtime:emit", project, "--agent=dev", "--type=note", "--summary=after", "--json"]);
    expect(run.code).toBe(0);
    expect(columns(project, "execution_events")).toEqual(expect.arrayContaining(["plan_step_id", "harness_session_id", "harness", "duration_ms"]));
    expect(rows<Json>(project, "SELECT name FROM sqlite_master WHERE name = 'idx_execution_events_harness_session'")).toHaveLength(1);
    expect(rows<Json>(project, "SELECT message FROM execution_events ORDER BY id").map((row) => row.message)).toContain("kept");
    expect(rows<Json>(project, "SELECT COUNT(*) AS n FROM execution_events WHERE message = 'after'")[0]?.n).toBe(1);
    // The other tool's version is left as it was.
    expect(rows<{ user_version: number }>(project, "PRAGMA user_version")[0]?.user_version).toBe(4);
    const hook = runAioson(["hooks:emit", project, "--agent=dev"], { stdin: JSON.stringify({ hook_event_name: "PostToolUse", session_id: "s-1", tool_name: "Write", tool_input: { file_path: join(project, "a.ts"), content: "x" }, tool_response: {} }) });
    expect(hook.code).toBe(0);
    expect(rows<Json>(project, "SELECT COUNT(*) AS n FROM execution_events WHERE harness_session_id = 's-1'")[0]?.n).toBeGreaterThan(0);
  });

  test("unknown tables and extra columns are tolerated and left alone", () => {
    const project = tempProject();
    runAioson(["runtime:init", project]);
    const db = openDbFile(dbFile(project));
    db.exec("CREATE TABLE squads (slug TEXT PRIMARY KEY, note TEXT); INSERT INTO squads VALUES ('s', 'n');");
    db.exec("ALTER TABLE execution_events ADD COLUMN future_column TEXT DEFAULT 'x'");
    db.exec("ALTER TABLE tasks ADD COLUMN future_flag INTEGER");
    db.close();
    expect(runAioson(["runtime:init", project]).code).toBe(0);
    const emit = runAioson(["runtime:emit", project, "--agent=dev", "--summary=still works", "--json"]);
    expect(emit.code).toBe(0);
    expect(rows<Json>(project, "SELECT future_column FROM execution_events")[0]?.future_column).toBe("x");
    expect(rows<Json>(project, "SELECT note FROM squads")).toEqual([{ note: "n" }]);
    expect((runAioson(["runtime:status", project, "--json"]).json as Json).recentEvents[0].future_column).toBe("x");
  });
});

describe("store concurrency and crashes", () => {
  test("cold start: 32 parallel runtime:emit create the store once and keep all 32 events", async () => {
    const project = tempProject();
    const home = tempDir("aioson-home-");
    const children = Array.from({ length: 32 }, (_, i) =>
      Bun.spawn([BINARY, "runtime:emit", project, "--agent=dev", `--summary=event ${i}`], { env: testEnv(home), stdout: "pipe", stderr: "pipe" }),
    );
    const codes = await Promise.all(children.map((child) => child.exited));
    const errors = await Promise.all(children.map((child) => new Response(child.stderr).text()));
    expect(errors.filter(Boolean)).toEqual([]);
    expect(codes.every((code) => code === 0)).toBe(true);
    const messages = rows<{ message: string }>(project, "SELECT message FROM execution_events").map((row) => row.message).sort();
    expect(messages).toEqual(Array.from({ length: 32 }, (_, i) => `event ${i}`).sort());
    expect(rows(project, "SELECT DISTINCT run_key FROM agent_runs")).toHaveLength(32);
    expect(rows(project, "SELECT DISTINCT task_key FROM tasks")).toHaveLength(32);
  });

  test("parallel writers into one live session: every event, unique sequence numbers, whole ndjson lines", async () => {
    const project = tempProject();
    const home = tempDir("aioson-home-");
    const session = runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", "--json"]).json as Json;
    const children = Array.from({ length: 16 }, (_, i) =>
      Bun.spawn([BINARY, "runtime:emit", project, "--agent=dev", `--summary=${"y".repeat(300)} ${i}`], { env: testEnv(home), stdout: "ignore", stderr: "ignore" }),
    );
    expect(await Promise.all(children.map((child) => child.exited))).toEqual(Array(16).fill(0));
    const sequences = rows<{ sequence_no: number }>(project, "SELECT sequence_no FROM execution_events WHERE run_key = ? ORDER BY sequence_no", session.runKey);
    expect(sequences.map((row) => row.sequence_no)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    const file = join(project, ".aioson", "runtime", "live", String(session.sessionKey).replaceAll(":", "__"), "events.ndjson");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(17);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  test("a writer's close leaves its frames in the WAL (no checkpoint per hook) until the WAL passes 512 KiB", () => {
    const project = tempProject();
    const walFile = `${dbFile(project)}-wal`;
    // Events into a session: a standalone event also writes a task and a run, whose pages fill the WAL in two calls.
    expect(runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch"]).code).toBe(0);
    checkpoint(project);
    const sizes: number[] = [];
    for (let i = 0; i < 80 && !(sizes.length > 2 && sizes.at(-1) === 0); i++) {
      expect(runAioson(["runtime:emit", project, "--agent=dev", `--summary=${"z".repeat(2_000)} ${i}`]).code).toBe(0);
      sizes.push(statSync(walFile).size);
    }
    const truncatedAt = sizes.indexOf(0, 1);
    expect(truncatedAt).toBeGreaterThan(2);
    expect(sizes.slice(0, truncatedAt).every((size, i) => i === 0 || size > (sizes[i - 1] as number))).toBe(true);
    // The writer whose own commit takes the WAL past 512 KiB checkpoints it at its close.
    const last = sizes[truncatedAt - 1] as number;
    expect(last).toBeLessThan(512 * 1024);
    expect(2 * last - (sizes[truncatedAt - 2] as number)).toBeGreaterThanOrEqual(512 * 1024);
    const db = openDbFile(dbFile(project), { readonly: true });
    expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    expect((db.query("SELECT count(*) AS n FROM execution_events WHERE message LIKE 'zz%'").get() as { n: number }).n).toBe(sizes.length);
    db.close();
  });

  test("a writer killed with SIGKILL mid-write leaves a readable store; the next call works", async () => {
    const project = tempProject();
    const home = tempDir("aioson-home-");
    runAioson(["runtime:init", project]);
    for (let round = 0; round < 3; round++) {
      const writers = Array.from({ length: 4 }, (_, i) =>
        Bun.spawn([BINARY, "runtime:emit", project, "--agent=dev", `--summary=round ${round} writer ${i}`], { env: testEnv(home), stdout: "ignore", stderr: "ignore" }),
      );
      await Bun.sleep(5 + round * 7);
      for (const writer of writers) writer.kill("SIGKILL");
      await Promise.all(writers.map((writer) => writer.exited));
    }
    const db = openDbFile(dbFile(project), { readonly: true });
    expect((db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    db.close();
    const next = runAioson(["runtime:emit", project, "--agent=dev", "--summary=after the crash", "--json"]);
    expect(next.code).toBe(0);
    expect(rows<Json>(project, "SELECT message FROM execution_events ORDER BY id DESC LIMIT 1")[0]?.message).toBe("after the crash");
    for (const event of rows<Json>(project, "SELECT run_key FROM execution_events")) {
      expect(rows(project, "SELECT 1 FROM agent_runs WHERE run_key = ?", event.run_key)).toHaveLength(1);
    }
  });
});
