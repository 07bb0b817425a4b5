/**
 * Every read the dashboard makes of a store. A store holds a million events after months of use, so each statement
 * here is answered through an index, reads a bounded number of rows (a keyset page, a LIMIT, or one seek per
 * harness session), and never scans `execution_events`; `test/dashboard/query-plans.test.ts` checks each plan.
 */
import type { Database } from "bun:sqlite";
import { canonicalAgent } from "../core/agent.ts";
import { JSON_READ_MAX, SIZE_OF, TEXT_READ_MAX, within } from "../store/bounded.ts";
import { parseJsonObject } from "../store/records.ts";
import { IDLE_MINUTES, type HarnessSession, type HooksSession, type Owner, type ProjectSummary, type SessionFilters, type ViewEvent } from "./api.ts";
import { EVENT_COLUMNS, PAYLOAD_MAX, viewEvent, type EventRow } from "./events.ts";

/** Rows of the newest events read for a chart or a bounded aggregate. */
export const RECENT_WINDOW = 20_000;
/** Harness sessions listed per project page (the page asks for more). */
export const SESSIONS_PAGE = 30;
export const SESSIONS_MAX = 500;
export const HARNESS_SESSIONS_MAX = 50_000;
export const TIMELINE_PAGE = 100;
export const TIMELINE_MAX = 500;
const LIVE_RUNS_MAX = 500;
const HOUR_MS = 3_600_000;

/** A payload of the window `w` that may be parsed in SQL (json_extract fails on malformed JSON). */
const VALID_PAYLOAD = `${SIZE_OF}(w.payload_json) <= ${PAYLOAD_MAX} AND json_valid(w.payload_json)`;

export const SQL = {
  lastEvent: "SELECT id, created_at FROM execution_events WHERE id = (SELECT MAX(id) FROM execution_events)",
  /** Hourly counts of the newest events since a time (bounded by RECENT_WINDOW rows). */
  hourly: `SELECT substr(created_at, 1, 13) AS hour, COUNT(*) AS n FROM
    (SELECT created_at FROM execution_events WHERE created_at >= ? ORDER BY created_at DESC LIMIT ${RECENT_WINDOW}) GROUP BY hour`,
  /** `agent_runs` and `tasks` hold one row per session or direct run: small tables next to the event log. */
  liveRuns: `SELECT ${["r.run_key", "r.session_key", "r.agent_name", "r.title", "r.status", "r.started_at", "r.finished_at"].map((c) => `${within(c, TEXT_READ_MAX)} AS ${c.slice(2)}`).join(", ")},
    ${within("t.meta_json", JSON_READ_MAX)} AS meta_json
    FROM agent_runs r LEFT JOIN tasks t ON t.task_key = r.task_key WHERE r.source = 'live' ORDER BY r.started_at DESC LIMIT ${LIVE_RUNS_MAX}`,
  runLast: "SELECT sequence_no, created_at FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC LIMIT 1",
  runFirst: "SELECT created_at FROM execution_events WHERE run_key = ? ORDER BY sequence_no LIMIT 1",
  /**
   * Every harness session id with its first and last row: a skip scan, one index seek per session, at most
   * HARNESS_SESSIONS_MAX of them (a store with more is not one a person made, and must not fill the server's memory).
   */
  harnessSessions: `WITH RECURSIVE ids(h) AS (
      SELECT (SELECT harness_session_id FROM execution_events WHERE harness_session_id IS NOT NULL ORDER BY harness_session_id LIMIT 1)
      UNION ALL
      SELECT (SELECT harness_session_id FROM execution_events WHERE harness_session_id > ids.h ORDER BY harness_session_id LIMIT 1) FROM ids WHERE ids.h IS NOT NULL
      LIMIT ${HARNESS_SESSIONS_MAX})
    SELECT h AS id, (SELECT MIN(id) FROM execution_events WHERE harness_session_id = h) AS first,
      (SELECT MAX(id) FROM execution_events WHERE harness_session_id = h) AS last FROM ids WHERE h IS NOT NULL`,
  rowsById: "SELECT id, created_at, event_type, run_key, agent_name FROM execution_events WHERE id IN (SELECT value FROM json_each(?))",
  sessionCount: "SELECT COUNT(*) AS n FROM execution_events WHERE harness_session_id = ?",
  sessionSpan: "SELECT MIN(id) AS first, MAX(id) AS last FROM execution_events WHERE harness_session_id = ?",
  /** The newest row of a harness session that belongs to a run (standalone guard rows carry the id but no run). */
  sessionRun: "SELECT run_key FROM execution_events WHERE harness_session_id = ? AND run_key IS NOT NULL ORDER BY id DESC LIMIT 1",
  timelineSession: `SELECT ${EVENT_COLUMNS} FROM execution_events e WHERE e.harness_session_id = ? AND e.id < ? ORDER BY e.id DESC LIMIT ?`,
  /** A run's rows in order through its index: `sequence_no` grows with `id` inside a run (spec 2.5). */
  timelineRun: `SELECT ${EVENT_COLUMNS}, e.sequence_no FROM execution_events e WHERE e.run_key = ? AND e.sequence_no < ? ORDER BY e.sequence_no DESC LIMIT ?`,
  newEvents: `SELECT ${EVENT_COLUMNS} FROM execution_events e WHERE e.id > ? ORDER BY e.id LIMIT ?`,
  sessionTyped: `SELECT ${EVENT_COLUMNS} FROM execution_events e WHERE e.harness_session_id = ? AND e.event_type = ? ORDER BY e.id DESC LIMIT ?`,
  sessionTypeCount: "SELECT COUNT(*) AS n FROM execution_events WHERE harness_session_id = ? AND event_type = ?",
  /** Decisions of a session by kind, over its newest RECENT_WINDOW decisions. */
  sessionDecisions: `SELECT json_extract(w.payload_json, '$.decision') AS decision, COUNT(*) AS n FROM
    (SELECT payload_json FROM execution_events WHERE harness_session_id = ? AND event_type = 'guard_decision' ORDER BY id DESC LIMIT ${RECENT_WINDOW}) w
    WHERE ${VALID_PAYLOAD} GROUP BY decision`,
  sessionTimes: "SELECT created_at FROM execution_events WHERE harness_session_id = ? ORDER BY id DESC LIMIT ?",
  runTimes: "SELECT created_at FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC LIMIT ?",
  /** The harness session a run's newest rows belong to (its index, backwards to the first row that has one). */
  runSession: `SELECT harness_session_id FROM (SELECT harness_session_id FROM execution_events WHERE run_key = ? ORDER BY sequence_no DESC LIMIT ${RECENT_WINDOW}) w
    WHERE harness_session_id IS NOT NULL LIMIT 1`,
  /** A run's newest rows (through its index): a run has no index by event type, so its panels read this window. */
  runRecent: `SELECT ${EVENT_COLUMNS} FROM execution_events e WHERE e.run_key = ? ORDER BY e.sequence_no DESC LIMIT ?`,
  /** The newest `?` ids (ids only ever grow: AUTOINCREMENT). */
  recentTimes: "SELECT created_at, agent_name FROM execution_events WHERE id > (SELECT MAX(id) FROM execution_events) - ?",
  /** Distinct agent names: a skip scan of the agent/type index. */
  agents: `WITH RECURSIVE a(n) AS (
      SELECT (SELECT agent_name FROM execution_events WHERE agent_name IS NOT NULL ORDER BY agent_name LIMIT 1)
      UNION ALL
      SELECT (SELECT agent_name FROM execution_events WHERE agent_name > a.n ORDER BY agent_name LIMIT 1) FROM a WHERE a.n IS NOT NULL)
    SELECT n FROM a WHERE n IS NOT NULL LIMIT 200`,
  /** The newest rows of one type written for an agent (through the agent/type index); a run's are picked from them. */
  agentTyped: `SELECT ${EVENT_COLUMNS} FROM execution_events e WHERE e.agent_name = ? AND e.event_type = ? ORDER BY e.created_at DESC LIMIT ?`,
} as const;

export type LiveRun = HooksSession & { meta: Record<string, unknown> | null };

function owner(meta: Record<string, unknown> | null, sessionKey: string | null): Owner {
  if (meta?.owner === "hooks" || meta?.owner === "guard" || meta?.owner === "live") return meta.owner;
  if (meta?.auto_started === true) return "hooks";
  if (meta?.guarded === true) return "guard";
  if (sessionKey?.startsWith("hooks-")) return "hooks";
  if (sessionKey?.startsWith("guard-")) return "guard";
  return "live";
}

const OPEN: ReadonlySet<string> = new Set(["running", "queued"]);
const ENDS: ReadonlySet<string> = new Set(["session_ended", "session_closed"]);

/** `@dev` for `dev` or `@dev` (spec 0.2 readers accept both). */
export function agentLabel(name: string | null): string | null {
  return name ? `@${canonicalAgent(name)}` : null;
}

/** The live runs (hooks, guard and live sessions), most recently started first, with their last event. */
export function liveRuns(db: Database): LiveRun[] {
  const rows = db.query(SQL.liveRuns).all() as Array<{
    run_key: string; session_key: string | null; agent_name: string; title: string | null; status: string;
    started_at: string; finished_at: string | null; meta_json: string | null;
  }>;
  const last = db.query(SQL.runLast);
  return rows.map((row) => {
    const meta = parseJsonObject(row.meta_json);
    const tail = last.get(row.run_key) as { sequence_no: number; created_at: string } | null;
    const tool = meta?.tool_session;
    return {
      run: row.run_key,
      sessionKey: row.session_key,
      agent: agentLabel(row.agent_name) ?? row.agent_name,
      harness: typeof tool === "string" && tool ? tool : null,
      owner: owner(meta, row.session_key),
      title: row.title,
      status: row.status,
      open: OPEN.has(row.status),
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      lastEventAt: tail?.created_at ?? null,
      events: tail?.sequence_no ?? 0,
      meta,
    };
  });
}

export function lastEvent(db: Database): { id: number; created_at: string } | null {
  return (db.query(SQL.lastEvent).get() as { id: number; created_at: string } | null) ?? null;
}

/** Events per hour over the 24 hours that end at `until`, oldest first. */
export function hourlyActivity(db: Database, until: string | null): number[] {
  const hours = new Array<number>(24).fill(0);
  const end = until ? Date.parse(until) : Number.NaN;
  if (!Number.isFinite(end)) return hours;
  const first = Math.floor(end / HOUR_MS) - 23;
  const since = new Date(first * HOUR_MS).toISOString();
  for (const row of db.query(SQL.hourly).all(since) as Array<{ hour: string; n: number }>) {
    const at = Date.parse(`${row.hour}:00:00.000Z`);
    const index = Math.floor(at / HOUR_MS) - first;
    if (index >= 0 && index < 24) hours[index] = (hours[index] ?? 0) + row.n;
  }
  return hours;
}

export function projectSummary(db: Database, base: Pick<ProjectSummary, "id" | "root" | "name">, runs: readonly LiveRun[] = liveRuns(db)): ProjectSummary {
  const last = lastEvent(db);
  return {
    ...base,
    store: true,
    problem: null,
    events: last?.id ?? 0,
    lastEventAt: last?.created_at ?? null,
    openSessions: runs.filter((run) => run.open).length,
    liveRuns: runs.length,
    activity: hourlyActivity(db, last?.created_at ?? null),
  };
}

type RowHead = { id: number; created_at: string; event_type: string; run_key: string | null; agent_name: string | null };

function rowsById(db: Database, ids: readonly number[]): Map<number, RowHead> {
  const rows = ids.length === 0 ? [] : (db.query(SQL.rowsById).all(JSON.stringify(ids)) as RowHead[]);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Every harness session, most recent first. A session belongs to the run of its newest row that has one; its agent
 * is that row's; it is open while that run is open and its last row is not a session end. `events` is counted only
 * for the sessions returned by `listHarnessSessions`.
 */
function sessionState(runOpen: boolean, lastType: string, lastAt: string, now: number): HarnessSession["state"] {
  if (!runOpen || ENDS.has(lastType)) return "closed";
  return now - Date.parse(lastAt) > IDLE_MINUTES * 60_000 ? "idle" : "open";
}

type Span = { id: string; first: number; last: number };

/** One harness session from its first and last rows (see allHarnessSessions). */
function harnessSessionOf(db: Database, span: Span, heads: Map<number, RowHead>, byRun: Map<string, LiveRun>, now: number): HarnessSession | null {
  const first = heads.get(span.first);
  const last = heads.get(span.last);
  if (!first || !last) return null;
  const runKey = last.run_key ?? ((db.query(SQL.sessionRun).get(span.id) as { run_key: string } | null)?.run_key ?? null);
  const run = runKey ? byRun.get(runKey) : undefined;
  const state = sessionState(run?.open ?? false, last.event_type, last.created_at, now);
  return {
    id: span.id,
    run: runKey,
    agent: agentLabel(last.agent_name ?? run?.agent ?? null),
    harness: run?.harness ?? null,
    startedAt: first.created_at,
    lastEventAt: last.created_at,
    lastType: last.event_type,
    state,
    open: state === "open",
    events: 0,
  };
}

export function allHarnessSessions(db: Database, runs: readonly LiveRun[], now = Date.now()): HarnessSession[] {
  const spans = db.query(SQL.harnessSessions).all() as Span[];
  const heads = rowsById(db, spans.flatMap((s) => [s.first, s.last]));
  const byRun = new Map(runs.map((run) => [run.run, run]));
  const sessions: Array<{ last: number; session: HarnessSession }> = [];
  for (const span of spans) {
    const session = harnessSessionOf(db, span, heads, byRun, now);
    if (session) sessions.push({ last: span.last, session });
  }
  return sessions.sort((a, b) => b.last - a.last).map((entry) => entry.session);
}

/** One harness session by id (null when no row carries it), without listing the others. */
export function harnessSession(db: Database, runs: readonly LiveRun[], id: string, now = Date.now()): HarnessSession | null {
  const span = db.query(SQL.sessionSpan).get(id) as { first: number | null; last: number | null };
  if (span.first === null || span.last === null) return null;
  return harnessSessionOf(db, { id, first: span.first, last: span.last }, rowsById(db, [span.first, span.last]), new Map(runs.map((run) => [run.run, run])), now);
}

/** A hooks session (no `state`) is open or closed as its run is. */
export function matches(session: { harness: string | null; agent: string | null; open: boolean; state?: HarnessSession["state"] }, filters: SessionFilters): boolean {
  if (filters.harness && session.harness !== filters.harness) return false;
  if (filters.agent && session.agent !== filters.agent) return false;
  if (filters.status === null) return true;
  const state = session.state ?? (session.open ? "open" : "closed");
  return filters.status === "idle" ? state === "idle" : filters.status === "open" ? session.open : state === "closed";
}

/** The most recent `limit` matching sessions, with their event counts. */
export function countEvents(db: Database, sessions: readonly HarnessSession[]): HarnessSession[] {
  const count = db.query(SQL.sessionCount);
  return sessions.map((session) => ({ ...session, events: (count.get(session.id) as { n: number }).n }));
}

export type TimelineScope = { kind: "harness"; id: string } | { kind: "run"; run: string };

/** One keyset page of a session's timeline, newest first; `before` is the cursor the previous page returned. */
export function timeline(db: Database, scope: TimelineScope, before: number | null, limit: number): { events: ViewEvent[]; next: number | null } {
  const cursor = before ?? Number.MAX_SAFE_INTEGER;
  if (scope.kind === "harness") {
    const rows = db.query(SQL.timelineSession).all(scope.id, cursor, limit) as EventRow[];
    return { events: rows.map(viewEvent), next: rows.length === limit ? (rows.at(-1)?.id ?? null) : null };
  }
  const rows = db.query(SQL.timelineRun).all(scope.run, cursor, limit) as Array<EventRow & { sequence_no: number }>;
  return { events: rows.map(viewEvent), next: rows.length === limit ? (rows.at(-1)?.sequence_no ?? null) : null };
}

/** Events recorded after `after`, oldest first (the push of new events). */
export function eventsAfter(db: Database, after: number, limit: number): ViewEvent[] {
  return (db.query(SQL.newEvents).all(after, limit) as EventRow[]).map(viewEvent);
}
