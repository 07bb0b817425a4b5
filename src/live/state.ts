import { join } from "node:path";
import * as v from "valibot";
import { logHookProblem } from "../core/hook-log.ts";
import { isSafeKey } from "../core/labels.ts";
import { readProjectFile, writeProjectFileAtomic } from "../core/project-fs.ts";
import { sessionDir } from "../store/paths.ts";
import { ensureRuntimeDir } from "../store/runtime-dir.ts";

const LAST_EVENTS_KEPT = 10;
/** A state.json holds ten capped events and a few keys; a larger file is not one aioson wrote. */
const STATE_MAX_BYTES = 1024 * 1024;

export const LastEventSchema = v.object({ ts: v.string(), type: v.string(), summary: v.string() });
export type LastEvent = v.InferOutput<typeof LastEventSchema>;

const StatsSchema = v.object({
  tasks_completed: v.optional(v.number(), 0),
  events_total: v.optional(v.number(), 0),
  plan_steps_done: v.optional(v.number(), 0),
  plan_steps_total: v.optional(v.number(), 0),
  events_by_type: v.optional(v.record(v.string(), v.number()), {}),
});

/** Spec 2.7 state.json, shared by live, hooks and guard sessions; unknown keys are kept. */
export const LiveStateSchema = v.looseObject({
  /** The key inside the file names the folder it is rewritten into: the same schema as when aioson makes it. */
  session_key: v.pipe(v.string(), v.check(isSafeKey)),
  session_task_key: v.nullable(v.string()),
  tool_session: v.nullable(v.string()),
  active_agent: v.nullable(v.string()),
  plan_ref: v.optional(v.nullable(v.string()), null),
  phase: v.string(),
  title: v.optional(v.nullable(v.string()), null),
  path: v.optional(v.nullable(v.string()), null),
  child_pid: v.optional(v.nullable(v.number()), null),
  started_at: v.string(),
  updated_at: v.string(),
  closed_at: v.optional(v.nullable(v.string()), null),
  current_task: v.optional(v.nullable(v.string()), null),
  current_run_key: v.nullable(v.string()),
  stats: v.optional(StatsSchema, {}),
  last_events: v.optional(v.array(LastEventSchema), []),
  owner: v.optional(v.string()),
  auto_started: v.optional(v.boolean()),
});
export type LiveState = v.InferOutput<typeof LiveStateSchema>;

/** Throws UnsafeProjectPathError for a session key that cannot name a folder (store/paths.ts). */
export function statePath(root: string, sessionKey: string): string {
  return join(sessionDir(root, sessionKey), "state.json");
}

/**
 * The session's state.json, or null when it is missing, refused (an unsafe key, a symlink on the way, not a
 * regular file, too large) or does not parse (SQLite is the source of truth).
 */
export function readState(root: string, sessionKey: string): LiveState | null {
  try {
    const read = readProjectFile(root, statePath(root, sessionKey), STATE_MAX_BYTES);
    if (read.kind !== "ok") return null;
    const parsed = v.safeParse(LiveStateSchema, JSON.parse(read.text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Rewrites state.json atomically; a failure is logged and otherwise ignored because the file is auxiliary. */
export function writeState(root: string, state: LiveState): boolean {
  try {
    const path = statePath(root, state.session_key);
    ensureRuntimeDir(root, sessionDir(root, state.session_key));
    writeProjectFileAtomic(root, path, `${JSON.stringify(state, null, 2)}\n`);
    return true;
  } catch (error) {
    logHookProblem(root, "live", error);
    return false;
  }
}

/** Spec 2.7: folding one event into the state (pure). */
export function applyEvent(state: LiveState, event: LastEvent): LiveState {
  const byType = { ...state.stats.events_by_type };
  byType[event.type] = (byType[event.type] ?? 0) + 1;
  return {
    ...state,
    updated_at: event.ts,
    last_events: [...state.last_events, event].slice(-LAST_EVENTS_KEPT),
    stats: {
      ...state.stats,
      events_total: state.stats.events_total + 1,
      events_by_type: byType,
      tasks_completed: state.stats.tasks_completed + (event.type === "task_completed" ? 1 : 0),
    },
  };
}

export function closeState(state: LiveState, at: string): LiveState {
  return { ...state, phase: "closed", closed_at: at, updated_at: at };
}
