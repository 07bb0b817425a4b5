/**
 * The store half of hooks:emit (spec 4.2 steps 5–8), loaded only when there is something to record:
 * one BEGIN IMMEDIATE transaction resolves or auto-starts the session, appends every record (and the
 * `--then=agent:done` event, and for SessionEnd the close), then the live files are published.
 */
import type { Database } from "bun:sqlite";
import { isoNow } from "../core/time.ts";
import { appendNdjson, capLineText } from "../live/ndjson.ts";
import { readState, writeState, applyEvent, type LiveState } from "../live/state.ts";
import { appendAgentDone } from "../session/agent-done.ts";
import { closeSessionRows, publishClosedSession, publishNewSession, type NewSession } from "../session/sessions.ts";
import { autoStartedMessage, autoStartHooksSession, resolveTargetSession } from "../session/target.ts";
import { checkpointStore, closeStore, openStore, withStoreTransaction } from "../store/db.ts";
import { appendEventToRun, getRun, type AppendedEvent, type RunRow } from "../store/records.ts";
import type { EmitRecord } from "./records.ts";
import { applyTaskChange, previousTasks, taskPlanPayload } from "./task-plan.ts";
import { COMPACTION_CONFIRMED, newestSessionMarkers, unconfirmedNewest } from "../recap/markers.ts";

const WRITTEN_BY = "hooks:emit";

export type PersistInput = {
  root: string;
  /** Install agent id (canonical, without `@`). */
  agent: string;
  source: string;
  harnessSessionId: string | null;
  /** The tool call's duration as the harness reported it, stored on each of its records. */
  durationMs: number | null;
  records: readonly EmitRecord[];
  sessionEnd: boolean;
  /** Only an open session takes these records (SessionEnd, compaction confirmations): none is started for them. */
  attachOnly: boolean;
  thenAgentDone: boolean;
  envSession: string | undefined;
};

export type ThenResult = { command: string; ok: boolean; mode?: "live_event"; runKey?: string; reason?: string };
export type EmitResult = { ok: boolean } & Record<string, unknown>;

type Stored = { record: EmitRecord; event: AppendedEvent };

type Committed = {
  run: RunRow;
  created: NewSession | null;
  stored: Stored[];
  closed: RunRow | null;
  done: { event: AppendedEvent; summary: string } | null;
  doneError: unknown;
};

function storedPayload(record: EmitRecord, harnessSessionId: string | null): Record<string, unknown> {
  return { ...record.payload, written_by: WRITTEN_BY, ...(harnessSessionId ? { harness_session_id: harnessSessionId } : {}) };
}

/**
 * A task-plan change becomes the session's whole plan (task-plan.ts); a compaction confirmation is kept only when the
 * session's newest marker waits for one (recap/markers.ts). Null: the record changes nothing and is not stored.
 */
function prepare(db: Database, input: PersistInput, run: RunRow, record: EmitRecord): EmitRecord | null {
  if (record.eventType === COMPACTION_CONFIRMED) {
    const marker = input.harnessSessionId ? unconfirmedNewest(newestSessionMarkers(db, input.harnessSessionId, 1).rows) : null;
    return marker === null ? null : { ...record, payload: { ...record.payload, marker } };
  }
  if (!record.taskChange) return record;
  const next = applyTaskChange(previousTasks(db, input.harnessSessionId, run.run_key), record.taskChange);
  if (!next) return null;
  return { ...record, taskChange: undefined, payload: taskPlanPayload(record.toolName ?? "TaskUpdate", next) };
}

function write(db: Database, input: PersistInput, at: string): Committed | null {
  let target = resolveTargetSession(db, input.root, input.agent, input.envSession);
  let created: NewSession | null = null;
  if (!target) {
    if (input.attachOnly) return null;
    created = autoStartHooksSession(db, { root: input.root, agent: input.agent, source: input.source, harnessSessionId: input.harnessSessionId, at });
    target = { run: getRun(db, created.runKey) as RunRow, owner: "hooks", via: "hooks" };
  }
  const { run } = target;
  const runKey = run.run_key;
  const stored: Stored[] = [];
  for (const raw of input.records) {
    const record = prepare(db, input, run, raw);
    if (!record) continue;
    const event = appendEventToRun(db, run, {
      eventType: record.eventType,
      message: record.message,
      phase: "live",
      status: "running",
      toolName: record.toolName,
      payload: storedPayload(record, input.harnessSessionId),
      harnessSessionId: input.harnessSessionId,
      harness: input.source,
      durationMs: input.durationMs,
      // classify redacted the records' texts before capping them; the store does not scan them again.
      redacted: true,
      at,
    });
    stored.push({ record, event });
  }
  let closed: RunRow | null = null;
  if (input.sessionEnd && (target.owner === "hooks" || target.owner === "guard")) {
    closed = closeSessionRows(db, { runKey, summary: `Closed by SessionEnd (${input.source})`, at });
  }
  let done: Committed["done"] = null;
  let doneError: unknown = null;
  if (input.thenAgentDone) {
    // Spec 4.10: the minimal agent:done, in this process and transaction, against the run just resolved.
    const summary = `Session ended via ${input.agent} hook`;
    try {
      done = { event: appendAgentDone(db, runKey, { summary, harnessSessionId: input.harnessSessionId, writtenBy: WRITTEN_BY, at }), summary };
    } catch (error) {
      doneError = error;
    }
  }
  // Only the run's keys are used after commit, and no statement above changes them.
  return { run, created, stored, closed, done, doneError };
}

type Line = { ts: string; type: string; message: string; tool: string | null; file?: string };

/** Spec 2.7 hooks:emit line. */
function ndjsonLine(input: PersistInput, run: RunRow, line: Line): Record<string, unknown> {
  const text = capLineText(line.message);
  return {
    ts: line.ts,
    type: line.type,
    summary: text,
    message: text,
    tool: line.tool,
    ...(line.file !== undefined ? { file: line.file } : {}),
    source: input.source,
    agent: input.agent,
    run_key: run.run_key,
    session_key: run.session_key,
    ...(input.harnessSessionId ? { harness_session_id: input.harnessSessionId } : {}),
  };
}

function foldState(state: LiveState, lines: readonly Line[], activated: string | null): LiveState {
  let next = state;
  for (const line of lines) next = applyEvent(next, { ts: line.ts, type: line.type, summary: capLineText(line.message) });
  return activated ? { ...next, active_agent: `@${activated}` } : next;
}

/** After commit: pointer/state/first line of a new session, the record lines in one append, the state fold, the close. */
function publish(db: Database, input: PersistInput, committed: Committed, at: string): void {
  const { run } = committed;
  if (committed.created) {
    const line = ndjsonLine(input, run, { ts: committed.created.startedAt, type: "session_started", message: autoStartedMessage(input.source), tool: null });
    publishNewSession(db, committed.created, { summary: autoStartedMessage(input.source), ndjsonLine: line });
  }
  const lines: Line[] = committed.stored.map(({ record, event }) => ({
    ts: event.createdAt,
    type: record.eventType,
    message: record.message,
    tool: record.toolName,
    ...(record.file !== undefined ? { file: record.file } : {}),
  }));
  if (committed.done) lines.push({ ts: committed.done.event.createdAt, type: "agent_done", message: committed.done.summary, tool: null });
  if (!run.session_key) return;
  appendNdjson(input.root, run.session_key, lines.map((line) => ndjsonLine(input, run, line)));
  const activated = committed.stored.map(({ record }) => record.activatedAgent).filter((agent): agent is string => agent !== undefined).pop() ?? null;
  const state = readState(input.root, run.session_key);
  if (state) writeState(input.root, foldState(state, lines, activated));
  if (committed.closed) publishClosedSession(input.root, committed.closed, at);
}

function result(input: PersistInput, committed: Committed, then: ThenResult | null): EmitResult {
  const first = committed.stored[0]?.record;
  const files = committed.stored.map(({ record }) => record.file).filter((file): file is string => file !== undefined);
  return {
    ok: true,
    runKey: committed.run.run_key,
    sessionKey: committed.run.session_key,
    ...(first ? { event: first.eventType, message: first.message } : {}),
    harnessSessionId: input.harnessSessionId,
    autoStarted: committed.created !== null,
    ...(committed.stored.length > 1 && files.length > 1 ? { files, count: files.length } : {}),
    ...(then ? { then } : {}),
  };
}

/** Spec 4.2 steps 5–9 for records that are already classified and redacted. */
export function persistEmit(input: PersistInput, onThenError: (error: unknown) => void): EmitResult {
  // Spec 2.8: a store locked beyond the busy timeout drops the event instead of holding the agent.
  const store = openStore(input.root, { mustExist: input.attachOnly });
  if (!store) return { ok: true, skipped: true, reason: "no-open-session" };
  try {
    const at = isoNow();
    const committed = withStoreTransaction(store, () => write(store.db, input, at));
    if (!committed) return { ok: true, skipped: true, reason: "no-open-session" };
    // Every record changed nothing (a repeated task, a confirmation no marker waits for): as if none was classified.
    if (committed.stored.length === 0 && !committed.created && !committed.closed && !input.thenAgentDone) return { ok: true, skipped: true };
    publish(store.db, input, committed, at);
    // A harness session ended: its events go into the database file, so a copy of aios.sqlite alone holds them.
    if (input.sessionEnd) checkpointStore(store);
    let then: ThenResult | null = null;
    if (input.thenAgentDone) {
      if (committed.doneError) onThenError(committed.doneError);
      then = { command: "agent:done", ok: committed.done !== null, mode: "live_event", runKey: committed.run.run_key };
    }
    return result(input, committed, then);
  } finally {
    closeStore(store);
  }
}
