/**
 * The sessions model of spec 2.6: an open session is a `live_session` task plus one `source='live'`
 * run sharing a session key, owned by `live:start`, `hooks:emit` or `session:guard`. Row writes run
 * inside the caller's BEGIN IMMEDIATE transaction; files (pointer, state.json, ndjson) are written
 * after commit by the `publish*` functions.
 */
import type { Database } from "bun:sqlite";
import { agentHandle, canonicalAgent } from "../core/agent.ts";
import { logHookProblem } from "../core/hook-log.ts";
import { isoNow } from "../core/time.ts";
import { appendNdjson } from "../live/ndjson.ts";
import { clearPointer, readPointer, writePointer, type SessionPointer } from "../live/pointer.ts";
import { closeState, readState, writeState, type LiveState } from "../live/state.ts";
import {
  appendRunEvent,
  getRun,
  getTask,
  parseJsonObject,
  startRun,
  startTask,
  updateRunRow,
  updateTask,
  type AppendedEvent,
  type JsonObject,
  type RunRow,
  type TaskRow,
} from "../store/records.ts";
import { redactSecrets } from "../text/redact.ts";

export type SessionOwner = "live" | "hooks" | "guard";

const OPEN_STATUSES: ReadonlySet<string> = new Set(["running", "queued"]);

export function isOpenRun(run: RunRow | null): run is RunRow {
  return run !== null && OPEN_STATUSES.has(run.status);
}

/** Spec 2.6: a pointer is valid when not finished and its run is running or queued. */
export function findValidPointerRun(db: Database, root: string, agent: string): { pointer: SessionPointer; run: RunRow } | null {
  const pointer = readPointer(root, agent);
  if (!pointer || pointer.finished) return null;
  const run = getRun(db, pointer.runKey);
  return isOpenRun(run) ? { pointer, run } : null;
}

/**
 * Spec 2.6 "Owner of a session": pointer → task meta → session-key prefix → live. `task` may be a loader, called
 * only when the pointer does not name the owner.
 */
export function sessionOwner(run: RunRow, task: TaskRow | null | (() => TaskRow | null), pointer?: SessionPointer | null): SessionOwner {
  const fromPointer = pointer?.runKey === run.run_key ? pointer.owner : undefined;
  if (fromPointer === "hooks" || fromPointer === "guard" || fromPointer === "live") return fromPointer;
  const meta = parseJsonObject((typeof task === "function" ? task() : task)?.meta_json);
  if (meta?.owner === "hooks" || meta?.owner === "guard" || meta?.owner === "live") return meta.owner;
  if (meta?.auto_started === true) return "hooks";
  if (meta?.guarded === true) return "guard";
  const key = run.session_key ?? "";
  if (key.startsWith("hooks-")) return "hooks";
  if (key.startsWith("guard-")) return "guard";
  return "live";
}

export type NewSessionInput = {
  owner: SessionOwner;
  agent: string;
  tool: string;
  root: string;
  sessionKey: string;
  title: string;
  /** Message of the first `session_started` event. */
  startedMessage: string;
  /** Task meta besides `tool_session`, `path` and `owner`. */
  meta?: JsonObject;
  firstEventPayload?: JsonObject;
  harnessSessionId?: string | null;
  at?: string;
};

export type NewSession = {
  taskKey: string;
  runKey: string;
  sessionKey: string;
  startedAt: string;
  firstEvent: AppendedEvent;
  input: NewSessionInput;
};

/** Creates the task and run of a new session (rows only; call inside a BEGIN IMMEDIATE transaction). */
export function createSessionRows(db: Database, input: NewSessionInput): NewSession {
  const at = input.at ?? isoNow();
  const handle = agentHandle(input.agent);
  const taskKey = startTask(db, {
    title: input.title,
    status: "running",
    sessionKey: input.sessionKey,
    taskKind: "live_session",
    createdBy: handle,
    meta: { tool_session: input.tool, path: input.root, ...input.meta, owner: input.owner },
    at,
  });
  const { runKey, firstEvent } = startRun(db, {
    taskKey,
    agentName: handle,
    agentKind: "official",
    sessionKey: input.sessionKey,
    source: "live",
    title: input.title,
    status: "running",
    at,
    firstEvent: {
      eventType: "session_started",
      phase: "live",
      message: input.startedMessage,
      payload: input.firstEventPayload ?? null,
      harnessSessionId: input.harnessSessionId ?? null,
      at,
    },
  });
  return { taskKey, runKey, sessionKey: input.sessionKey, startedAt: at, firstEvent, input };
}

/** The state.json of a freshly started session (spec 2.7 shape); its title and summary redacted like every live text. */
export function initialState(session: NewSession, summary: string, extra: Partial<LiveState> = {}): LiveState {
  const { input } = session;
  return {
    session_key: session.sessionKey,
    session_task_key: session.taskKey,
    tool_session: input.tool,
    active_agent: agentHandle(input.agent),
    plan_ref: null,
    phase: "active",
    title: redactSecrets(input.title),
    path: input.root,
    child_pid: null,
    started_at: session.startedAt,
    updated_at: session.startedAt,
    closed_at: null,
    current_task: null,
    current_run_key: session.runKey,
    stats: { tasks_completed: 0, events_total: 1, plan_steps_done: 0, plan_steps_total: 0, events_by_type: { session_started: 1 } },
    last_events: [{ ts: session.startedAt, type: "session_started", summary: redactSecrets(summary) }],
    owner: input.owner,
    ...(input.owner === "hooks" ? { auto_started: true } : {}),
    ...extra,
  };
}

/**
 * After commit: the agent pointer (unless a valid pointer already holds the slot and `replacePointer`
 * is false), state.json and the first ndjson line.
 */
export function publishNewSession(
  db: Database,
  session: NewSession,
  options: { summary: string; ndjsonLine: Record<string, unknown>; replacePointer?: boolean; state?: Partial<LiveState> },
): void {
  const { input } = session;
  const occupied = !options.replacePointer && findValidPointerRun(db, input.root, input.agent) !== null;
  if (!occupied) {
    try {
      writePointer(input.root, input.agent, {
        runKey: session.runKey,
        taskKey: session.taskKey,
        sessionKey: session.sessionKey,
        startedAt: session.startedAt,
        finished: false,
        source: "live",
        owner: input.owner,
      });
    } catch (error) {
      // The pointer is an accelerator; the open run in SQLite still identifies the session.
      logHookProblem(input.root, "live", error);
    }
  }
  writeState(input.root, initialState(session, options.summary, options.state));
  appendNdjson(input.root, session.sessionKey, [options.ndjsonLine]);
}

export type CloseInput = { runKey: string; summary: string; at?: string; event?: Parameters<typeof appendRunEvent>[2] };

/** Closes a session's rows: optional closing event, run and task completed (inside a transaction). */
export function closeSessionRows(db: Database, input: CloseInput): RunRow | null {
  const run = getRun(db, input.runKey);
  if (!run) return null;
  const at = input.at ?? isoNow();
  if (input.event) appendRunEvent(db, input.runKey, { at, ...input.event });
  const closed = updateRunRow(db, input.runKey, { status: "completed", summary: input.summary, at });
  if (run.task_key && getTask(db, run.task_key)) updateTask(db, run.task_key, { status: "completed", at });
  return closed;
}

/** After commit: pointer removed (when it names the run), state.json closed. */
export function publishClosedSession(root: string, run: RunRow, at: string): void {
  const agent = canonicalAgent(run.agent_name);
  try {
    clearPointer(root, agent, run.run_key);
  } catch (error) {
    // Best effort: a stale pointer is invalid anyway once the run is completed.
    logHookProblem(root, "live", error);
  }
  if (!run.session_key) return;
  const state = readState(root, run.session_key);
  if (state) writeState(root, closeState(state, at));
}
