/**
 * `runtime:prune` (issue 16): removes events older than a retention period, without touching what is still read.
 *
 * What stays, whatever its age:
 * - every row of a harness session that recorded within the period (a recap reads a session whole: spec 5.4 W);
 * - in an open run, the rows without a session id from the first row of the oldest session kept (the other part of
 *   W), and, when no row of a live run has a session id at all (spec 5.4 legacy mode), its rows after its previous
 *   compaction; and the run's newest LIVE_TAIL rows (live:status shows them);
 * - the rows context:usage reads (briefs, loads, session ends, guard injections) of its default 30 days;
 * - the rows an OpenTelemetry destination that exported within the period has not taken yet;
 * - open runs and their tasks, and every run, task, artifact or content item something still refers to.
 * Everything else older than the period goes: expired harness sessions, rows without a session id, closed runs
 * left without events and their tasks, and the legacy `agent_events` mirror of what was removed.
 *
 * The work is done in short transactions (CHUNK rows each, ~30 ms at a million events), so hooks writing at the
 * same time wait a moment, never their busy timeout; each chunk re-reads, inside its transaction, whether the
 * sessions it removes are still expired, so a session that records again meanwhile is kept. Space is given back by
 * incremental vacuum when the store has it (stores created by this version), in chunks too.
 */
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { boundaryOf, runMarkers } from "../recap/markers.ts";
import { latestHarnessSession } from "../recap/rows.ts";
import { LOAD_SOURCE, USAGE_DEFAULT_DAYS, USAGE_EVENT_TYPES } from "../usage/window.ts";
import { withStoreTransaction, type Store } from "./db.ts";

export const DEFAULT_RETENTION_DAYS = 30;
/** context:usage's default window: its rows are kept this long even with a shorter retention. */
export const USAGE_DAYS = USAGE_DEFAULT_DAYS;
/** Newest rows of an open run kept whatever their age (live:status's recent events read up to 20). */
const LIVE_TAIL = 20;
const CHUNK = 2_000;
const VACUUM_PAGES = 2_048;
export const DAY_MS = 86_400_000;

const USAGE_TYPES: ReadonlySet<string> = new Set(USAGE_EVENT_TYPES);

export type PruneOptions = {
  olderThanMs: number;
  dryRun: boolean;
  /** A full VACUUM at the end, switching an older store to incremental vacuum (blocks writers while it runs). */
  vacuum?: boolean;
  /** Stop after removing this many events (automatic pruning: bounded work); the next run goes on. */
  maxEvents?: number;
  now?: number;
  /** Told what the prune does next (planning, each page of events, runs and tasks, the space), for a progress line. */
  onStep?: (label: string) => void;
};

export type VacuumMode = "incremental" | "full" | "none";

export type PruneReport = {
  dryRun: boolean;
  cutoff: string;
  removed: { events: number; harnessSessions: number; runs: number; tasks: number; agentEvents: number };
  remaining: { events: number };
  bytes: { before: number; after: number };
  /** How space was given back: incremental vacuum, a full VACUUM, or none (the freed pages are reused). */
  vacuum: VacuumMode;
  /** False when `maxEvents` stopped the run before everything was removed. */
  complete: boolean;
};

type Row = {
  id: number;
  run_key: string | null;
  task_key: string | null;
  harness_session_id: string | null;
  event_type: string;
  source: string | null;
  created_at: string;
};

type Plan = {
  cutoff: string;
  usageCutoff: string;
  /** Harness sessions whose newest row is older than the cutoff. */
  expired: Set<string>;
  /** Open runs and the id below which their rows without a session id may go. */
  openFloors: Map<string, number>;
  /** The newest rows of every open run. */
  tail: Set<number>;
  /** Rows after this id are not yet sent to an OpenTelemetry destination still exporting (src/otel/). */
  unexported: number;
};

function storeBytes(store: Store): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(`${store.path}${suffix}`).size;
    } catch {
      // A missing WAL counts as empty.
    }
  }
  return total;
}

type SessionSpan = { h: string; last_at: string | null; first: number };

/** Every harness session with its first id and the time of its newest row: a skip scan, one seek per session. */
function sessionSpans(db: Database): SessionSpan[] {
  return db
    .query(
      `WITH RECURSIVE s(h) AS (
         SELECT (SELECT harness_session_id FROM execution_events WHERE harness_session_id IS NOT NULL ORDER BY harness_session_id LIMIT 1)
         UNION ALL
         SELECT (SELECT harness_session_id FROM execution_events WHERE harness_session_id > s.h ORDER BY harness_session_id LIMIT 1) FROM s WHERE s.h IS NOT NULL)
       SELECT h,
         (SELECT created_at FROM execution_events WHERE id = (SELECT MAX(id) FROM execution_events WHERE harness_session_id = s.h)) AS last_at,
         (SELECT MIN(id) FROM execution_events WHERE harness_session_id = s.h) AS first
       FROM s WHERE h IS NOT NULL`,
    )
    .all() as SessionSpan[];
}

function plan(db: Database, cutoff: string, usageCutoff: string): Plan {
  const expired = new Set<string>();
  let floor = Number.POSITIVE_INFINITY;
  for (const span of sessionSpans(db)) {
    if (span.last_at !== null && span.last_at < cutoff) expired.add(span.h);
    else floor = Math.min(floor, span.first);
  }
  const legacy = latestHarnessSession(db) === null;
  const openFloors = new Map<string, number>();
  const tail = new Set<number>();
  const newest = db.query(`SELECT id FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC, id DESC LIMIT ${LIVE_TAIL}`);
  for (const { run_key: run } of db.query("SELECT run_key FROM agent_runs WHERE status IN ('running', 'queued')").all() as Array<{ run_key: string }>) {
    openFloors.set(run, legacy ? Math.min(floor, boundaryOf(runMarkers(db, run)) + 1) : floor);
    for (const row of newest.values(run) as Array<[number]>) tail.add(row[0]);
  }
  return { cutoff, usageCutoff, expired, openFloors, tail, unexported: unexportedAfter(db, cutoff) };
}

/**
 * The oldest cursor of the OpenTelemetry destinations that exported, or tried to, within the period (a collector
 * that was down keeps its events until it takes them); a destination not heard of since is given up. The cursor
 * table is project data: a value that is not a plain id is ignored.
 */
function unexportedAfter(db: Database, cutoff: string): number {
  const rows = db.query("SELECT last_event_id AS id FROM otel_export_cursors WHERE updated_at >= ?").all(cutoff) as Array<{ id: unknown }>;
  const ids = rows.map((row) => row.id).filter((id): id is number => typeof id === "number" && Number.isSafeInteger(id) && id >= 0);
  return ids.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...ids);
}

/** Whether an old row may go (see the module comment). */
function removable(row: Row, p: Plan): boolean {
  if (p.tail.has(row.id) || row.id > p.unexported) return false;
  const usage = USAGE_TYPES.has(row.event_type) || row.source === LOAD_SOURCE;
  if (usage && row.created_at >= p.usageCutoff) return false;
  if (row.harness_session_id !== null) return p.expired.has(row.harness_session_id);
  if (row.run_key === null) return true;
  const floor = p.openFloors.get(row.run_key);
  return floor === undefined || row.id < floor;
}

/** Sessions of `ids` that recorded a row newer than the cutoff since the plan was made (read in the transaction). */
function revived(db: Database, sessions: Iterable<string>, cutoff: string): Set<string> {
  const newest = db.query("SELECT created_at FROM execution_events WHERE id = (SELECT MAX(id) FROM execution_events WHERE harness_session_id = ?)");
  const found = new Set<string>();
  for (const session of sessions) {
    const row = newest.get(session) as { created_at: string } | null;
    if (row && row.created_at >= cutoff) found.add(session);
  }
  return found;
}

/** What the walk removed (or would remove), by session, run and task: a dry run derives the runs and tasks from it. */
type Removal = { events: number; sessions: Set<string>; byRun: Map<string, number>; byTask: Map<string, number>; complete: boolean };

function bump(map: Map<string, number>, key: string | null): void {
  if (key !== null) map.set(key, (map.get(key) ?? 0) + 1);
}

/** Old rows in (created_at, id) order through idx_execution_events_created, CHUNK at a time. */
function removeEvents(store: Store, p: Plan, dryRun: boolean, maxEvents: number, step: (label: string) => void): Removal {
  const { db } = store;
  const page = db.query(
    `SELECT id, run_key, task_key, harness_session_id, event_type, source, created_at FROM execution_events
     WHERE created_at >= $at AND created_at < $cutoff AND (created_at > $at OR id > $id) ORDER BY created_at, id LIMIT ${CHUNK}`,
  );
  const remove = db.query("DELETE FROM execution_events WHERE id IN (SELECT value FROM json_each(?))");
  const removal: Removal = { events: 0, sessions: new Set(), byRun: new Map(), byTask: new Map(), complete: true };
  let cursor = { at: "", id: 0 };
  for (;;) {
    step(`${removal.events.toLocaleString("en-US")} events ${dryRun ? "to remove" : "removed"} so far`);
    const doomed = withStoreTransaction(store, () => {
      const rows = page.all({ $at: cursor.at, $id: cursor.id, $cutoff: p.cutoff }) as Row[];
      const last = rows.at(-1);
      if (!last) return null;
      cursor = { at: last.created_at, id: last.id };
      const candidates = rows.filter((row) => removable(row, p));
      const sessions = new Set(candidates.map((row) => row.harness_session_id).filter((h): h is string => h !== null));
      for (const session of revived(db, sessions, p.cutoff)) p.expired.delete(session);
      const chosen = candidates.filter((row) => row.harness_session_id === null || p.expired.has(row.harness_session_id)).slice(0, maxEvents - removal.events);
      if (!dryRun && chosen.length > 0) remove.run(JSON.stringify(chosen.map((row) => row.id)));
      return chosen;
    });
    if (doomed === null) break;
    for (const row of doomed) {
      if (row.harness_session_id !== null) removal.sessions.add(row.harness_session_id);
      bump(removal.byRun, row.run_key);
      bump(removal.byTask, row.task_key);
    }
    removal.events += doomed.length;
    if (removal.events >= maxEvents) {
      removal.complete = false;
      break;
    }
    // Keeps the WAL short while the walk goes on; a passive checkpoint never waits for anyone.
    if (!dryRun) db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
  }
  return removal;
}

/** Closed runs older than the cutoff with no event left once `removal`'s events are gone. */
function emptiedRuns(db: Database, cutoff: string, removal: Removal): string[] {
  const rows = db.query("SELECT COUNT(*) AS n FROM execution_events WHERE run_key = ?");
  const runs = db.query("SELECT run_key FROM agent_runs WHERE status IN ('completed', 'failed') AND updated_at < ?").values(cutoff) as Array<[string]>;
  return runs.map((row) => row[0]).filter((run) => (rows.get(run) as { n: number }).n === (removal.byRun.get(run) ?? 0));
}

const ORPHAN_TASK = `t.status IN ('completed', 'failed') AND t.updated_at < $cutoff
  AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.task_key = t.task_key)
  AND NOT EXISTS (SELECT 1 FROM content_items i WHERE i.task_key = t.task_key)`;

/**
 * Terminal tasks older than the cutoff that nothing refers to once `runs` and `removal`'s events are gone: no
 * other run, no artifact or content item, no event left, no child task left (micro-tasks before their session).
 */
function emptiedTasks(db: Database, cutoff: string, removal: Removal, runs: ReadonlySet<string>): string[] {
  const candidates = db.query(`SELECT t.task_key AS key FROM tasks t WHERE ${ORPHAN_TASK}`).all({ $cutoff: cutoff }) as Array<{ key: string }>;
  const runsOf = db.query("SELECT run_key FROM agent_runs WHERE task_key = ?");
  const events = db.query("SELECT COUNT(*) AS n FROM execution_events WHERE task_key = ?");
  const children = db.query("SELECT task_key FROM tasks WHERE parent_task_key = ?");
  const free = new Set(
    candidates
      .map((row) => row.key)
      .filter((key) => (runsOf.values(key) as Array<[string]>).every((row) => runs.has(row[0])) && (events.get(key) as { n: number }).n === (removal.byTask.get(key) ?? 0)),
  );
  // A task goes only once its children go: repeat until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const key of free) {
      if ((children.values(key) as Array<[string]>).some((row) => !free.has(row[0]))) {
        free.delete(key);
        changed = true;
      }
    }
  }
  return [...free];
}

/** Legacy mirror rows older than the cutoff, but the newest LIVE_TAIL of each open run. */
function mirrorQuery(open: boolean): string {
  const tail = open ? `AND id NOT IN (SELECT id FROM agent_events WHERE run_key = $run ORDER BY created_at DESC, id DESC LIMIT ${LIVE_TAIL})` : "";
  return `SELECT id FROM agent_events WHERE run_key = $run AND created_at < $cutoff ${tail}`;
}

/** Deletes `keys` from `table` in chunks; returns the rows removed. */
function deleteKeys(store: Store, sql: string, keys: readonly string[], extra: Record<string, string> = {}): number {
  const statement = store.db.query(sql);
  let removed = 0;
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = JSON.stringify(keys.slice(i, i + CHUNK));
    removed += withStoreTransaction(store, () => statement.run({ $keys: chunk, ...extra }).changes);
  }
  return removed;
}

function removeMirror(store: Store, p: Plan, dryRun: boolean, skip: ReadonlySet<string>): number {
  const { db } = store;
  let removed = 0;
  const runs = db.query("SELECT run_key, status FROM agent_runs").all() as Array<{ run_key: string; status: string }>;
  for (const run of runs) {
    if (skip.has(run.run_key)) continue;
    const ids = db.query(mirrorQuery(p.openFloors.has(run.run_key))).values({ $run: run.run_key, $cutoff: p.cutoff }) as Array<[number]>;
    if (dryRun) removed += ids.length;
    else removed += deleteKeys(store, "DELETE FROM agent_events WHERE id IN (SELECT value FROM json_each($keys))", ids.map((row) => String(row[0])));
  }
  return removed;
}

function freePages(db: Database): number {
  return (db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
}

/**
 * Gives the freed pages back: incremental vacuum in chunks of VACUUM_PAGES when the store has it, a full VACUUM
 * when asked (which also switches an older store to incremental vacuum), else nothing (new rows reuse them).
 */
function reclaim(store: Store, full: boolean): VacuumMode {
  const { db } = store;
  if (full) {
    db.exec("PRAGMA auto_vacuum = INCREMENTAL");
    db.exec("VACUUM");
    db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
    return "full";
  }
  if ((db.query("PRAGMA auto_vacuum").get() as { auto_vacuum: number }).auto_vacuum !== 2) return "none";
  // Bounded: a writer taking pages from the free list meanwhile only shortens the work.
  for (let rounds = Math.ceil(freePages(db) / VACUUM_PAGES) + 1; rounds > 0 && freePages(db) > 0; rounds--) {
    withStoreTransaction(store, () => db.exec(`PRAGMA incremental_vacuum(${VACUUM_PAGES})`));
    db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
  }
  // The file shrinks when the moved pages are checkpointed; a reader still busy leaves that to a later close.
  db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
  return "incremental";
}

export function pruneStore(store: Store, options: PruneOptions): PruneReport {
  const { db } = store;
  const now = options.now ?? Date.now();
  const cutoff = new Date(now - options.olderThanMs).toISOString();
  const usageCutoff = new Date(now - USAGE_DAYS * DAY_MS).toISOString();
  const before = storeBytes(store);
  const step = options.onStep ?? (() => undefined);
  step("what open sessions and context:usage still read");
  const p = plan(db, cutoff, usageCutoff);
  const removal = removeEvents(store, p, options.dryRun, options.maxEvents ?? Number.POSITIVE_INFINITY, step);
  step("closed runs and tasks left empty");
  // After a real walk the rows are gone; a dry run subtracts what it would have removed.
  const pending = options.dryRun ? removal : { ...removal, byRun: new Map<string, number>(), byTask: new Map<string, number>() };
  const runs = emptiedRuns(db, cutoff, pending);
  const tasks = emptiedTasks(db, cutoff, pending, new Set(runs));
  const removed = { events: removal.events, harnessSessions: removal.sessions.size, runs: runs.length, tasks: tasks.length, agentEvents: 0 };
  const mirrorOfRuns = db.query("SELECT COUNT(*) AS n FROM agent_events WHERE run_key IN (SELECT value FROM json_each(?))").get(JSON.stringify(runs)) as { n: number };
  if (options.dryRun) {
    removed.agentEvents = mirrorOfRuns.n + removeMirror(store, p, true, new Set(runs));
  } else {
    // agent_events go with their run (ON DELETE CASCADE); each statement re-checks that the run is still empty.
    removed.runs = deleteKeys(
      store,
      `DELETE FROM agent_runs WHERE run_key IN (SELECT value FROM json_each($keys)) AND status IN ('completed', 'failed')
       AND NOT EXISTS (SELECT 1 FROM execution_events e WHERE e.run_key = agent_runs.run_key)`,
      runs,
    );
    removed.tasks = deleteKeys(
      store,
      `DELETE FROM tasks AS t WHERE t.task_key IN (SELECT value FROM json_each($keys)) AND ${ORPHAN_TASK}
       AND NOT EXISTS (SELECT 1 FROM agent_runs r WHERE r.task_key = t.task_key)
       AND NOT EXISTS (SELECT 1 FROM execution_events e WHERE e.task_key = t.task_key)`,
      tasks,
      { $cutoff: cutoff },
    );
    removed.agentEvents = mirrorOfRuns.n + removeMirror(store, p, false, new Set());
  }
  if (!options.dryRun) step(options.vacuum === true ? "VACUUM (the whole file rewritten)" : "giving the space back");
  const vacuum = options.dryRun ? "none" : reclaim(store, options.vacuum === true);
  const remaining = (db.query("SELECT COUNT(*) AS n FROM execution_events").get() as { n: number }).n - (options.dryRun ? removal.events : 0);
  return { dryRun: options.dryRun, cutoff, removed, remaining: { events: remaining }, bytes: { before, after: options.dryRun ? before : storeBytes(store) }, vacuum, complete: removal.complete };
}
