/**
 * Spec 5.3–5.4: which harness session, and which of its rows, a checkpoint is rebuilt from.
 *
 * A session can hold a hundred thousand rows, and only a few can change a fact. The rows that can are the
 * candidates, a superset of every row a fact can come from; only they are read in full and handed to
 * `deriveFacts`, which stays one pure function over rows:
 *
 * - the newest conclusive `step_done` row of every command, and the newest conclusive test run;
 * - the newest `agent_activated` rows, the newest plan note, the newest 3 continuity candidates;
 * - in the span P: the newest `artifact` row of every file and the newest `agent_message` rows.
 *
 * The window W has two parts: the session's rows, and the rows of its run R recorded without a session id (runtime
 * notes, older harnesses). Each part's candidates of each kind are reached through an index that holds that kind
 * (store/event-indexes.ts): a few seeks per kind, one per command for the steps and, in a long span, one per file,
 * never a read of the window. They are then classified by one SQL (`SCAN_COLUMNS`) and picked by one rule
 * (`pickCandidates`), so the checkpoint is the one a scan of every row of W would give (test/recap-rows-property.test.ts
 * and test/recap-rows-files.test.ts compare both on random and hostile stores, on every path).
 */
import type { Database } from "bun:sqlite";
import {
  FILE_KEYS_BELOW, fileKey, HOOKS_MARK, NOT_NOTES, noteTerm, planNoteTerm, scopeTerm, SPAN_FILES_INDEX, STEP_KEYS_BELOW, stepKey,
  WITHHELD_INDEX, withheldCandidateTerm,
} from "../store/event-indexes.ts";
import { boundaryOf, LIVE_RUN, runMarkers, sessionBoundary } from "./markers.ts";

/** The columns a checkpoint reads; everything else in the row is irrelevant to it. */
export type EventRow = {
  id: number;
  run_key: string | null;
  event_type: string;
  message: string;
  payload_json: string | null;
  harness_session_id: string | null;
};

/**
 * Candidate rows of the whole-session window W (by id) and B; the span P is the rows with `id > boundary`. `listed`
 * when the failing commands and the files were read newest first only as far as the checkpoint shows them
 * (`longWindowRows`).
 */
export type RecapRows = { window: EventRow[]; boundary: number; listed?: Listed };

/**
 * `stepsFrom` / `filesFrom`: the window holds every step row of W / artifact row of P from that id on, and no older
 * one may decide a command or name a file (0: the window holds the candidates of every command / file). `withheld`:
 * the rows of W and P that may carry a withheld command or file (event-indexes.ts withheldCandidateTerm), from which
 * the checkpoint counts the withheld items of the lists past what was read.
 */
export type Listed = { stepsFrom: number; filesFrom: number; withheld: EventRow[] };

export const BOOKKEEPING: ReadonlySet<string> = new Set(NOT_NOTES);

/** Newest activations read: an id is only ever invalid in a corrupt row, so a few are plenty. */
const ACTIVATIONS_READ = 16;
/** Newest messages read to find a non-blank one (hooks:emit never records a blank message). */
const MESSAGES_READ = 8;
const NOTES_READ = 3;

const COLUMNS = "e.id, e.run_key, e.event_type, e.message, e.payload_json, e.harness_session_id";

/** The harness session that recorded last in a `source='live'` run (spec 5.3 third choice). */
export function latestHarnessSession(db: Database): string | null {
  const row = db
    .query(`SELECT e.harness_session_id AS id FROM execution_events e WHERE e.harness_session_id IS NOT NULL AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 1`)
    .get() as { id: string } | null;
  return row?.id ?? null;
}

/** What a scanned row can be a candidate for (computed in SQL, see `SCAN_COLUMNS`). */
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
 * hooks: 0/1), grouping key: the text a fact of the row is read from (a step's payload and message, an artifact's
 * payload), so two rows of one key give the same facts and only the newest is needed. A part of that text would not
 * do: the payload from `"command":` on is shared by `{"a\"command":"x"}` and `{"command":"x"}`.
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
    // Indexed reads, not destructuring: this loop runs cold on a hook's critical path.
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
    const noteCandidate = note === 1 && notes < NOTES_READ;
    if (noteCandidate) notes++;
    if (take || noteCandidate) picked.push(id);
  }
  return picked;
}

/**
 * The classification of a row for `pickCandidates` (`$boundary` is B). `note` tests the hooks mark first: a CASE
 * stops there for the rows hooks wrote (almost all), where `NOT IN (…) AND instr(…)` would evaluate both sides.
 */
const SCAN_COLUMNS = `e.id AS id,
  CASE e.event_type
    WHEN 'step_done' THEN ${Kind.Step}
    WHEN 'artifact' THEN CASE WHEN e.id > $boundary THEN ${Kind.SpanArtifact} ELSE ${Kind.Other} END
    WHEN 'agent_activated' THEN ${Kind.Activation}
    WHEN 'agent_message' THEN CASE WHEN e.id > $boundary THEN ${Kind.SpanMessage} ELSE ${Kind.Other} END
    WHEN 'note' THEN CASE WHEN ${planNoteTerm("e.")} THEN ${Kind.PlanNote} ELSE ${Kind.Other} END
    ELSE ${Kind.Other} END AS kind,
  CASE WHEN instr(COALESCE(e.payload_json, ''), '${HOOKS_MARK}') > 0 THEN 0 ELSE e.event_type NOT IN (${NOT_NOTES.map((type) => `'${type}'`).join(", ")}) END AS note,
  CASE
    WHEN e.event_type = 'step_done' THEN COALESCE(length(e.payload_json), -1) || ':' || COALESCE(e.payload_json, '') || e.message
    WHEN e.event_type = 'artifact' AND e.id > $boundary THEN COALESCE(e.payload_json, '')
  END AS grp`;

/** The rows matching `where`, classified, in id order (only those that can be a candidate of some kind). */
function scan(db: Database, where: string, params: Record<string, string | number>): ScanRow[] {
  return db
    .query(`SELECT id, kind, note, grp FROM (SELECT ${SCAN_COLUMNS} FROM execution_events e WHERE ${where}) WHERE kind > 0 OR note = 1 ORDER BY id`)
    .values(params) as ScanRow[];
}

const SESSION = `e.harness_session_id = $session`;

/**
 * One part of W (see the module comment), as SQL on `execution_events e` with `$scope` bound to the session id or
 * to R: `exact` is the part's condition, `typed` its rows of one event type through the index that holds them
 * (session_type, unsessioned_type), `spanTyped` those in P. `spanRange` is the index range of `spanTyped` alone,
 * which `typeIndex` answers without reading a row (a count). The recap indexes are keyed by scopeTerm, and INDEXED
 * BY holds the planner to them: the session's rows of one type would otherwise look cheaper, and be read one by one.
 */
type Part = {
  exact: string;
  typed: (type: string) => string;
  spanTyped: (type: string) => string;
  spanRange: (type: string) => string;
  typeIndex: string;
};

const SESSION_PART: Part = {
  exact: `e.harness_session_id = $scope AND ${LIVE_RUN}`,
  typed: (type) => `e.harness_session_id = $scope AND e.event_type = '${type}' AND ${LIVE_RUN}`,
  spanTyped: (type) => `e.harness_session_id = $scope AND e.event_type = '${type}' AND e.id > $span AND ${LIVE_RUN}`,
  spanRange: (type) => `e.harness_session_id = $scope AND e.event_type = '${type}' AND e.id > $span`,
  typeIndex: "idx_execution_events_session_type",
};

/** R's rows without a session id after `$after` (max(B, first id of the session in R − 1)); P starts at `$span`. */
const RUN_PART: Part = {
  exact: "e.harness_session_id IS NULL AND e.run_key = $scope AND e.id > $after",
  typed: (type) => `e.run_key = $scope AND e.harness_session_id IS NULL AND e.event_type = '${type}' AND e.id > $after`,
  spanTyped: (type) => `e.run_key = $scope AND e.harness_session_id IS NULL AND e.event_type = '${type}' AND e.id > $span`,
  spanRange: (type) => `e.run_key = $scope AND e.harness_session_id IS NULL AND e.event_type = '${type}' AND e.id > $span`,
  typeIndex: "idx_execution_events_unsessioned_type",
};

const SCOPE = `${scopeTerm("e.")} = $scope`;
const KEY = stepKey("e.");
const STEPS = `${SCOPE} AND e.event_type = 'step_done'`;

/**
 * A part's candidates of every kind but the files (`spanFiles`): the newest activations and messages, the newest plan
 * note, the newest continuity candidates and the newest conclusive step of every step key: a skip scan of
 * recap_steps, one seek to the next key and one to its newest row, so the cost grows with the commands, not with
 * the rows.
 */
function partCandidates(part: Part): string {
  return `${partOthers(part)}
  UNION ALL ${partSteps(part)}`;
}

/** A part's candidates of every kind but the steps and the files. */
function partOthers(part: Part): string {
  return `
  SELECT id FROM (SELECT e.id FROM execution_events e WHERE ${part.typed("agent_activated")} ORDER BY e.id DESC LIMIT ${ACTIVATIONS_READ})
  UNION ALL SELECT id FROM (SELECT e.id FROM execution_events e WHERE ${part.spanTyped("agent_message")} ORDER BY e.id DESC LIMIT ${MESSAGES_READ})
  UNION ALL SELECT id FROM (SELECT e.id FROM execution_events e INDEXED BY idx_execution_events_recap_plans
    WHERE ${SCOPE} AND e.event_type = 'note' AND ${planNoteTerm("e.")} AND ${part.exact} ORDER BY e.id DESC LIMIT 1)
  UNION ALL SELECT id FROM (SELECT e.id FROM execution_events e INDEXED BY idx_execution_events_recap_notes
    WHERE ${SCOPE} AND e.run_key IS NOT NULL AND ${noteTerm("e.")} AND ${part.exact} ORDER BY e.id DESC LIMIT ${NOTES_READ})`;
}

/** A part's newest conclusive step of every step key. */
function partSteps(part: Part): string {
  return `SELECT * FROM (WITH RECURSIVE keys(k) AS (
      SELECT (SELECT ${KEY} FROM execution_events e WHERE ${STEPS} AND ${KEY} < ${STEP_KEYS_BELOW} ORDER BY ${KEY} LIMIT 1)
      UNION ALL
      SELECT (SELECT ${KEY} FROM execution_events e WHERE ${STEPS} AND ${KEY} > keys.k AND ${KEY} < ${STEP_KEYS_BELOW} ORDER BY ${KEY} LIMIT 1)
      FROM keys WHERE keys.k IS NOT NULL)
    SELECT (SELECT e.id FROM execution_events e WHERE ${STEPS} AND ${KEY} = keys.k AND ${part.exact} ORDER BY e.id DESC LIMIT 1) FROM keys WHERE keys.k IS NOT NULL)`;
}

export const SESSION_CANDIDATES = partCandidates(SESSION_PART);
export const RUN_CANDIDATES = partCandidates(RUN_PART);
const SESSION_OTHERS = partOthers(SESSION_PART);
const RUN_OTHERS = partOthers(RUN_PART);
const SESSION_STEPS = partSteps(SESSION_PART);
const RUN_STEPS = partSteps(RUN_PART);

function presentIds(rows: ReadonlyArray<readonly unknown[]>): number[] {
  // A hostile store can hold anything in a column; only an integer is an id.
  return rows.map((row) => row[0]).filter((id): id is number => Number.isSafeInteger(id));
}

function candidateIds(db: Database, sql: string, params: Record<string, string | number>): number[] {
  return presentIds(db.query(sql).values(params));
}

/**
 * How the files of P are reached (tests force each path on small stores):
 * - `spanArtifactsRead`: P's artifact rows of a part below which they are read whole. A walk of span_files seeks
 *   through every file of the scope (hundreds in a long session) to find the few that a short P touched;
 * - `filesWalked`: the files walked before the walk gives up for the whole read. A scope of more files than that
 *   (each text of an untrusted payload is a key of its own) costs less read row by row.
 */
export type FileReads = { spanArtifactsRead: number; filesWalked: number };

export const FILE_READS: FileReads = { spanArtifactsRead: 1_024, filesWalked: 4_096 };

const FILE = fileKey("e.");
const FILE_KEYS = `${SCOPE} AND e.event_type = 'artifact' AND ${FILE} < ${FILE_KEYS_BELOW}`;

/** How many of a part's artifact rows P holds, counted up to `$read` in its type index alone. */
const spanArtifactsCount = (part: Part): string =>
  `SELECT count(*) AS n FROM (SELECT 1 FROM execution_events e INDEXED BY ${part.typeIndex} WHERE ${part.spanRange("artifact")} LIMIT $read)`;

/**
 * The newest artifact row in P of every payload text, by reading P's artifact rows of the part (cost: those rows).
 * The same text names the same file, so these rows hold the newest row of every file; grouping by the text costs no
 * more than grouping by its part from `"file":` did, and half as much as computing fileKey on every row.
 */
const spanFilesRead = (part: Part): string =>
  `SELECT MAX(e.id) FROM execution_events e INDEXED BY ${part.typeIndex} WHERE ${part.spanTyped("artifact")} GROUP BY e.payload_json`;

/**
 * The newest artifact row in P of every file key, by a skip scan of span_files: one seek to the next file key of the
 * scope, one to its newest row in P (none for a file P did not touch), so the cost grows with the files, not with
 * the rows. One result row per key walked, at most `$walked`.
 */
const spanFilesWalk = (part: Part): string => `WITH RECURSIVE files(k, n) AS (
    SELECT (SELECT ${FILE} FROM execution_events e INDEXED BY ${SPAN_FILES_INDEX} WHERE ${FILE_KEYS} ORDER BY ${FILE} LIMIT 1), 1
    UNION ALL
    SELECT (SELECT ${FILE} FROM execution_events e INDEXED BY ${SPAN_FILES_INDEX} WHERE ${FILE_KEYS} AND ${FILE} > files.k ORDER BY ${FILE} LIMIT 1), files.n + 1
    FROM files WHERE files.k IS NOT NULL AND files.n < $walked)
  SELECT (SELECT e.id FROM execution_events e INDEXED BY ${SPAN_FILES_INDEX} WHERE ${FILE_KEYS} AND ${FILE} = files.k AND ${part.spanTyped("artifact")}
    ORDER BY e.id DESC LIMIT 1)
  FROM files WHERE files.k IS NOT NULL`;

type FileQueries = { count: string; read: string; walk: string };

const fileQueries = (part: Part): FileQueries => ({ count: spanArtifactsCount(part), read: spanFilesRead(part), walk: spanFilesWalk(part) });
const SESSION_FILES = fileQueries(SESSION_PART);
const RUN_FILES = fileQueries(RUN_PART);

/**
 * Whether the store has span_files: a store made before it was added lacks it until a migration builds it. (An index
 * of that name defined otherwise, which only a hand-made store holds, at worst fails the walk's INDEXED BY, and the
 * recap gives its empty result.)
 */
function hasSpanFiles(db: Database): boolean {
  return hasIndex(db, SPAN_FILES_INDEX);
}

function hasIndex(db: Database, name: string): boolean {
  return db.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== null;
}

/**
 * A part's candidates for the files of P: the newest row of every file in P (and maybe a few more rows, which
 * `pickCandidates` and `deriveFacts` sort out). A short P is read whole; a long one (a session that never compacted:
 * a hundred thousand rows, a few hundred files) is walked file by file, unless the store lacks span_files or the
 * scope has more than `filesWalked` files.
 */
function spanFiles(db: Database, queries: FileQueries, params: Record<string, string | number>, reads: FileReads): number[] {
  const bound = { ...params, $read: reads.spanArtifactsRead, $walked: reads.filesWalked };
  const { n } = db.query(queries.count).get(bound) as { n: number };
  if (n >= reads.spanArtifactsRead && hasSpanFiles(db)) {
    const walked = db.query(queries.walk).values(bound);
    if (walked.length < reads.filesWalked) return presentIds(walked);
  }
  return candidateIds(db, queries.read, bound);
}

/**
 * R, the run the session writes to (the run of its newest row in a live run), and the id after which R's rows
 * without a session id belong to W: max(B, first id of the session in R − 1). The session's rows are read in id
 * order only within P (after B), where the first row in R usually is: from there, an earlier row in R only matters
 * when R has a row without a session id between B and that row, and only when R is older than B too (a hooks
 * session that a harness session moved into after a close is not) is the session read before B.
 */
function sessionRun(db: Database, session: string, boundary: number): { run: string; after: number } | null {
  const newest = db
    .query(`SELECT e.run_key AS run FROM execution_events e WHERE ${SESSION} AND ${LIVE_RUN} ORDER BY e.id DESC LIMIT 1`)
    .get({ $session: session }) as { run: string } | null;
  if (!newest) return null;
  const params = { $session: session, $run: newest.run, $boundary: boundary };
  // The newest row is after B (B is an older marker of the session), so a first row in R after B exists.
  const first = db.query(`SELECT e.id FROM execution_events e WHERE ${SESSION} AND e.id > $boundary AND e.run_key = $run ORDER BY e.id LIMIT 1`).get(params) as {
    id: number;
  };
  if (first.id - 1 === boundary) return { run: newest.run, after: boundary };
  const between = db.query(`SELECT 1 FROM execution_events e WHERE e.run_key = $run AND e.harness_session_id IS NULL AND e.id > $boundary AND e.id < $first LIMIT 1`);
  if (!between.get({ $run: newest.run, $boundary: boundary, $first: first.id })) return { run: newest.run, after: boundary };
  // A run that started after B (its first row: sequence 1) holds no earlier row of the session.
  const start = db.query("SELECT e.id FROM execution_events e WHERE e.run_key = ? ORDER BY e.sequence_no LIMIT 1").get(newest.run) as { id: number };
  if (start.id > boundary) return { run: newest.run, after: first.id - 1 };
  const earlier = db.query(`SELECT 1 FROM execution_events e WHERE ${SESSION} AND e.run_key = $run AND e.id <= $boundary ORDER BY e.id DESC LIMIT 1`).get(params);
  return { run: newest.run, after: earlier ? boundary : first.id - 1 };
}

function fetchRows(db: Database, ids: readonly number[]): EventRow[] {
  if (ids.length === 0) return [];
  return db
    .query(`SELECT ${COLUMNS} FROM execution_events e WHERE e.id IN (SELECT value FROM json_each(?)) ORDER BY e.id`)
    .all(JSON.stringify(ids)) as EventRow[];
}

function candidateRows(db: Database, rows: ScanRow[], boundary: number): RecapRows | null {
  if (rows.length === 0) return null;
  return { window: fetchRows(db, pickCandidates(rows)), boundary };
}

/**
 * Spec 5.4 for one harness session; null when the session recorded nothing. W is the session's rows in live runs,
 * plus the rows of its run R (the run of its newest row) without a session id after max(B, first id of the
 * session in R − 1). B is the id of the second-to-last compaction marker that counts (markers.ts), else 0.
 */
export function harnessSessionRows(db: Database, session: string, reads: FileReads = FILE_READS): RecapRows | null {
  const window = sessionWindow(db, session);
  if (!window) return null;
  const { inSession, inRun, boundary } = window;
  const ids = [
    ...candidateIds(db, SESSION_CANDIDATES, inSession),
    ...spanFiles(db, SESSION_FILES, inSession, reads),
    ...candidateIds(db, RUN_CANDIDATES, inRun),
    ...spanFiles(db, RUN_FILES, inRun, reads),
  ];
  return candidateRows(db, scanIds(db, ids, boundary), boundary);
}

type Params = Record<string, string | number>;
/** B and the bound parameters of the two parts of W (see `Part`). */
type SessionWindow = { boundary: number; inSession: Params; inRun: Params };

function sessionWindow(db: Database, session: string): SessionWindow | null {
  const boundary = sessionBoundary(db, session);
  const span = sessionRun(db, session, boundary);
  if (!span) return null;
  return {
    boundary,
    inSession: { $scope: session, $span: boundary },
    inRun: { $scope: span.run, $after: span.after, $span: Math.max(span.after, boundary) },
  };
}

function scanIds(db: Database, ids: readonly number[], boundary: number): ScanRow[] {
  return ids.length === 0 ? [] : scan(db, "e.id IN (SELECT value FROM json_each($ids))", { $ids: JSON.stringify(ids), $boundary: boundary });
}

/** Whether rows read so far decide the checkpoint's failing commands and last test (`steps`) and its files (`files`). */
export type ListsShown = (rows: RecapRows) => { steps: boolean; files: boolean };

/**
 * How far `longWindowRows` reads (tests force each path on small stores). A session that never compacted runs tens
 * of thousands of distinct commands over thousands of files (one seek or two each for the candidates), and the
 * checkpoint shows 5 and 15 of them, the newest.
 */
export type WalkReads = {
  /** The rows of each kind read newest first, page after page, before the kind falls back to its candidates. */
  pages: readonly number[];
  /** Rows that may carry a withheld item read at most; more (a session of non-ASCII commands) read the candidates. */
  withheld: number;
};

/** A first page holds the newest 5 failing commands, a last test and 15 files of an ordinary session. */
export const WALK_READS: WalkReads = { pages: [64, 448], withheld: 2_048 };

const newestOf = (part: Part, type: string, range: (type: string) => string): string =>
  `SELECT ${COLUMNS} FROM execution_events e INDEXED BY ${part.typeIndex} WHERE ${range(type)} AND e.id < $before ORDER BY e.id DESC LIMIT $page`;

type Newest = { session: string; run: string };
const NEWEST_STEPS: Newest = { session: newestOf(SESSION_PART, "step_done", SESSION_PART.typed), run: newestOf(RUN_PART, "step_done", RUN_PART.typed) };
const NEWEST_FILES: Newest = { session: newestOf(SESSION_PART, "artifact", SESSION_PART.spanTyped), run: newestOf(RUN_PART, "artifact", RUN_PART.spanTyped) };

/**
 * The rows of both parts with an id below `before`, newest first, down to `from`: the oldest id up to which both
 * parts were read whole (a part that filled its page may hold older rows than it returned), 0 when both are.
 */
function newestPage(db: Database, newest: Newest, window: SessionWindow, before: number, page: number): { rows: EventRow[]; from: number } {
  const read = (sql: string, params: Params) => db.query(sql).all({ ...params, $before: before, $page: page }) as EventRow[];
  const parts = [read(newest.session, window.inSession), read(newest.run, window.inRun)];
  const from = Math.max(0, ...parts.map((rows) => (rows.length < page ? 0 : (rows.at(-1) as EventRow).id)));
  return { rows: parts.flat().filter((row) => row.id >= from), from };
}

/** A kind read newest first: its rows so far, and the id they reach down to (`Listed`; 0: all rows, or candidates). */
type Walk = { rows: EventRow[]; from: number; done: boolean };

function withheldRows(db: Database, window: SessionWindow, most: number): EventRow[] | null {
  const sql = (part: Part) => `SELECT ${COLUMNS} FROM execution_events e INDEXED BY ${WITHHELD_INDEX}
    WHERE ${SCOPE} AND e.event_type IN ('step_done', 'artifact') AND ${withheldCandidateTerm("e.")} AND ${part.exact}
      AND (e.event_type = 'step_done' OR e.id > $span) LIMIT $read`;
  const read = { $read: most + 1 };
  const session = db.query(sql(SESSION_PART)).all({ ...window.inSession, ...read }) as EventRow[];
  const run = db.query(sql(RUN_PART)).all({ ...window.inRun, ...read }) as EventRow[];
  // In id order, as deriveFacts reads a window.
  return session.length + run.length > most ? null : byId(session, run);
}

/** Rows by id, once each, in id order. */
function byId(...lists: ReadonlyArray<readonly EventRow[]>): EventRow[] {
  const rows = new Map<number, EventRow>();
  for (const list of lists) for (const row of list) rows.set(row.id, row);
  return [...rows.values()].sort((a, b) => a.id - b.id);
}

/**
 * Spec 5.4 for one harness session, for its checkpoint: the same text as `harnessSessionRows` gives, at a cost that
 * does not grow with the commands and files of the window. The step rows of W and the artifact rows of P are read
 * newest first until `shown` says the checkpoint's lists are decided (the newest conclusive row of a command decides
 * it, so the commands decided by the rows read are the newest of the failing list, in its order; the same for the
 * files); the withheld items past them are counted from the few rows that may carry one (`withheldRows`). A kind
 * not decided within `reads.pages` falls back to its candidates, and a store without the withheld index, or with too
 * many such rows, to `harnessSessionRows`.
 */
export function longWindowRows(db: Database, session: string, shown: ListsShown, reads: WalkReads = WALK_READS): RecapRows | null {
  if (!hasIndex(db, WITHHELD_INDEX)) return harnessSessionRows(db, session);
  const window = sessionWindow(db, session);
  if (!window) return null;
  const { boundary, inSession, inRun } = window;
  const otherIds = [...candidateIds(db, SESSION_OTHERS, inSession), ...candidateIds(db, RUN_OTHERS, inRun)];
  const others = otherIds.length === 0 ? [] : fetchRows(db, pickCandidates(scanIds(db, otherIds, boundary)));
  const steps: Walk = { rows: [], from: Number.MAX_SAFE_INTEGER, done: false };
  const files: Walk = { rows: [], from: Number.MAX_SAFE_INTEGER, done: false };
  const rows = (withheld: EventRow[]): RecapRows => ({
    window: byId(others, steps.rows, files.rows),
    boundary,
    listed: { stepsFrom: steps.from, filesFrom: files.from, withheld },
  });
  for (const page of reads.pages) {
    for (const [walk, newest] of [[steps, NEWEST_STEPS], [files, NEWEST_FILES]] as const) {
      if (walk.done) continue;
      const next = newestPage(db, newest, window, walk.from, page);
      walk.rows.push(...next.rows);
      walk.from = next.from;
    }
    // Items withheld past the rows read change no line the decision looks at.
    const decided = shown(rows([]));
    steps.done ||= steps.from === 0 || decided.steps;
    files.done ||= files.from === 0 || decided.files;
    if (steps.done && files.done) break;
  }
  const withheld = steps.from === 0 && files.from === 0 ? [] : withheldRows(db, window, reads.withheld);
  if (!steps.done || withheld === null) {
    steps.rows = fetchRows(db, [...candidateIds(db, SESSION_STEPS, inSession), ...candidateIds(db, RUN_STEPS, inRun)]);
    steps.from = 0;
  }
  if (!files.done || withheld === null) {
    files.rows = fetchRows(db, [...spanFiles(db, SESSION_FILES, inSession, FILE_READS), ...spanFiles(db, RUN_FILES, inRun, FILE_READS)]);
    files.from = 0;
  }
  // With both lists whole, their withheld items are counted where they are listed.
  return rows(steps.from === 0 && files.from === 0 ? [] : (withheld ?? []));
}

/**
 * Spec 5.4 legacy mode (no row of a live run has a session id, so neither has any row of R): W = P = the rows of
 * run R after its own previous compaction.
 */
export function legacyRunRows(db: Database, runKey: string): RecapRows | null {
  const boundary = boundaryOf(runMarkers(db, runKey));
  return candidateRows(db, scan(db, "e.run_key = $run AND e.harness_session_id IS NULL AND e.id > $boundary", { $run: runKey, $boundary: boundary }), boundary);
}
