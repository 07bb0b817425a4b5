/**
 * Issue 16: every read a hook or a status command makes of the event log goes through an index and reads a bounded
 * window. The statements are captured as the modules prepare them (the recap, live:status, runtime:status,
 * context:guard's agent lookup, context:usage, the task-plan fold, context-save, the prune's walk), then planned on
 * a store made by this version without statistics, as real stores are (the plan is the same at 10 rows and at a
 * million). No step may scan `execution_events` whole, and no LIMIT may come after sorting all the rows an index
 * found; the few plans that walk an index in order stop at their LIMIT and are listed with the reason. Also: a store of the previous schema gains every index of this one.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { previousTasks } from "../../src/emit/task-plan.ts";
import { latestBriefAgent } from "../../src/guard/agent.ts";
import { sessionRows } from "../../src/kit/context-save.ts";
import { liveSnapshot } from "../../src/live/status.ts";
import { harnessSessionRows, latestHarnessSession, legacyRunRows } from "../../src/recap/rows.ts";
import { runtimeStatus } from "../../src/runtime/status.ts";
import { closeStore, openStore } from "../../src/store/db.ts";
import { pruneStore } from "../../src/store/prune.ts";
import { LATE_INDEXES, SCHEMA_VERSION } from "../../src/store/schema.ts";
import { buildReport } from "../../src/usage/report.ts";
import { cleanupTemp, runAioson, tempProject } from "../helpers.ts";
import { HooksRecorder } from "../recap-helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

/**
 * Statements whose listed steps are bounded all the same: a walk of an index in its order that stops at its LIMIT,
 * a partial index holding only the rows asked for, one count for a person.
 */
const SCAN = /^SCAN /;
const ANY = /./;
const EXCUSED: ReadonlyArray<[statement: RegExp, steps: RegExp, reason: string]> = [
  [/^SELECT .* FROM execution_events\s+ORDER BY execution_events\.created_at DESC, execution_events\.id DESC LIMIT/, SCAN, "runtime:status's newest 40 events: idx_execution_events_created from its end"],
  [/^SELECT e\.harness_session_id AS id FROM execution_events e WHERE e\.harness_session_id IS NOT NULL AND/, SCAN, "the session that recorded last: the newest rows, backwards, to the first live one with an id"],
  [/^SELECT run_key FROM execution_events WHERE run_key IS NOT NULL ORDER BY id DESC LIMIT 1/, SCAN, "context-save's latest run: the newest row with a run"],
  [/^SELECT id, run_key, task_key, harness_session_id, event_type, source, created_at FROM execution_events\s+WHERE created_at >= \$at/, SCAN, "the prune's walk: idx_execution_events_created from its cursor, a page at a time"],
  [/^SELECT .* FROM execution_events WHERE event_type LIKE '%handoff%'/, ANY, "the recent handoffs: the partial handoff index holds only them"],
  [/^SELECT COUNT\(\*\) AS n FROM execution_events$/, SCAN, "runtime:prune's report of the events kept: one count after the work, for the person who ran it"],
];

function seed(project: string): void {
  const r = new HooksRecorder(project, "dev");
  try {
    for (let i = 0; i < 40; i++) {
      const sid = i % 3 === 0 ? "S" : "T";
      r.write(sid, `src/f${i % 7}.ts`);
      r.bash(sid, ["npm test", "make"][i % 2] as string, { outcome: i % 4 ? "passed" : "failed", exitCode: i % 4 ? 0 : 1, testRunner: i % 2 === 0 });
      if (i % 10 === 0) r.compacted(sid);
      if (i % 9 === 0) r.runtime("milestone", `note ${i}`);
      if (i % 5 === 0) r.plan(sid, [[`p${i}`, "completed"]]);
    }
    r.stop("S", "done");
  } finally {
    r.close();
  }
}

function capture(work: () => void | Promise<void>): Promise<Set<string>> {
  const seen = new Set<string>();
  const original = Database.prototype.query;
  Database.prototype.query = function (this: Database, sql: string) {
    if (/\bexecution_events\b/.test(sql) && !/^\s*(INSERT|UPDATE|DELETE|PRAGMA|CREATE)\b/i.test(sql)) seen.add(sql.trim());
    return original.call(this, sql);
  } as typeof original;
  return Promise.resolve(work()).then(
    () => {
      Database.prototype.query = original;
      return seen;
    },
    (error: unknown) => {
      Database.prototype.query = original;
      throw error;
    },
  );
}

type Step = { id: number; parent: number; detail: string };

function plan(db: Database, sql: string): Step[] {
  const statement = db.query(`EXPLAIN QUERY PLAN ${sql}`);
  return statement.all(...Array(statement.paramsCount).fill(null)) as Step[];
}

const EVENTS = /^(SCAN|SEARCH) (execution_events|e)\b/;

/**
 * The steps that read more of execution_events than the answer needs: a scan of the table or of an index, and a
 * sort of the rows an index search found (a LIMIT applied after it reads every match first); a sort of a
 * subquery's result or of another table is no such step.
 */
function unbounded(steps: readonly Step[], limited: boolean): string[] {
  /** The reads of the same query as `step`: its siblings and what they are made of, not the subqueries'. */
  const reads = (parent: number): Step[] =>
    steps.filter((other) => other.parent === parent && !/^(CO-ROUTINE|CORRELATED|SCALAR|LIST) /.test(other.detail)).flatMap((other) => [other, ...reads(other.id)]);
  return steps
    .filter((step) => {
      if (/^SCAN (execution_events|e)\b/.test(step.detail)) return true;
      if (!limited || step.detail !== "USE TEMP B-TREE FOR ORDER BY") return false;
      return reads(step.parent).some((other) => EVENTS.test(other.detail));
    })
    .map((step) => step.detail);
}

describe("query plans at any size (issue 16)", () => {
  test("no read of the event log scans it: every statement reaches execution_events through an index", async () => {
    const project = tempProject();
    seed(project);
    const store = openStore(project) as NonNullable<ReturnType<typeof openStore>>;
    const db = store.db;
    const run = (db.query("SELECT run_key FROM agent_runs LIMIT 1").get() as { run_key: string }).run_key;
    const statements = await capture(async () => {
      harnessSessionRows(db, "S");
      latestHarnessSession(db);
      legacyRunRows(db, run);
      runtimeStatus(db, project, store.path);
      liveSnapshot(db, project, store.path, "dev", 8);
      liveSnapshot(db, project, store.path, null, 8);
      buildReport(project, db, 30, null);
      previousTasks(db, "S", run);
      previousTasks(db, null, run);
      sessionRows(db, "S");
      sessionRows(db, "");
      pruneStore(store, { olderThanMs: 3_600_000, dryRun: true });
      await latestBriefAgent(project);
    });
    expect(statements.size).toBeGreaterThan(25);
    const scans: Array<{ sql: string; steps: string[] }> = [];
    for (const sql of statements) {
      const excused = EXCUSED.find(([statement]) => statement.test(sql))?.[1];
      const steps = unbounded(plan(db, sql), /\bLIMIT\b/.test(sql)).filter((step) => !excused?.test(step));
      if (steps.length > 0) scans.push({ sql: sql.slice(0, 160), steps });
    }
    closeStore(store);
    expect(scans).toEqual([]);
  });

  test("a store of the previous schema gains every index of this one on its next write, keeping its rows", () => {
    const project = tempProject();
    expect(runAioson(["runtime:emit", project, "--agent=dev", "--summary=before"]).code).toBe(0);
    const path = join(project, ".aioson", "runtime", "aios.sqlite");
    const names = LATE_INDEXES.map((statement) => (/INDEX IF NOT EXISTS (\w+)/.exec(statement) as RegExpExecArray)[1] as string);
    // The store as the previous version left it: without the indexes this version adds.
    const added = names.filter((name) => /recap|source_type|unsessioned|handoff|tokens|_updated$/.test(name));
    expect(added).toHaveLength(11);
    const old = openDbFile(path);
    for (const name of added) old.exec(`DROP INDEX ${name}`);
    old.exec(`PRAGMA user_version = ${SCHEMA_VERSION - 1}`);
    old.close();
    expect(runAioson(["runtime:emit", project, "--agent=dev", "--summary=after"]).code).toBe(0);
    const db = openDbFile(path, { readonly: true });
    try {
      expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
      const present = new Set((db.query("SELECT name FROM sqlite_master WHERE type = 'index'").all() as Array<{ name: string }>).map((row) => row.name));
      expect(names.filter((name) => !present.has(name))).toEqual([]);
      expect((db.query("SELECT message FROM execution_events ORDER BY id").all() as Array<{ message: string }>).map((row) => row.message)).toEqual(["before", "after"]);
    } finally {
      db.close();
    }
  });
});
