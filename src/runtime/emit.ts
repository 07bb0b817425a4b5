/** `runtime:emit` (spec 13): a manual event into the agent's open session, or a standalone record. */
import type { Database } from "bun:sqlite";
import { agentHandle } from "../core/agent.ts";
import { CommandError } from "../core/output.ts";
import { isoNow } from "../core/time.ts";
import { markStepDone } from "../live/plan.ts";
import type { LiveState } from "../live/state.ts";
import { findActiveSession, type ActiveSession } from "../session/active.ts";
import { publishLiveEvent, type LiveLine } from "../session/live-event.ts";
import {
  appendRunEvent,
  getTask,
  parseJsonObject,
  startRun,
  startTask,
  updateRunRow,
  updateTask,
  type EventInput,
  type JsonObject,
  type RunRow,
} from "../store/records.ts";
import { planSteps } from "./status.ts";

export type EmitInput = {
  agent: string;
  type: string;
  summary: string;
  title: string | null;
  refs: string[];
  skills: string[];
  planStep: string | null;
  meta: JsonObject;
  workerStatus: string | null;
  verdict: string | null;
  tokenCount: number | null;
  progressPct: number | null;
};

/** `--meta`: a JSON object as-is; other JSON ⇒ `{value}`; invalid ⇒ `{raw}`. */
export function parseMeta(text: string | null): JsonObject {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as JsonObject;
    return { value };
  } catch {
    return { raw: text };
  }
}

function basePayload(input: EmitInput): JsonObject {
  return {
    ...input.meta,
    refs: input.refs,
    used_skills: input.skills,
    ...(input.planStep ? { plan_step: input.planStep } : {}),
  };
}

function eventColumns(input: EmitInput): Pick<EventInput, "planStepId" | "workerStatus" | "verdict" | "tokenCount" | "progressPct"> {
  return {
    planStepId: input.planStep,
    workerStatus: input.workerStatus,
    verdict: input.verdict,
    tokenCount: input.tokenCount,
    progressPct: input.progressPct,
  };
}

export type EmitResult = {
  ok: true;
  targetDir: string;
  dbPath: string;
  agent: string;
  eventType: string;
  sessionKey: string | null;
  runKey: string;
  taskKey: string | null;
  currentTask: string | null;
  usedSkills: string[];
  open: boolean;
  standalone?: true;
};

type LiveOutcome = { result: EmitResult; publish: () => void };

function openMicroTask(db: Database, session: ActiveSession): string | null {
  const fromState = session.state?.current_task;
  if (fromState) {
    const task = getTask(db, fromState);
    if (task && (task.status === "running" || task.status === "queued")) return fromState;
  }
  if (!session.task) return null;
  const row = db
    .query(
      `SELECT task_key FROM tasks WHERE parent_task_key = ? AND task_kind = 'micro_task' AND status IN ('running', 'queued')
       ORDER BY updated_at DESC LIMIT 1`,
    )
    .get(session.task.task_key) as { task_key: string } | null;
  return row?.task_key ?? null;
}

/** Micro-task bookkeeping of `task_started` / `task_completed`; returns the payload key and the open task after. */
function microTask(db: Database, session: ActiveSession, input: EmitInput, at: string): { microTaskKey: string | null; currentTask: string | null } {
  const open = openMicroTask(db, session);
  const handle = agentHandle(input.agent);
  const common = { sessionKey: session.run.session_key, taskKind: "micro_task", parentTaskKey: session.task?.task_key ?? null, createdBy: handle, at };
  if (input.type === "task_started") {
    if (open) throw new CommandError(`A live micro-task is already open for ${handle}. Emit task_completed before task_started again.`);
    const key = startTask(db, {
      ...common,
      title: input.title ?? input.summary,
      goal: input.summary,
      status: "running",
      meta: { refs: input.refs, plan_step: input.planStep },
    });
    return { microTaskKey: key, currentTask: key };
  }
  if (input.type === "task_completed") {
    if (open) {
      updateTask(db, open, { status: "completed", goal: input.summary, at });
      return { microTaskKey: open, currentTask: null };
    }
    const key = startTask(db, {
      ...common,
      title: input.title ?? input.summary,
      goal: input.summary,
      status: "completed",
      meta: { refs: input.refs, plan_step: input.planStep, implicit: true },
    });
    return { microTaskKey: key, currentTask: null };
  }
  return { microTaskKey: null, currentTask: open };
}

/** `plan_checkpoint --plan-step`: the step done in the session task's meta; the new plan totals. */
function checkpoint(db: Database, session: ActiveSession, input: EmitInput, at: string): { done: number; total: number } | null {
  if (input.type !== "plan_checkpoint" || !input.planStep || !session.task) return null;
  const meta = parseJsonObject(session.task.meta_json) ?? {};
  const steps = markStepDone(planSteps(meta), input.planStep);
  if (!steps) return null;
  updateTask(db, session.task.task_key, { meta: { ...meta, plan_steps: steps }, at });
  return { done: steps.filter((step) => step.done).length, total: steps.length };
}

function recordLive(db: Database, session: ActiveSession, input: EmitInput, at: string): { run: RunRow; currentTask: string | null; line: LiveLine; plan: { done: number; total: number } | null } {
  const micro = microTask(db, session, input, at);
  const plan = checkpoint(db, session, input, at);
  const payload = { ...basePayload(input), ...(micro.microTaskKey ? { micro_task_key: micro.microTaskKey } : {}) };
  const run = input.skills.length > 0 ? updateRunRow(db, session.run.run_key, { usedSkills: input.skills, at }) : session.run;
  appendRunEvent(db, run.run_key, { eventType: input.type, phase: "live", message: input.summary, payload, at, ...eventColumns(input) });
  const line: LiveLine = {
    ts: at,
    type: input.type,
    summary: input.summary,
    refs: input.refs,
    planStep: input.planStep,
    status: run.status,
    meta: { ...input.meta, ...(micro.microTaskKey ? { micro_task_key: micro.microTaskKey } : {}) },
  };
  return { run, currentTask: micro.currentTask, line, plan };
}

/** Into the open session; null when the agent has none (the caller then records it standalone). */
export function emitLive(db: Database, root: string, dbPath: string, input: EmitInput): LiveOutcome | null {
  const session = findActiveSession(db, root, input.agent);
  if (!session) return null;
  const at = isoNow();
  const { run, currentTask, line, plan } = recordLive(db, session, input, at);
  const adjust = (state: LiveState): LiveState => ({
    ...state,
    current_task: currentTask,
    stats: plan ? { ...state.stats, plan_steps_done: plan.done, plan_steps_total: plan.total } : state.stats,
  });
  return {
    result: {
      ok: true,
      targetDir: root,
      dbPath,
      agent: agentHandle(input.agent),
      eventType: input.type,
      sessionKey: run.session_key,
      runKey: run.run_key,
      taskKey: session.task?.task_key ?? run.task_key,
      currentTask,
      usedSkills: input.skills,
      open: true,
    },
    publish: () => publishLiveEvent(root, run, line, adjust),
  };
}

const STANDALONE_REASON = "no_active_live_session";

/** A completed task and run holding the one event; no pointer (spec 13 "Otherwise"). */
export function emitStandalone(db: Database, root: string, dbPath: string, input: EmitInput): EmitResult {
  const at = isoNow();
  const handle = agentHandle(input.agent);
  const title = input.title ?? `runtime:emit ${handle}`;
  const taskKey = startTask(db, {
    title,
    goal: input.summary,
    status: "completed",
    taskKind: "runtime_event",
    createdBy: handle,
    meta: { mode: "standalone", reason: STANDALONE_REASON },
    at,
  });
  const { runKey } = startRun(db, {
    taskKey,
    agentName: handle,
    source: "direct",
    title,
    status: "completed",
    summary: input.summary,
    usedSkills: input.skills,
    at,
    firstEvent: {
      eventType: input.type,
      phase: "direct",
      message: input.summary,
      payload: { ...basePayload(input), standalone: true, reason: STANDALONE_REASON },
      at,
      ...eventColumns(input),
    },
  });
  return {
    ok: true,
    targetDir: root,
    dbPath,
    agent: handle,
    eventType: input.type,
    sessionKey: null,
    runKey,
    taskKey,
    currentTask: null,
    usedSkills: input.skills,
    open: false,
    standalone: true,
  };
}
