/**
 * The open session a people-facing command (runtime:emit) writes into: the agent's valid pointer,
 * else an active state.json of the agent whose run is still open (a hooks session whose pointer slot
 * was taken). Live, hooks and guard sessions all count.
 */
import type { Database } from "bun:sqlite";
import { agentHandle, canonicalAgent } from "../core/agent.ts";
import { readState, type LiveState } from "../live/state.ts";
import { listStates } from "../live/states.ts";
import { getRun, getTask, type RunRow, type TaskRow } from "../store/records.ts";
import { findValidPointerRun, isOpenRun } from "./sessions.ts";

export type ActiveSession = { run: RunRow; task: TaskRow | null; state: LiveState | null };

function isActive(state: LiveState | null): boolean {
  return state === null || state.phase === "active";
}

export function findActiveSession(db: Database, root: string, agent: string): ActiveSession | null {
  const found = findValidPointerRun(db, root, agent);
  if (found && found.run.source === "live" && found.run.session_key) {
    const state = readState(root, found.run.session_key);
    if (isActive(state)) return { run: found.run, task: found.run.task_key ? getTask(db, found.run.task_key) : null, state };
  }
  const handles = new Set([agentHandle(agent), canonicalAgent(agent)]);
  for (const state of listStates(root)) {
    if (state.phase !== "active" || !state.active_agent || !handles.has(state.active_agent) || !state.current_run_key) continue;
    const run = getRun(db, state.current_run_key);
    if (isOpenRun(run) && run.source === "live") return { run, task: run.task_key ? getTask(db, run.task_key) : null, state };
  }
  return null;
}
