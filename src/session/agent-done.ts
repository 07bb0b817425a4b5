/**
 * `agent:done` (spec 15), the part shared with `hooks:emit --then=agent:done` (spec 4.10): recording
 * that an agent finished its turn inside an open session, without closing it.
 */
import type { Database } from "bun:sqlite";
import { basename } from "node:path";
import { agentHandle } from "../core/agent.ts";
import { isoNow } from "../core/time.ts";
import { clearPointer, readPointer } from "../live/pointer.ts";
import { redactSecrets } from "../text/redact.ts";
import {
  appendRunEvent,
  getRun,
  startRun,
  startTask,
  updateRunRow,
  updateTask,
  type AppendedEvent,
  type RunRow,
} from "../store/records.ts";
import { publishLiveEvent } from "./live-event.ts";

export type AgentDoneInput = {
  summary: string;
  verdict?: string | null;
  planStep?: string | null;
  artifacts?: string[];
  /** The harness `session_id` when reached through `hooks:emit --then` (column and payload key, spec 2.6). */
  harnessSessionId?: string | null;
  /** `hooks:emit` when reached through `--then`: every payload it writes says so (spec 4.2). */
  writtenBy?: string;
  at?: string;
};

export type AgentDoneEvent = AppendedEvent & { summary: string; planStep: string | null; artifacts: string[]; harnessSessionId: string | null };

/** `--artifacts=a,b`: trimmed, empty entries dropped, de-duplicated. */
export function parseArtifactList(value: unknown): string[] {
  if (typeof value !== "string") return [];
  return [...new Set(value.split(",").map((item) => item.trim()).filter(Boolean))];
}

/** Inserts one `artifacts` row per path (kind `output`), owned by the run; a path is free text too, so it is redacted. */
export function insertArtifacts(db: Database, run: RunRow, paths: readonly string[], at: string): void {
  const insert = db.query(
    `INSERT INTO artifacts (task_key, run_key, squad_slug, agent_name, kind, title, file_path, created_at)
     VALUES (?, ?, ?, ?, 'output', ?, ?, ?)`,
  );
  for (const path of paths.map(redactSecrets)) insert.run(run.task_key, run.run_key, run.squad_slug, run.agent_name, basename(path), path, at);
}

/**
 * Row work only, inside the caller's BEGIN IMMEDIATE transaction: the `agent_done` event (phase
 * `live`, status `running`) and the artifact rows. The session stays open: its owner closes it.
 */
export function appendAgentDone(db: Database, runKey: string, input: AgentDoneInput): AgentDoneEvent {
  const run = getRun(db, runKey);
  if (!run) throw new Error(`Run not found: ${runKey}`);
  const at = input.at ?? isoNow();
  const artifacts = input.artifacts ?? [];
  const harness = input.harnessSessionId ?? null;
  const payload = {
    ...(artifacts.length > 0 ? { artifacts } : {}),
    ...(input.writtenBy ? { written_by: input.writtenBy } : {}),
    ...(harness ? { harness_session_id: harness } : {}),
  };
  const event = appendRunEvent(db, runKey, {
    eventType: "agent_done",
    phase: "live",
    status: "running",
    message: input.summary,
    verdict: input.verdict ?? null,
    planStepId: input.planStep ?? null,
    payload: Object.keys(payload).length > 0 ? payload : null,
    harnessSessionId: harness,
    at,
  });
  insertArtifacts(db, run, artifacts, at);
  return { ...event, summary: input.summary, planStep: input.planStep ?? null, artifacts, harnessSessionId: harness };
}

/** After commit: the live ndjson line and the state.json fold of the `agent_done` event. */
export function publishAgentDone(root: string, run: RunRow, event: AgentDoneEvent): void {
  publishLiveEvent(root, run, {
    ts: event.createdAt,
    type: "agent_done",
    summary: event.summary,
    refs: event.artifacts,
    planStep: event.planStep,
    status: "running",
    meta: event.harnessSessionId ? { harness_session_id: event.harnessSessionId } : null,
  });
}

export type StandaloneDoneInput = {
  agent: string;
  summary: string;
  title: string | null;
  status: "completed" | "failed";
  verdict: string | null;
  planStep: string | null;
  artifacts: string[];
};

/**
 * No open session (spec 15): a task and a direct run that start and finish in the same call; an
 * `agent_done` event only when there is a verdict or plan step to keep.
 */
export function recordStandaloneDone(db: Database, input: StandaloneDoneInput): { taskKey: string; runKey: string } {
  const at = isoNow();
  const handle = agentHandle(input.agent);
  const taskKey = startTask(db, { title: input.title ?? handle, goal: input.summary, status: "running", createdBy: handle, at });
  const { runKey } = startRun(db, {
    taskKey,
    agentName: handle,
    source: "direct",
    title: input.title ?? handle,
    status: "running",
    at,
    firstEvent: { eventType: "start", phase: "direct", message: input.summary, at },
  });
  if (input.verdict || input.planStep) {
    appendRunEvent(db, runKey, {
      eventType: "agent_done",
      phase: "direct",
      message: input.summary,
      verdict: input.verdict,
      planStepId: input.planStep,
      at,
    });
  }
  const run = updateRunRow(db, runKey, { status: input.status, summary: input.summary, at });
  appendRunEvent(db, runKey, { eventType: input.status === "failed" ? "failed" : "finished", phase: "direct", message: input.summary, at });
  updateTask(db, taskKey, { status: input.status, at });
  insertArtifacts(db, run, input.artifacts, at);
  return { taskKey, runKey };
}

/** A pointer that no longer names an open run is stale once the agent reports done: remove it. */
export function clearStalePointer(root: string, agent: string): void {
  const pointer = readPointer(root, agent);
  if (!pointer) return;
  try {
    clearPointer(root, agent, pointer.runKey);
  } catch {
    // An unremovable stale pointer is harmless: readers validate it against the store.
  }
}
