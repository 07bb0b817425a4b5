/**
 * Issue 17 "Scale": no dashboard read scans the event log. Every statement of src/dashboard/queries.ts is planned
 * on a store made by the binary (no statistics, as in real stores) and each step of its plan must reach
 * `execution_events` through an index search, never by a scan of the table or of one of its indexes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { SQL } from "../../src/dashboard/queries.ts";
import { SCHEMA_VERSION } from "../../src/store/schema.ts";
import { cleanupTemp, runAioson, tempProject } from "../helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

describe("schema 2", () => {
  test("a store of schema 1 gains idx_execution_events_session_type on its next write, and keeps its rows", () => {
    const project = tempProject();
    expect(runAioson(["runtime:emit", project, "--agent=dev", "--summary=before"]).code).toBe(0);
    const path = join(project, ".aioson", "runtime", "aios.sqlite");
    const old = openDbFile(path);
    old.exec("DROP INDEX idx_execution_events_session_type; PRAGMA user_version = 1");
    old.close();
    expect(runAioson(["runtime:emit", project, "--agent=dev", "--summary=after"]).code).toBe(0);
    const db = openDbFile(path, { readonly: true });
    try {
      expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
      expect(db.query("SELECT sql FROM sqlite_master WHERE name = 'idx_execution_events_session_type'").get()).toEqual({
        sql: "CREATE INDEX idx_execution_events_session_type ON execution_events(harness_session_id, event_type, id)",
      });
      expect((db.query("SELECT message FROM execution_events ORDER BY id").all() as Array<{ message: string }>).map((r) => r.message)).toEqual(["before", "after"]);
    } finally {
      db.close();
    }
  });
});

function planOf(db: Database, sql: string): string[] {
  return (db.query(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail);
}

describe("dashboard query plans", () => {
  const project = tempProject();
  const init = runAioson(["runtime:init", project]);
  const db = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"), { readonly: true });

  test("the store was made by the binary", () => {
    expect(init.code).toBe(0);
  });

  for (const [name, sql] of Object.entries(SQL)) {
    test(`${name} reaches execution_events only through an index search`, () => {
      const plan = planOf(db, sql);
      const touches = plan.filter((step) => /\b(execution_events|e)\b/.test(step) && !/^(SCAN|SEARCH) (ids|a|w)\b/.test(step));
      const scans = plan.filter((step) => /^SCAN (execution_events|e)\b/.test(step));
      if (name === "liveRuns") {
        // One row per session in agent_runs: the small table is read whole, the event log not at all.
        expect(plan.some((step) => /execution_events/.test(step))).toBe(false);
        return;
      }
      expect({ name, scans }).toEqual({ name, scans: [] });
      expect(touches.length).toBeGreaterThan(0);
      // A bare "SEARCH execution_events" is SQLite's MIN/MAX optimisation: one seek at an end of the index.
      for (const step of touches) expect(step).toMatch(/^SEARCH (execution_events|e)( USING (COVERING )?INDEX .+| USING INTEGER PRIMARY KEY .+)?$/);
    });
  }
});
