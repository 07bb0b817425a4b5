/**
 * Spec 2.6 "Which session the hooks write to" and spec 4.13 auto-start. Both run inside the caller's
 * BEGIN IMMEDIATE transaction, so two hooks that fire together with no session create exactly one.
 */
import type { Database } from "bun:sqlite";
import { canonicalAgent } from "../core/agent.ts";
import { readPointer, type SessionPointer } from "../live/pointer.ts";
import { getTask, RUN_SELECT, runSelect, type RunRow, type TaskRow } from "../store/records.ts";
import { createSessionRows, findValidPointerRun, sessionOwner, type NewSession, type SessionOwner } from "./sessions.ts";

export type TargetSession = { run: RunRow; owner: SessionOwner; via: "env" | "pointer" | "only-live" | "hooks" };

const OPEN = "status IN ('running', 'queued')";

function target(db: Database, root: string, run: RunRow, via: TargetSession["via"], pointer?: SessionPointer | null): TargetSession {
  const ownPointer = pointer ?? readPointer(root, canonicalAgent(run.agent_name));
  const task = (): TaskRow | null => (run.task_key ? getTask(db, run.task_key) : null);
  return { run, owner: sessionOwner(run, task, ownPointer), via };
}

/** The one open `live:start` session of the project, when there is exactly one (spec 2.6 step 3). */
function onlyLiveSession(db: Database, root: string): TargetSession | null {
  const runs = db
    .query(
      `SELECT ${runSelect("r.")} FROM agent_runs r JOIN tasks t ON t.task_key = r.task_key
       WHERE r.source = 'live' AND r.${OPEN} AND t.task_kind = 'live_session' AND t.${OPEN}`,
    )
    .all() as RunRow[];
  const live = runs.map((run) => target(db, root, run, "only-live")).filter((session) => session.owner === "live");
  return live.length === 1 ? (live[0] as TargetSession) : null;
}

/**
 * Spec 2.6 steps 1–4: `AIOSON_LIVE_SESSION` (unless `none`) → the agent's valid pointer → the only open
 * live:start session → the agent's newest open hooks session. Null means "auto-start" (or, for
 * SessionEnd, "nothing to close").
 */
export function resolveTargetSession(db: Database, root: string, agent: string, envSession: string | undefined): TargetSession | null {
  const env = envSession?.trim() ?? "";
  const adopt = env !== "none";
  if (adopt && env) {
    const run = db
      .query(`SELECT ${RUN_SELECT} FROM agent_runs WHERE source = 'live' AND ${OPEN} AND session_key = ? ORDER BY agent_runs.started_at DESC, agent_runs.rowid DESC LIMIT 1`)
      .get(env) as RunRow | null;
    if (run) return target(db, root, run, "env");
  }
  if (adopt) {
    const valid = findValidPointerRun(db, root, agent);
    if (valid) return target(db, root, valid.run, "pointer", valid.pointer);
    const live = onlyLiveSession(db, root);
    if (live) return live;
  }
  const id = canonicalAgent(agent);
  const hooks = db
    .query(
      `SELECT ${RUN_SELECT} FROM agent_runs WHERE source = 'live' AND ${OPEN} AND agent_name IN (?, ?) AND session_key LIKE ?
       ORDER BY agent_runs.started_at DESC, agent_runs.rowid DESC LIMIT 1`,
    )
    .get(`@${id}`, id, `hooks-${id}-%`) as RunRow | null;
  return hooks ? target(db, root, hooks, "hooks") : null;
}

export type AutoStartInput = { root: string; agent: string; source: string; harnessSessionId: string | null; at: string };

export function autoStartedMessage(source: string): string {
  return `Auto-started by hooks:emit (${source})`;
}

function freeSessionKey(db: Database, base: string): string {
  const taken = db.query("SELECT 1 FROM agent_runs WHERE session_key = ? UNION ALL SELECT 1 FROM tasks WHERE session_key = ? LIMIT 1");
  if (!taken.get(base, base)) return base;
  for (let n = 2; ; n++) if (!taken.get(`${base}-${n}`, `${base}-${n}`)) return `${base}-${n}`;
}

/** Spec 4.13: the hooks session of an agent (rows only; publish with `publishNewSession` after commit). */
export function autoStartHooksSession(db: Database, input: AutoStartInput): NewSession {
  const id = canonicalAgent(input.agent);
  return createSessionRows(db, {
    owner: "hooks",
    agent: id,
    tool: input.source,
    root: input.root,
    sessionKey: freeSessionKey(db, `hooks-${id}-${Date.parse(input.at)}`),
    title: `[hooks] ${id} via ${input.source}`,
    startedMessage: autoStartedMessage(input.source),
    meta: { auto_started: true },
    firstEventPayload: {
      tool_session: input.source,
      path: input.root,
      hooks_version: "1",
      written_by: "hooks:emit",
      ...(input.harnessSessionId ? { harness_session_id: input.harnessSessionId } : {}),
    },
    harnessSessionId: input.harnessSessionId,
    at: input.at,
  });
}
