/** `live:start` minimal part (spec 16): open (or reuse) the agent's live session. */
import type { Database } from "bun:sqlite";
import { agentHandle } from "../core/agent.ts";
import { isoNow } from "../core/time.ts";
import type { PlanStep } from "../live/plan.ts";
import { processState, type ProcessState } from "../live/process.ts";
import { readState, writeState } from "../live/state.ts";
import { getTask, parseJsonObject, updateTask, type RunRow } from "../store/records.ts";
import { liveNdjsonLine, newSessionLineRun } from "./live-event.ts";
import {
  closeSessionRows,
  createSessionRows,
  findValidPointerRun,
  publishClosedSession,
  publishNewSession,
  sessionOwner,
  type NewSession,
} from "./sessions.ts";

export const LIVE_TOOLS = ["claude", "codex", "opencode"] as const;
export type LiveTool = (typeof LIVE_TOOLS)[number];

export type LiveStartInput = {
  root: string;
  agent: string;
  tool: LiveTool;
  title: string | null;
  goal: string | null;
  sessionKey: string | null;
  message: string | null;
  planRef: string | null;
  planSteps: PlanStep[];
};

export type LiveStartOutcome = {
  reused: boolean;
  taskKey: string;
  runKey: string;
  sessionKey: string;
  pid: number | null;
  processState: ProcessState;
  autoClosed: { run: RunRow; reason: string; at: string } | null;
  created: NewSession | null;
};

/** Why an open live session of the agent cannot be reused, or null when it can. */
function closeReason(previousTool: string | null, tool: string, pid: number | null): string | null {
  if (previousTool && previousTool !== tool) return `Auto-closed: tool changed from ${previousTool} to ${tool}`;
  if (processState(pid) === "dead") return "Auto-closed: previous process is no longer running";
  return null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

/** Rows only (inside the caller's BEGIN IMMEDIATE transaction); files are written by `publishLiveStart`. */
export function startLiveRows(db: Database, input: LiveStartInput): LiveStartOutcome {
  const at = isoNow();
  let autoClosed: LiveStartOutcome["autoClosed"] = null;
  const found = findValidPointerRun(db, input.root, input.agent);
  if (found) {
    const task = found.run.task_key ? getTask(db, found.run.task_key) : null;
    if (sessionOwner(found.run, task, found.pointer) === "live") {
      const meta = parseJsonObject(task?.meta_json);
      const state = found.run.session_key ? readState(input.root, found.run.session_key) : null;
      const previousTool = state?.tool_session ?? (typeof meta?.tool_session === "string" ? meta.tool_session : null);
      const pid = state?.child_pid ?? numberOrNull(meta?.child_pid);
      const reason = closeReason(previousTool, input.tool, pid);
      if (!reason) {
        return {
          reused: true,
          taskKey: task?.task_key ?? found.run.task_key ?? "",
          runKey: found.run.run_key,
          sessionKey: found.run.session_key ?? "",
          pid,
          processState: processState(pid),
          autoClosed: null,
          created: null,
        };
      }
      const closed = closeSessionRows(db, {
        runKey: found.run.run_key,
        summary: reason,
        at,
        event: { eventType: "session_closed", phase: "live", status: "completed", message: reason },
      });
      if (closed) autoClosed = { run: closed, reason, at };
    }
  }
  const epoch = Date.parse(at);
  const sessionKey = input.sessionKey ?? `direct-session:${epoch}:${input.agent}`;
  const created = createSessionRows(db, {
    owner: "live",
    agent: input.agent,
    tool: input.tool,
    root: input.root,
    sessionKey,
    title: input.title ?? `live-${input.tool}-${epoch}`,
    startedMessage: input.message ?? `Live session started for ${agentHandle(input.agent)} with ${input.tool}`,
    meta: { plan_ref: input.planRef, child_pid: null, ...(input.planSteps.length > 0 ? { plan_steps: input.planSteps } : {}) },
    at,
  });
  if (input.goal) updateTask(db, created.taskKey, { goal: input.goal, at });
  return {
    reused: false,
    taskKey: created.taskKey,
    runKey: created.runKey,
    sessionKey,
    pid: null,
    processState: "not_tracked",
    autoClosed,
    created,
  };
}

/** After commit: the closed session's files, then the new session's pointer, state.json and first line. */
export function publishLiveStart(db: Database, input: LiveStartInput, outcome: LiveStartOutcome): void {
  if (outcome.autoClosed) publishClosedSession(input.root, outcome.autoClosed.run, outcome.autoClosed.at);
  const session = outcome.created;
  if (!session) return;
  const summary = session.input.startedMessage;
  publishNewSession(db, session, {
    summary,
    replacePointer: true,
    ndjsonLine: liveNdjsonLine(newSessionLineRun(session), { ts: session.startedAt, type: "session_started", summary, meta: { tool: input.tool } }),
    state: {
      plan_ref: input.planRef,
      stats: {
        tasks_completed: 0,
        events_total: 1,
        plan_steps_done: 0,
        plan_steps_total: input.planSteps.length,
        events_by_type: { session_started: 1 },
      },
    },
  });
}

/** Records the launched harness's pid in the task meta (inside a transaction). */
export function recordChildPidRow(db: Database, taskKey: string, pid: number): void {
  const meta = parseJsonObject(getTask(db, taskKey)?.meta_json) ?? {};
  updateTask(db, taskKey, { meta: { ...meta, child_pid: pid } });
}

/** …and in state.json. */
export function recordChildPidState(root: string, sessionKey: string, pid: number): void {
  const state = readState(root, sessionKey);
  if (state) writeState(root, { ...state, child_pid: pid });
}
