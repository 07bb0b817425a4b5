/**
 * One session's panel: its files, commands still failing, last test, plan, compactions with the checkpoint
 * `hooks:recap` would inject now, guard decisions and `context:usage` per rule. The facts and the checkpoint come
 * from the recap module (the same rows, the same derivation, the same text), the rule usage from the usage module;
 * what they do not cover is read here, each read bounded (see queries.ts).
 */
import type { Database } from "bun:sqlite";
import { canonicalAgent } from "../core/agent.ts";
import { deriveFacts, type Facts } from "../recap/facts.ts";
import { COMPACTION_CONFIRMED, NEEDS_CONFIRMATION_MARK, countedMarkers, sessionMarkers, type MarkerRow } from "../recap/markers.ts";
import { checkpointFromRows } from "../recap/recap.ts";
import { harnessSessionRows, legacyRunRows } from "../recap/rows.ts";
import { GUARD_EVENT_TYPES } from "../store/guard-events.ts";
import { parseJsonObject } from "../store/records.ts";
import { guardUsage } from "../usage/guard-recheck.ts";
import type { ActivityChart, GuardEntry, HarnessSession, SessionDetail, ViewEvent } from "./api.ts";
import { activityChart, testPoints } from "./charts.ts";
import { viewEvent, type EventRow } from "./events.ts";
import { RECENT_WINDOW, SQL, countEvents, type LiveRun } from "./queries.ts";

/** File events read for a session's file list (the newest ones). */
const FILE_EVENTS = 5_000;
/** Test commands read for a session's chart (the newest `step_done` rows, of which the test runs are kept). */
const STEP_EVENTS = 2_000;
const TESTS_SHOWN = 200;
const GUARD_SHOWN = 200;
const COMPACTIONS_SHOWN = 200;
/** context:usage's default window (spec 7.1). */
const USAGE_DAYS = 30;

type Typed = (type: string, limit: number) => EventRow[];

function guardEntries(typed: Typed): GuardEntry[] {
  const rows = [...typed("guard_decision", GUARD_SHOWN), ...typed("guard_injected", GUARD_SHOWN)].sort((a, b) => b.id - a.id).slice(0, GUARD_SHOWN);
  return rows.map((row) => {
    const event: ViewEvent = viewEvent(row);
    const payload = parseJsonObject(row.payload_json);
    const rules = Array.isArray(payload?.rules) ? payload.rules.filter((rule): rule is string => typeof rule === "string").slice(0, 20) : [];
    const guard = typeof payload?.guard === "string" ? payload.guard : row.event_type === "guard_injected" ? "context:guard" : "guard";
    const file = typeof payload?.file === "string" ? payload.file : null;
    return { id: row.id, ts: row.created_at, verdict: event.verdict ?? "decision", guard, text: event.detail ?? event.text, file, rules };
  });
}

type Compactions = Pick<SessionDetail, "compactions" | "compactionCount">;

function markerRow(row: EventRow): MarkerRow {
  return { id: row.id, confirmation: row.event_type === COMPACTION_CONFIRMED, flagged: (row.payload_json ?? "").includes(NEEDS_CONFIRMATION_MARK) };
}

/**
 * The compactions that happened, as the recap counts them (markers.ts): a marker that waited for a confirmation
 * that never came (a PreCompact the harness gave up on) is not one, unless it is the newest.
 */
function compactionsOf(typed: Typed, markers: readonly MarkerRow[]): Compactions {
  const counted = new Set(countedMarkers(markers));
  const compactions = typed("compaction", COMPACTIONS_SHOWN)
    .filter((row) => counted.has(row.id))
    .reverse()
    .map((row) => {
      const trigger = parseJsonObject(row.payload_json)?.trigger;
      return { id: row.id, ts: row.created_at, trigger: typeof trigger === "string" ? trigger : null };
    });
  return { compactions, compactionCount: counted.size };
}

function factsView(facts: Facts | null): Pick<SessionDetail, "failing" | "lastTest" | "plan"> {
  if (!facts) return { failing: [], lastTest: null, plan: null };
  return {
    failing: facts.failing.slice(0, 50).map((f) => ({ command: f.command, exitCode: f.exitCode })),
    lastTest: facts.lastTest ? { ts: "", outcome: facts.lastTest.outcome, command: facts.lastTest.command, summary: facts.lastTest.summary } : null,
    plan: facts.plan ? { done: facts.plan.done, total: facts.plan.total, items: facts.plan.items.slice(0, 50) } : null,
  };
}

function times(db: Database, sql: string, key: string): string[] {
  return (db.query(sql).all(key, RECENT_WINDOW) as Array<{ created_at: string }>).map((row) => row.created_at);
}

type Common = Omit<SessionDetail, "kind" | "id" | "title" | "agent" | "harness" | "run" | "startedAt" | "lastEventAt" | "open" | "state" | "events" | "harnessSessions">;

function usageView(root: string, db: Database, session: string | null): SessionDetail["usage"] {
  if (session === null) return { injections: 0, fixed: 0, still_present: 0, file_gone: 0, rules: [] };
  const usage = guardUsage(root, db, USAGE_DAYS, Date.now(), session);
  return {
    injections: usage.totals.injections,
    fixed: usage.totals.violations_fixed,
    still_present: usage.totals.violations_still_present,
    file_gone: usage.totals.violations_file_gone,
    rules: usage.rules.map((rule) => ({ path: rule.path, injections: rule.injections, fixed: rule.fixed, still_present: rule.still_present, file_gone: rule.file_gone })),
  };
}

/** What both kinds of session show, from their own typed reads and recap rows. */
function common(db: Database, root: string, typed: Typed, recapAgent: string, rows: ReturnType<typeof harnessSessionRows>, activity: ActivityChart, session: string | null, marks: Compactions): Common {
  const fileRows = typed("artifact", FILE_EVENTS);
  const files = new Map<string, number>();
  for (const row of fileRows) {
    const file = parseJsonObject(row.payload_json)?.file;
    if (typeof file === "string" && file) files.set(file, (files.get(file) ?? 0) + 1);
  }
  const decisions = guardEntries(typed);
  const counts = { injected: 0, deny: 0, ask: 0, block: 0 };
  for (const entry of decisions) if (entry.verdict in counts) counts[entry.verdict as keyof typeof counts] += 1;
  if (session !== null) {
    counts.injected = (db.query(SQL.sessionTypeCount).get(session, "guard_injected") as { n: number }).n;
    for (const row of db.query(SQL.sessionDecisions).all(session) as Array<{ decision: unknown; n: number }>) {
      if (row.decision === "deny" || row.decision === "ask" || row.decision === "block") counts[row.decision] = row.n;
    }
  }
  const facts = rows ? deriveFacts(rows) : null;
  const tests = testPoints(typed("step_done", STEP_EVENTS), TESTS_SHOWN);
  const view = factsView(facts);
  const lastTest = view.lastTest ? { ...view.lastTest, ts: tests.findLast((t) => t.command === view.lastTest?.command)?.ts ?? "" } : null;
  return {
    files: [...files].slice(0, 200).map(([path, edits]) => ({ path, edits })),
    filesWindow: fileRows.length >= FILE_EVENTS ? FILE_EVENTS : null,
    failing: view.failing,
    lastTest,
    plan: view.plan,
    ...marks,
    checkpoint: rows ? checkpointFromRows(rows, root, recapAgent) : null,
    guard: decisions,
    guardCounts: counts,
    usage: usageView(root, db, session),
    activity,
    tests,
  };
}

/** The recap's install agent for a session: its hooks session's owner agent (the `--agent` its hooks were installed with). */
function installAgent(agent: string | null): string {
  return agent ? canonicalAgent(agent) : "dev";
}

export function harnessDetail(db: Database, root: string, session: HarnessSession, run: LiveRun | undefined): SessionDetail {
  const typed: Typed = (type, limit) => db.query(SQL.sessionTyped).all(session.id, type, limit) as EventRow[];
  const [counted] = countEvents(db, [session]);
  const activity = activityChart(times(db, SQL.sessionTimes, session.id).map((ts) => ({ ts, label: session.agent ?? "events" })));
  return {
    kind: "harness",
    id: session.id,
    title: session.id,
    agent: session.agent,
    harness: session.harness,
    run: session.run,
    startedAt: session.startedAt,
    lastEventAt: session.lastEventAt,
    open: session.open,
    state: session.state,
    events: counted?.events ?? 0,
    harnessSessions: [],
    ...common(db, root, typed, installAgent(run?.agent ?? session.agent), harnessSessionRows(db, session.id), activity, session.id, compactionsOf(typed, sessionMarkers(db, session.id))),
  };
}

/** Rows a hooks session's panels are read from: its newest ones. */
const RUN_WINDOW = 10_000;
/** Guard rows are standalone (no run): a hooks session's are those of its newest harness sessions. */
const GUARD_TYPES: ReadonlySet<string> = new Set(GUARD_EVENT_TYPES);
const GUARD_SESSIONS = 20;

/**
 * A hooks (or guard, or live) session. A run has no index by event type, so its panels are read from its newest
 * RUN_WINDOW rows (its timeline pages through all of them), and its guard rows from its newest harness sessions.
 * Facts and a checkpoint are shown only for a run whose rows carry no harness session id (recap's legacy mode);
 * otherwise they belong to its harness sessions.
 */
export function runDetail(db: Database, root: string, run: LiveRun, sessions: readonly HarnessSession[]): SessionDetail {
  const recent = db.query(SQL.runRecent).all(run.run, RUN_WINDOW) as EventRow[];
  const mine = sessions.filter((session) => session.run === run.run);
  const sessionTyped = db.query(SQL.sessionTyped);
  const typed: Typed = (type, limit) =>
    GUARD_TYPES.has(type)
      ? mine.slice(0, GUARD_SESSIONS).flatMap((session) => sessionTyped.all(session.id, type, limit) as EventRow[]).sort((a, b) => b.id - a.id).slice(0, limit)
      : recent.filter((row) => row.event_type === type).slice(0, limit);
  const first = db.query(SQL.runFirst).get(run.run) as { created_at: string } | null;
  const activity = activityChart(times(db, SQL.runTimes, run.run).map((ts) => ({ ts, label: run.agent })));
  const rows = mine.length === 0 ? legacyRunRows(db, run.run) : null;
  // The window's markers in id order (it is read newest first).
  const markers = recent.filter((row) => row.event_type === "compaction" || row.event_type === COMPACTION_CONFIRMED).reverse().map(markerRow);
  return {
    kind: "hooks",
    id: run.run,
    title: run.title ?? run.sessionKey ?? run.run,
    agent: run.agent,
    harness: run.harness,
    run: run.run,
    startedAt: first?.created_at ?? run.startedAt,
    lastEventAt: run.lastEventAt,
    open: run.open,
    state: run.open ? "open" : "closed",
    events: run.events,
    harnessSessions: countEvents(db, mine.slice(0, 50)),
    ...common(db, root, typed, installAgent(run.agent), rows, activity, null, compactionsOf(typed, markers)),
  };
}
