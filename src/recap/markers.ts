/**
 * Which compaction markers bound the recap's span (spec 5.4 `B`). A harness that confirms its compactions after
 * the fact (Claude Code: `SessionStart(compact)`, `PostCompact`) writes markers that say so, because its
 * `PreCompact` can fire for a compaction that never happens ("compaction cannot help", "Reactive compact: …
 * bailing", real-harnesses §1). Such a marker counts once a confirmation row follows it; a later marker replaces
 * one still unconfirmed; the newest marker always counts (it is the compaction being rebuilt: the recap runs at
 * its `SessionStart(compact)`, before any `PostCompact`). A marker without the flag (other harnesses, rows written
 * before this rule) counts as soon as it is written, as spec 5.4 says.
 */
import type { Database } from "bun:sqlite";

/** Payload key of a marker that waits for its confirmation. */
export const NEEDS_CONFIRMATION = "needs_confirmation";
/** The row that confirms the newest marker of its harness session. */
export const COMPACTION_CONFIRMED = "compaction_confirmed";

/** The serialized flag, searched in payload text (JSON.stringify writes no spaces). */
export const NEEDS_CONFIRMATION_MARK = `"${NEEDS_CONFIRMATION}":true`;

export type MarkerRow = { id: number; confirmation: boolean; flagged: boolean };

/** The markers that count, oldest first, from the marker and confirmation rows of one session in id order. */
export function countedMarkers(rows: readonly MarkerRow[]): number[] {
  const counted: number[] = [];
  let pending: number | null = null;
  for (const row of rows) {
    if (row.confirmation) {
      if (pending !== null) counted.push(pending);
      pending = null;
    } else if (row.flagged) {
      pending = row.id;
    } else {
      counted.push(row.id);
      pending = null;
    }
  }
  if (pending !== null) counted.push(pending);
  return counted;
}

/** B: the second-to-last marker that counts, else 0. */
export function boundaryOf(rows: readonly MarkerRow[]): number {
  return countedMarkers(rows).at(-2) ?? 0;
}

/** The newest marker, when it still waits for a confirmation (what a `SessionStart(compact)` recap confirms). */
export function unconfirmedNewest(rows: readonly MarkerRow[]): number | null {
  const last = rows.at(-1);
  return last && !last.confirmation && last.flagged ? last.id : null;
}

/**
 * A row of a `source='live'` run (SQL on `execution_events e`). Every run event copies its run's source into the
 * row (spec 2.5 appendRunEvent) and a run's source never changes, so the row's own column answers without a lookup
 * per row; only a row written without it asks the run. Standalone rows (no run) are excluded. `+e.source` keeps the
 * column a filter: through idx_execution_events_source_type the planner would read every live row to find one.
 */
export const LIVE_RUN = `e.run_key IS NOT NULL AND (+e.source = 'live'
  OR (+e.source IS NULL AND EXISTS (SELECT 1 FROM agent_runs r WHERE r.run_key = e.run_key AND r.source = 'live')))`;

const MARKER_COLUMNS = `e.id AS id, e.event_type = '${COMPACTION_CONFIRMED}' AS confirmation,
  instr(COALESCE(e.payload_json, ''), '${NEEDS_CONFIRMATION_MARK}') > 0 AS flagged`;
const MARKER_TYPES = `e.event_type IN ('compaction', '${COMPACTION_CONFIRMED}')`;

function markerRows(rows: unknown[]): MarkerRow[] {
  return (rows as Array<{ id: number; confirmation: number; flagged: number }>).map((row) => ({ id: row.id, confirmation: row.confirmation === 1, flagged: row.flagged === 1 }));
}

/**
 * The compaction markers and confirmations of a harness session in live runs, in id order. `+e.id` keeps the
 * planner from walking the whole session in id order (harness_session_id, id): the session/type index finds the
 * few markers directly and they are sorted (a 100k-event session: 40 ms → 5 ms).
 */
export function sessionMarkers(db: Database, session: string): MarkerRow[] {
  return markerRows(db.query(`SELECT ${MARKER_COLUMNS} FROM execution_events e WHERE e.harness_session_id = ? AND ${MARKER_TYPES} AND ${LIVE_RUN} ORDER BY +e.id`).all(session));
}

/**
 * The newest `limit` marker and confirmation rows of a harness session in live runs, in id order, and whether they
 * are all it has: one index range per type (session_type), so a session of a thousand compactions reads a few.
 */
export function newestSessionMarkers(db: Database, session: string, limit: number): { rows: MarkerRow[]; complete: boolean } {
  const query = db.query(`SELECT ${MARKER_COLUMNS} FROM execution_events e WHERE e.harness_session_id = ? AND e.event_type = ? AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT ?`);
  const markers = markerRows(query.all(session, "compaction", limit));
  const confirmations = markerRows(query.all(session, COMPACTION_CONFIRMED, limit));
  const rows = [...markers, ...confirmations].sort((a, b) => b.id - a.id).slice(0, limit).reverse();
  return { rows, complete: markers.length < limit && confirmations.length < limit };
}

/**
 * B of a harness session. Whether a marker counts depends only on the row after it (countedMarkers), so the newest
 * rows decide the newest counted markers: read more only while fewer than two count among them.
 */
export function sessionBoundary(db: Database, session: string): number {
  for (let limit = 16; ; limit *= 8) {
    const { rows, complete } = newestSessionMarkers(db, session, limit);
    const counted = countedMarkers(rows);
    if (complete || counted.length >= 2) return counted.at(-2) ?? 0;
  }
}

/**
 * The markers and confirmations of one run (spec 5.4 legacy mode: no row of a live run has a harness session id), in
 * id order, found among the rows without one (session_type).
 */
export function runMarkers(db: Database, runKey: string): MarkerRow[] {
  return markerRows(db.query(`SELECT ${MARKER_COLUMNS} FROM execution_events e WHERE e.harness_session_id IS NULL AND ${MARKER_TYPES} AND e.run_key = ? ORDER BY +e.id`).all(runKey));
}
