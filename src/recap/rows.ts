/**
 * Spec 5.3–5.4: which harness session, and which of its rows, a checkpoint is rebuilt from.
 *
 * A long session holds thousands of rows, but only a few can change a fact. One narrow scan of
 * the window (ids, types and payload text, no JSON parsing) lets `pickCandidates` choose those
 * rows; only they are read in full and handed to `deriveFacts`, which stays one pure function over
 * rows. The candidates are a superset of every row a fact can come from:
 *
 * - the newest `step_done` per distinct payload (so the newest conclusive row of every command,
 *   and the newest conclusive test-runner row, are among them);
 * - the newest `agent_activated` rows, the newest plan note, the newest 3 continuity candidates;
 * - in the span P: the newest `artifact` per distinct payload and the newest `agent_message` rows.
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

/** Candidate rows of the whole-session window W (by id) and B; the span P is the rows with `id > boundary`. */
export type RecapRows = { window: EventRow[]; boundary: number };

/** Session bookkeeping, never a continuity note (spec 5.5). */
export const NOT_NOTES: readonly string[] = [
  "session_started", "session_ended", "session_closed", "agent_done", "compaction", "start", "update", "finished",
];

export const BOOKKEEPING: ReadonlySet<string> = new Set(NOT_NOTES);

/**
 * A payload written by hooks:emit carries this exact text (JSON.stringify adds no spaces); reading
 * it as text spares parsing every row of a long session. Shared with the derivation in facts.ts.
 */
export const HOOKS_MARK = '"written_by":"hooks:emit"';

/** Newest activations read: an id is only ever invalid in a corrupt row, so a few are plenty. */
const ACTIVATIONS_READ = 16;
/** Newest messages read to find a non-blank one (hooks:emit never records a blank message). */
const MESSAGES_READ = 8;

const LIVE_RUN = "EXISTS (SELECT 1 FROM agent_runs r WHERE r.run_key = e.run_key AND r.source = 'live')";
const COLUMNS = "e.id, e.run_key, e.event_type, e.message, e.payload_json, e.harness_session_id";

/** The harness session that recorded last in a `source='live'` run (spec 5.3 third choice). */
export function latestHarnessSession(db: Database): string | null {
  const row = db
    .query(`SELECT e.harness_session_id AS id FROM execution_events e WHERE e.harness_session_id IS NOT NULL AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 1`)
    .get() as { id: string } | null;
  return row?.id ?? null;
}

/** B = id of the second-to-last marker (the last one is the compaction that just happened), else 0. */
export function boundaryFrom(markerIdsNewestFirst: readonly number[]): number {
  return markerIdsNewestFirst[1] ?? 0;
}

/** The window W as a SQL condition on `execution_events e`, and the parameters it binds. */
type WindowSource = { where: string; params: Record<string, string | number> };

/**
 * Session mode: the session's rows in live runs, plus the rows of its run R without a session id
 * after max(B, first id of the session in R − 1).
 */
function sessionWindow(db: Database, session: string): { source: WindowSource; boundary: number } | null {
  const newest = db
    .query(`SELECT e.id, e.run_key FROM execution_events e WHERE e.harness_session_id = ? AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 1`)
    .get(session) as { id: number; run_key: string } | null;
  if (!newest) return null;
  const first = db
    .query("SELECT MIN(e.id) AS id FROM execution_events e WHERE e.harness_session_id = ? AND e.run_key = ?")
    .get(session, newest.run_key) as { id: number };
  const markers = db
    .query(`SELECT e.id FROM execution_events e WHERE e.harness_session_id = ? AND e.event_type = 'compaction' AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 2`)
    .all(session) as Array<{ id: number }>;
  const boundary = boundaryFrom(markers.map((marker) => marker.id));
  return {
    boundary,
    source: {
      where: `(e.harness_session_id = $session AND ${LIVE_RUN}) OR (e.run_key = $run AND e.harness_session_id IS NULL AND e.id > $after)`,
      params: { $session: session, $run: newest.run_key, $after: Math.max(boundary, first.id - 1) },
    },
  };
}

/** Legacy mode: W = P = the rows of run R after its own previous compaction. */
function legacyWindow(db: Database, runKey: string): { source: WindowSource; boundary: number } {
  const markers = db
    .query("SELECT id FROM execution_events WHERE run_key = ? AND event_type = 'compaction' ORDER BY id DESC LIMIT 2")
    .all(runKey) as Array<{ id: number }>;
  const boundary = boundaryFrom(markers.map((marker) => marker.id));
  return { boundary, source: { where: "e.run_key = $run AND e.id > $after", params: { $run: runKey, $after: boundary } } };
}

/**
 * One row of the narrow scan: id, event type, written by hooks (0/1), grouping key (the payload text
 * of `step_done` and `artifact` rows, else null), plan note (0/1).
 */
export type ScanRow = [id: number, type: string, hooks: number, key: string | null, plan: number];

/** The ids of the candidate rows (see the module comment), newest first. */
export function pickCandidates(scan: readonly ScanRow[], boundary: number): number[] {
  const picked: number[] = [];
  const groups = new Set<string>();
  let activations = 0;
  let messages = 0;
  let notes = 0;
  let plan = false;
  for (let i = scan.length - 1; i >= 0; i--) {
    const [id, type, hooks, key, planNote] = scan[i] as ScanRow;
    let take = false;
    if (type === "step_done" || (type === "artifact" && id > boundary)) {
      const group = `${type}\u0000${key ?? id}`;
      take = !groups.has(group);
      groups.add(group);
    } else if (type === "agent_activated") take = activations++ < ACTIVATIONS_READ;
    else if (type === "agent_message" && id > boundary) take = messages++ < MESSAGES_READ;
    else if (type === "note" && planNote === 1 && !plan) take = plan = true;
    const note = notes < 3 && hooks === 0 && !BOOKKEEPING.has(type);
    if (note) notes++;
    if (take || note) picked.push(id);
  }
  return picked;
}

function scanWindow(db: Database, source: WindowSource, boundary: number): ScanRow[] {
  return db
    .query(
      `SELECT e.id, e.event_type, instr(COALESCE(e.payload_json, ''), '${HOOKS_MARK}') > 0,
         CASE WHEN e.event_type = 'step_done' OR (e.event_type = 'artifact' AND e.id > $boundary) THEN COALESCE(e.payload_json, e.message) END,
         e.event_type = 'note' AND (instr(e.payload_json, '"tool":"TodoWrite"') > 0 OR instr(e.payload_json, '"tool":"update_plan"') > 0)
       FROM execution_events e WHERE ${source.where} ORDER BY e.id`,
    )
    .values({ ...source.params, $boundary: boundary } as Record<string, string | number>) as ScanRow[];
}

function fetchRows(db: Database, ids: readonly number[]): EventRow[] {
  if (ids.length === 0) return [];
  return db
    .query(`SELECT ${COLUMNS} FROM execution_events e WHERE e.id IN (SELECT value FROM json_each(?)) ORDER BY e.id`)
    .all(JSON.stringify(ids)) as EventRow[];
}

function windowRows(db: Database, window: { source: WindowSource; boundary: number }): RecapRows | null {
  const scan = scanWindow(db, window.source, window.boundary);
  if (scan.length === 0) return null;
  return { window: fetchRows(db, pickCandidates(scan, window.boundary)), boundary: window.boundary };
}

/** Spec 5.4 for one harness session; null when the session recorded nothing. */
export function harnessSessionRows(db: Database, session: string): RecapRows | null {
  const window = sessionWindow(db, session);
  return window ? windowRows(db, window) : null;
}

/** Spec 5.4 legacy mode; null when the run has no row after its previous compaction. */
export function legacyRunRows(db: Database, runKey: string): RecapRows | null {
  return windowRows(db, legacyWindow(db, runKey));
}
