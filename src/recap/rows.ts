/**
 * Spec 5.3–5.4: which harness session, and which of its rows, a checkpoint is rebuilt from.
 *
 * A long session holds thousands of rows, but only a few can change a fact. One narrow scan of
 * the window (ids, types and payload text, no JSON parsing) lets `pickCandidates` choose those
 * rows; only they are read in full and handed to `deriveFacts`, which stays one pure function over
 * rows. The candidates are a superset of every row a fact can come from:
 *
 * - the newest `step_done` per grouping key (see `ScanRow`), so the newest conclusive row of every
 *   command, and the newest conclusive test-runner row, are among them;
 * - the newest `agent_activated` rows, the newest plan note, the newest 3 continuity candidates;
 * - in the span P: the newest `artifact` per grouping key and the newest `agent_message` rows.
 */
import type { Database } from "bun:sqlite";
import { boundaryOf, COMPACTION_CONFIRMED, LIVE_RUN, runMarkers, sessionMarkers } from "./markers.ts";

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

/** Session bookkeeping, never a continuity note (spec 5.5); hooks:recap writes the confirmations itself. */
export const NOT_NOTES: readonly string[] = [
  "session_started", "session_ended", "session_closed", "agent_done", "compaction", COMPACTION_CONFIRMED, "start", "update", "finished",
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

const COLUMNS = "e.id, e.run_key, e.event_type, e.message, e.payload_json, e.harness_session_id";

/** The harness session that recorded last in a `source='live'` run (spec 5.3 third choice). */
export function latestHarnessSession(db: Database): string | null {
  const row = db
    .query(`SELECT e.harness_session_id AS id FROM execution_events e WHERE e.harness_session_id IS NOT NULL AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 1`)
    .get() as { id: string } | null;
  return row?.id ?? null;
}

/**
 * The window W as a SQL condition on `execution_events e`, and the parameters it binds. `from`, when
 * set, is an id no row of W is below, and says to read the ids from there on in order rather than
 * look each row up through the indexes of `where` (see `sessionWindow`).
 */
type WindowSource = { where: string; params: Record<string, string | number>; from?: number };

/**
 * Session mode: the session's rows in live runs, plus the rows of its run R (the run of its newest
 * row) without a session id after max(B, first id of the session in R − 1). B is the id of the
 * second-to-last compaction marker that counts (the last one is the compaction that just happened;
 * the one before it bounds what the summary lost; markers.ts says which count), else 0.
 *
 * Every row of W has an id at or above the session's first id. When the session holds at least half
 * of the rows from there on (one agent at a time, the usual case), reading that id range in order
 * costs less than one index lookup per row of W; the rows read are the same either way.
 */
function sessionWindow(db: Database, session: string): { source: WindowSource; boundary: number } | null {
  const span = db
    .query(
      `WITH newest AS (
         SELECT e.run_key FROM execution_events e WHERE e.harness_session_id = $session AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 1)
       SELECT newest.run_key AS run,
         (SELECT MIN(e.id) FROM execution_events e WHERE e.harness_session_id = $session AND e.run_key = newest.run_key) AS first,
         (SELECT MIN(e.id) FROM execution_events e WHERE e.harness_session_id = $session) AS start,
         (SELECT COUNT(*) FROM execution_events e WHERE e.harness_session_id = $session) AS rows,
         (SELECT MAX(e.id) FROM execution_events e) AS last
       FROM newest`,
    )
    .get({ $session: session }) as { run: string; first: number; start: number; rows: number; last: number } | null;
  if (!span) return null;
  const boundary = boundaryOf(sessionMarkers(db, session));
  const dense = span.rows * 2 >= span.last - span.start + 1;
  return {
    boundary,
    source: {
      where: `(e.harness_session_id = $session AND ${LIVE_RUN}) OR (e.run_key = $run AND e.harness_session_id IS NULL AND e.id > $after)`,
      params: { $session: session, $run: span.run, $after: Math.max(boundary, span.first - 1) },
      ...(dense ? { from: span.start } : {}),
    },
  };
}

/** Legacy mode: W = P = the rows of run R after its own previous compaction. */
function legacyWindow(db: Database, runKey: string): { source: WindowSource; boundary: number } {
  const boundary = boundaryOf(runMarkers(db, runKey));
  return { boundary, source: { where: "e.run_key = $run AND e.id > $after", params: { $run: runKey, $after: boundary } } };
}

/** What a scanned row can be a candidate for (computed in SQL, see `scanWindow`). */
const enum Kind {
  Other = 0,
  Step = 1,
  SpanArtifact = 2,
  Activation = 3,
  SpanMessage = 4,
  PlanNote = 5,
}

/**
 * One row of the narrow scan: id, kind, continuity-note candidate (not bookkeeping, not written by
 * hooks: 0/1), grouping key. The key of a step is its payload from `"command":` on, of an artifact
 * its payload from `"file":` on: never shared by two different commands or files, and short.
 */
export type ScanRow = [id: number, kind: number, note: number, key: string | null];

/** The ids of the candidate rows (see the module comment), newest first. */
export function pickCandidates(scan: readonly ScanRow[]): number[] {
  const picked: number[] = [];
  const steps = new Set<string | number>();
  const artifacts = new Set<string | number>();
  let activations = 0;
  let messages = 0;
  let notes = 0;
  let plan = false;
  for (let i = scan.length - 1; i >= 0; i--) {
    // Indexed reads, not destructuring: this loop runs cold over every row of a long session.
    const row = scan[i] as ScanRow;
    const id = row[0];
    const kind = row[1];
    const note = row[2];
    const key = row[3];
    let take = false;
    if (kind === Kind.Step || kind === Kind.SpanArtifact) {
      const groups = kind === Kind.Step ? steps : artifacts;
      const group = key ?? id;
      take = !groups.has(group);
      groups.add(group);
    } else if (kind === Kind.Activation) take = activations++ < ACTIVATIONS_READ;
    else if (kind === Kind.SpanMessage) take = messages++ < MESSAGES_READ;
    else if (kind === Kind.PlanNote && !plan) take = plan = true;
    const noteCandidate = note === 1 && notes < 3;
    if (noteCandidate) notes++;
    if (take || noteCandidate) picked.push(id);
  }
  return picked;
}

/** Plan notes: whole lists (TodoWrite, update_plan) and task-by-task plans folded into one (emit/task-plan.ts). */
export const PLAN_TOOL_NAMES: readonly string[] = ["TodoWrite", "update_plan", "TaskCreate", "TaskUpdate", "TaskCreated"];
const PLAN_NOTE = PLAN_TOOL_NAMES.map((tool) => `instr(e.payload_json, '"tool":"${tool}"') > 0`).join(" OR ");

/**
 * `note` tests the hooks mark first: a CASE stops there for the rows hooks wrote (almost all), where
 * `NOT IN (…) AND instr(…)` in a result column would evaluate both sides for every row.
 */
function scanWindow(db: Database, source: WindowSource, boundary: number): ScanRow[] {
  const bookkeeping = NOT_NOTES.map((type) => `'${type}'`).join(", ");
  const stepText = "COALESCE(e.payload_json, e.message)";
  const rows = source.from === undefined
    ? `execution_events e WHERE ${source.where}`
    : `execution_events e NOT INDEXED WHERE e.id >= $from AND (${source.where})`;
  const params: Record<string, string | number> = { ...source.params, $boundary: boundary };
  if (source.from !== undefined) params.$from = source.from;
  return db
    .query(
      `SELECT id, kind, note, grp FROM (SELECT e.id AS id,
         CASE e.event_type
           WHEN 'step_done' THEN ${Kind.Step}
           WHEN 'artifact' THEN CASE WHEN e.id > $boundary THEN ${Kind.SpanArtifact} ELSE ${Kind.Other} END
           WHEN 'agent_activated' THEN ${Kind.Activation}
           WHEN 'agent_message' THEN CASE WHEN e.id > $boundary THEN ${Kind.SpanMessage} ELSE ${Kind.Other} END
           WHEN 'note' THEN CASE WHEN ${PLAN_NOTE} THEN ${Kind.PlanNote} ELSE ${Kind.Other} END
           ELSE ${Kind.Other} END AS kind,
         CASE WHEN instr(COALESCE(e.payload_json, ''), '${HOOKS_MARK}') > 0 THEN 0 ELSE e.event_type NOT IN (${bookkeeping}) END AS note,
         CASE
           WHEN e.event_type = 'step_done' THEN substr(${stepText}, instr(${stepText}, '"command":'))
           WHEN e.event_type = 'artifact' AND e.id > $boundary THEN substr(e.payload_json, instr(e.payload_json, '"file":'))
         END AS grp
       FROM ${rows})
       WHERE kind > 0 OR note = 1 ORDER BY id`,
    )
    .values(params) as ScanRow[];
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
  return { window: fetchRows(db, pickCandidates(scan)), boundary: window.boundary };
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
