/**
 * Spec 5.3–5.4: which harness session, and which of its rows, a checkpoint is rebuilt from. The SQL
 * stays here; the window arithmetic is pure (`sessionSpan`, `mergeWindow`).
 */
import type { Database } from "bun:sqlite";

/** The columns a checkpoint reads; everything else in the row is irrelevant to it. */
export type EventRow = {
  id: number;
  run_key: string | null;
  event_type: string;
  message: string;
  payload_json: string | null;
  harness_session_id: string | null;
};

/** `window` = W (whole session), `boundary` = B; the span P is the rows of W with `id > boundary`. */
export type RecapRows = { window: EventRow[]; boundary: number };

const COLUMNS = "e.id, e.run_key, e.event_type, e.message, e.payload_json, e.harness_session_id";

/** The harness session that recorded last in a `source='live'` run (spec 5.3 third choice). */
export function latestHarnessSession(db: Database): string | null {
  const row = db
    .query(
      `SELECT e.harness_session_id AS id FROM execution_events e
       WHERE e.harness_session_id IS NOT NULL
         AND EXISTS (SELECT 1 FROM agent_runs r WHERE r.run_key = e.run_key AND r.source = 'live')
       ORDER BY e.id DESC LIMIT 1`,
    )
    .get() as { id: string } | null;
  return row?.id ?? null;
}

/** Rows of harness session `session` that belong to `source='live'` runs (standalone rows excluded), by id. */
export function sessionRows(db: Database, session: string): EventRow[] {
  return db
    .query(
      `SELECT ${COLUMNS} FROM execution_events e
       WHERE e.harness_session_id = ?
         AND EXISTS (SELECT 1 FROM agent_runs r WHERE r.run_key = e.run_key AND r.source = 'live')
       ORDER BY e.id`,
    )
    .all(session) as EventRow[];
}

/** Rows of run `runKey` without a harness session id, after `afterId`, by id. */
export function unlabelledRunRows(db: Database, runKey: string, afterId: number): EventRow[] {
  return db
    .query(`SELECT ${COLUMNS} FROM execution_events e WHERE e.run_key = ? AND e.harness_session_id IS NULL AND e.id > ? ORDER BY e.id`)
    .all(runKey, afterId) as EventRow[];
}

/** Every row of run `runKey` after `afterId`, by id (legacy mode). */
export function runRowsAfter(db: Database, runKey: string, afterId: number): EventRow[] {
  return db.query(`SELECT ${COLUMNS} FROM execution_events e WHERE e.run_key = ? AND e.id > ? ORDER BY e.id`).all(runKey, afterId) as EventRow[];
}

/** True when some `source='live'` row carries a harness session id (otherwise the store predates them). */
export function anyHarnessSession(db: Database): boolean {
  return latestHarnessSession(db) !== null;
}

/**
 * B = id of the second-to-last compaction marker (the last one is the compaction that just
 * happened; the one before it bounds what the summary lost), else 0.
 */
export function compactionBoundary(rows: readonly EventRow[]): number {
  let last = 0;
  let previous = 0;
  for (const row of rows) {
    if (row.event_type !== "compaction") continue;
    previous = last;
    last = row.id;
  }
  return previous;
}

export type SessionSpan = {
  /** R: the run the session writes to (run of its newest row). */
  runKey: string;
  boundary: number;
  /** Unlabelled rows of R count only after this id: max(B, first id of the session in R − 1). */
  unlabelledAfter: number;
};

export function sessionSpan(rows: readonly EventRow[]): SessionSpan | null {
  const newest = rows.at(-1);
  if (!newest?.run_key) return null;
  const runKey = newest.run_key;
  const firstInRun = rows.find((row) => row.run_key === runKey)?.id ?? newest.id;
  const boundary = compactionBoundary(rows);
  return { runKey, boundary, unlabelledAfter: Math.max(boundary, firstInRun - 1) };
}

/** W: the session's own rows and the unlabelled rows of its run, in insertion order. */
export function mergeWindow(labelled: readonly EventRow[], unlabelled: readonly EventRow[]): EventRow[] {
  if (unlabelled.length === 0) return [...labelled];
  return [...labelled, ...unlabelled].sort((a, b) => a.id - b.id);
}

/** Spec 5.4 for one harness session; null when the session recorded nothing. */
export function harnessSessionRows(db: Database, session: string): RecapRows | null {
  const labelled = sessionRows(db, session);
  const span = sessionSpan(labelled);
  if (!span) return null;
  const unlabelled = unlabelledRunRows(db, span.runKey, span.unlabelledAfter);
  return { window: mergeWindow(labelled, unlabelled), boundary: span.boundary };
}

/** Spec 5.4 legacy mode: W = P = rows of run R after its own previous compaction. */
export function legacyRunRows(db: Database, runKey: string): RecapRows | null {
  const markers = db
    .query("SELECT id FROM execution_events WHERE run_key = ? AND event_type = 'compaction' ORDER BY id DESC LIMIT 2")
    .all(runKey) as Array<{ id: number }>;
  const boundary = markers.length === 2 ? (markers[1] as { id: number }).id : 0;
  const window = runRowsAfter(db, runKey, boundary);
  return window.length > 0 ? { window, boundary } : null;
}
