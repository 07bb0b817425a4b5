/**
 * The projects of the growth benchmark (issue 16): a store of N events shaped like months of real use
 * (scripts/big-store.ts: one long hooks run of thousands of harness sessions, three harness sessions of a tenth of
 * the events each — one that compacts every 150 events, two whose window since their previous compaction holds nearly
 * all of their events, one of few commands and one of mostly unique ones — a closed run of another agent, runtime notes, guard rows, direct runs) and what a working project holds
 * beside it: the agent pointer of the open hooks session, its state.json and events.ndjson (at its size cap), and the
 * `brief_built` rows of context:brief that context:guard's agent lookup reads (one per hundred events).
 *
 * Every row is dated in the 90 days before 2100-01-01, so every time window of a command (context:guard's two
 * hours, context:usage's thirty days) holds the whole store: the worst case, whatever the day the cache was built.
 *
 * A project is built once per shape and cached under dist/bench/growth/<key>/<events>/; the key changes with the
 * shape (this file, big-store.ts) and the schema version, so a cache never outlives what it measures. Each bench run
 * copies the cached project (its cases write to it) and removes the copy at exit.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendNdjson, NDJSON_CAP_BYTES } from "../src/live/ndjson.ts";
import { writePointer } from "../src/live/pointer.ts";
import { writeState, type LiveState } from "../src/live/state.ts";
import { closeStore, openStore } from "../src/store/db.ts";
import { SCHEMA_VERSION } from "../src/store/schema.ts";
import { buildBigStore, type BigStoreFacts } from "./big-store.ts";

/** Bump when the extras below change what a growth project holds. */
const SHAPE_VERSION = 1;
/** The end of the recorded period (see the module comment). */
export const GROWTH_NOW = Date.UTC(2100, 0, 1);
const DAY_MS = 86_400_000;

const ROOT = join(import.meta.dir, "..");
const CACHE = join(ROOT, "dist", "bench", "growth");

export type GrowthProject = { dir: string; facts: BigStoreFacts | null; buildMs: number | null };

function cacheKey(): string {
  const hash = createHash("sha256");
  for (const file of ["scripts/big-store.ts", "scripts/growth-store.ts", "src/store/schema.ts", "src/store/event-indexes.ts"]) hash.update(readFileSync(join(ROOT, file)));
  return `v${SHAPE_VERSION}-s${SCHEMA_VERSION}-${hash.digest("hex").slice(0, 12)}`;
}

function markProject(dir: string): void {
  mkdirSync(join(dir, ".aioson"), { recursive: true });
  writeFileSync(join(dir, ".aioson", "config.md"), "# growth bench project\n");
}

/** One `brief_built` row per hundred events, spread over the period (context:guard's agent lookup reads the newest). */
function addBriefs(dir: string, events: number): void {
  const store = openStore(dir);
  if (!store) throw new Error(`no store under ${dir}`);
  try {
    const insert = store.db.query(
      `INSERT INTO execution_events (agent_name, source, event_type, phase, message, payload_json, sequence_no, created_at)
       VALUES ('@dev', 'context_brief', 'brief_built', 'context_brief', 'Brief built', ?, 1, ?)`,
    );
    const count = Math.floor(events / 100);
    const start = GROWTH_NOW - 90 * DAY_MS;
    store.db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const at = new Date(start + ((i + 0.5) / count) * 90 * DAY_MS).toISOString();
        insert.run(JSON.stringify({ must_load: [".aioson/rules/naming.md"], should_load: [], confidence: "high", feature_slug: "cart" }), at);
      }
    }).immediate();
  } finally {
    closeStore(store);
  }
}

/** The open hooks session as hooks:emit leaves it: pointer, state.json, events.ndjson at its cap. */
function addLiveFiles(dir: string, facts: BigStoreFacts): void {
  const store = openStore(dir, { mustExist: true });
  if (!store) throw new Error(`no store under ${dir}`);
  try {
    const run = store.db.query("SELECT run_key, task_key, session_key, started_at FROM agent_runs WHERE run_key = ?").get(facts.longRun) as {
      run_key: string;
      task_key: string;
      session_key: string;
      started_at: string;
    };
    const newest = store.db
      .query("SELECT created_at, event_type, message FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC LIMIT 10")
      .all(run.run_key) as Array<{ created_at: string; event_type: string; message: string }>;
    const byType = store.db.query("SELECT event_type, COUNT(*) AS n FROM execution_events WHERE run_key = ? GROUP BY event_type").all(run.run_key) as Array<{
      event_type: string;
      n: number;
    }>;
    writePointer(dir, "dev", { runKey: run.run_key, taskKey: run.task_key, sessionKey: run.session_key, startedAt: run.started_at, finished: false, source: "live", owner: "hooks" });
    const state: LiveState = {
      session_key: run.session_key,
      session_task_key: run.task_key,
      tool_session: "claude",
      active_agent: "@dev",
      plan_ref: null,
      phase: "active",
      title: "[hooks] dev via claude",
      path: dir,
      child_pid: null,
      started_at: run.started_at,
      updated_at: newest[0]?.created_at ?? run.started_at,
      closed_at: null,
      current_task: null,
      current_run_key: run.run_key,
      stats: {
        tasks_completed: 0,
        events_total: byType.reduce((sum, row) => sum + row.n, 0),
        plan_steps_done: 0,
        plan_steps_total: 0,
        events_by_type: Object.fromEntries(byType.map((row) => [row.event_type, row.n])),
      },
      last_events: newest.reverse().map((row) => ({ ts: row.created_at, type: row.event_type, summary: row.message })),
      owner: "hooks",
      auto_started: true,
    };
    writeState(dir, state);
    const line = (i: number) => ({
      ts: new Date(GROWTH_NOW - 60_000 + i).toISOString(),
      type: "artifact",
      summary: `Edit: src/feature-${i % 40}/module-${i % 8}.ts`,
      message: `Edit: src/feature-${i % 40}/module-${i % 8}.ts`,
      tool: "Edit",
      file: `src/feature-${i % 40}/module-${i % 8}.ts`,
      source: "claude",
      agent: "dev",
      run_key: run.run_key,
      session_key: run.session_key,
      harness_session_id: facts.recentSession,
    });
    const size = JSON.stringify(line(0)).length + 1;
    appendNdjson(dir, run.session_key, Array.from({ length: Math.floor(NDJSON_CAP_BYTES / size) - 1 }, (_, i) => line(i)));
  } finally {
    closeStore(store);
  }
}

function build(dir: string, events: number): BigStoreFacts | null {
  markProject(dir);
  if (events === 0) {
    const store = openStore(dir);
    if (!store) throw new Error(`could not create the store under ${dir}`);
    closeStore(store);
    return null;
  }
  const facts = buildBigStore(dir, { events, now: GROWTH_NOW });
  addBriefs(dir, events);
  addLiveFiles(dir, facts);
  writeFileSync(join(dir, "facts.json"), JSON.stringify(facts));
  return facts;
}

/** The cached project of `events` events, built first when missing (a partial build is never kept). */
function cached(events: number): { dir: string; buildMs: number | null } {
  const key = cacheKey();
  const dir = join(CACHE, key, String(events));
  if (existsSync(join(dir, "done"))) return { dir, buildMs: null };
  // Projects of an older shape are never read again: a million events is most of a GiB.
  for (const old of existsSync(CACHE) ? readdirSync(CACHE) : []) if (old !== key) rmSync(join(CACHE, old), { recursive: true, force: true });
  const staging = `${dir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = performance.now();
  build(staging, events);
  writeFileSync(join(staging, "done"), "");
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { dir, buildMs: performance.now() - started };
}

/**
 * A fresh copy of the growth project of `events` events in `into` (the cache is never written by a case). The store
 * keeps its absolute project path in rows and state.json, so the copy's paths name the cache: nothing reads them.
 */
export function growthProject(events: number, into: string): GrowthProject {
  const source = cached(events);
  cpSync(source.dir, into, { recursive: true });
  const factsFile = join(into, "facts.json");
  const facts = existsSync(factsFile) ? (JSON.parse(readFileSync(factsFile, "utf8")) as BigStoreFacts) : null;
  return { dir: into, facts, buildMs: source.buildMs };
}
